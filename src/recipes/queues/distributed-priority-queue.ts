/**
 * DistributedPriorityQueue: Curator's DistributedPriorityQueue, a DistributedQueue whose node names carry the
 * priority before the sequence (`queue-<1|0><8 hex digits><seq>`, node-names.ts), so text order takes the lowest
 * priority first and, within one priority, put order. A requeued node goes back without its priority, as Curator's.
 */

import type { ZooKeeperClient } from '../../client.js';
import { badArgument } from '../common/errors.js';
import type { RecipeState } from '../common/lifecycle.js';
import { priorityName, QUEUE_ITEM_NAME, textOrder } from './node-names.js';
import { QueueEngine } from './queue-engine.js';
import type { DistributedQueueOptions } from './queue-options.js';

/**
 * Curator's DistributedPriorityQueue: lower `priority` values are consumed first.
 *
 * Usage: `await queue.put(job, 0)` goes before `await queue.put(other, 10)` still queued.
 */
export class DistributedPriorityQueue<T> implements AsyncDisposable {
  readonly #engine: QueueEngine<T>;

  constructor(
    client: ZooKeeperClient,
    /** The queue's node. */
    readonly path: string,
    options: DistributedQueueOptions<T>,
  ) {
    this.#engine = new QueueEngine(client, path, options, { recipe: 'DistributedPriorityQueue', order: textOrder, requeueName: () => QUEUE_ITEM_NAME });
  }

  /** `LATENT` before start(), `STARTED` until close(), then `CLOSED`. */
  get state(): RecipeState {
    return this.#engine.state;
  }

  /** As DistributedQueue.start(). */
  start(options: { readonly signal?: AbortSignal } = {}): Promise<void> {
    return this.#engine.start(options.signal);
  }

  /** Puts one item with `priority` (a 32-bit integer; lower goes first); resolves with its node's path. */
  put(item: T, priority: number, options: { readonly signal?: AbortSignal } = {}): Promise<string> {
    return this.putMulti([item], priority, options);
  }

  /** Puts several items in one node with one priority. */
  putMulti(items: readonly T[], priority: number, options: { readonly signal?: AbortSignal } = {}): Promise<string> {
    if (!Number.isInteger(priority) || priority < -0x80000000 || priority > 0x7fffffff) {
      return Promise.reject(badArgument('DistributedPriorityQueue.put', this.path, 'the priority must be a 32-bit integer'));
    }
    return this.#engine.put(items, priorityName(priority), options.signal, 'put');
  }

  /** As DistributedQueue.items(): the items in this queue's order, as an async iterable. */
  items(options: { readonly signal?: AbortSignal } = {}): AsyncIterableIterator<T> {
    return this.#engine.items(options.signal);
  }

  /** As DistributedQueue.close(). */
  close(): Promise<void> {
    return this.#engine.close();
  }

  /** For `await using`: close() if started, else just marks it CLOSED. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.#engine.dispose();
  }
}
