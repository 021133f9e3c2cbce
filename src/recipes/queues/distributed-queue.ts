/**
 * DistributedQueue: Curator's DistributedQueue on Curator's nodes: each put is one persistent sequential
 * `queue-<seq>` node holding one or more items in Curator's item format (item-format.ts), taken in text order by
 * every started queue that has a consumer, zkwire's and Curator's alike. With `lockPath`, Curator's lock-safe mode:
 * a node is deleted only after its consumer's promise settles, and a consumer that dies or loses its session
 * mid-item leaves the item to another (queue-options.ts, take-item.ts).
 *
 * Across a session expiry (the client opens a new session by itself) the queue carries on: its nodes are
 * persistent, the consumer lists them again on the new session, and an item whose lock went with the old session is
 * left for whichever consumer locks it next. A put() on the wire at the expiry or a broken link rejects with that
 * error (CONNECTIONLOSS or SESSIONEXPIRED): its node may or may not exist, and it is not sent twice.
 */

import type { ZooKeeperClient } from '../../client.js';
import type { RecipeState } from '../common/lifecycle.js';
import { textOrder, QUEUE_ITEM_NAME } from './node-names.js';
import { QueueEngine } from './queue-engine.js';
import type { DistributedQueueOptions } from './queue-options.js';

/**
 * Curator's DistributedQueue: items put by any process, each consumed by one started queue with a consumer.
 *
 * Usage: `const queue = new DistributedQueue(client, '/jobs', { serializer: utf8QueueSerializer, consumer: run })`,
 * `await queue.start()`, `await queue.put('job-1')`, and `await queue.close()` when done.
 */
export class DistributedQueue<T> implements AsyncDisposable {
  readonly #engine: QueueEngine<T>;

  constructor(
    client: ZooKeeperClient,
    /** The queue's node; its `queue-` children are the items. */
    readonly path: string,
    options: DistributedQueueOptions<T>,
  ) {
    this.#engine = new QueueEngine(client, path, options, { recipe: 'DistributedQueue', order: textOrder, requeueName: () => QUEUE_ITEM_NAME });
  }

  /** `LATENT` before start(), `STARTED` until close(), then `CLOSED`. */
  get state(): RecipeState {
    return this.#engine.state;
  }

  /**
   * Makes the queue's node (and the lock directory) and, with a consumer, starts consuming. Resolves once the nodes
   * exist; see docs/recipes.md for how start() rejects.
   */
  start(options: { readonly signal?: AbortSignal } = {}): Promise<void> {
    return this.#engine.start(options.signal);
  }

  /** Puts one item at the tail; resolves with its node's path. ILLEGAL_STATE unless started. */
  put(item: T, options: { readonly signal?: AbortSignal } = {}): Promise<string> {
    return this.#engine.put([item], '', options.signal, 'put');
  }

  /** Puts several items in one node (Curator's putMulti): one consumer takes them together, in order. */
  putMulti(items: readonly T[], options: { readonly signal?: AbortSignal } = {}): Promise<string> {
    return this.#engine.put(items, '', options.signal, 'putMulti');
  }

  /**
   * The items as an async iterable, for a queue made without a `consumer`: `for await (const item of
   * queue.items({ signal }))`. An item counts as consumed when the loop asks for the next one or is left (in
   * lock-safe mode its node is deleted then; one in hand when the queue closes stays in the queue). Ends when the
   * queue closes, `signal` fires, the loop is left, or the client ends; waits out a broken link. ILLEGAL_STATE
   * unless started, with a `consumer` option, or while another items() iteration of this queue runs.
   */
  items(options: { readonly signal?: AbortSignal } = {}): AsyncIterableIterator<T> {
    return this.#engine.items(options.signal);
  }

  /**
   * Stops consuming: the consumer's signal aborts; in lock-safe mode an item being consumed is left in the queue and
   * its lock deleted (in the background if the client is disconnected). Settles promptly with the link down.
   */
  close(): Promise<void> {
    return this.#engine.close();
  }

  /** For `await using`: close() if started, else just marks it CLOSED. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.#engine.dispose();
  }
}
