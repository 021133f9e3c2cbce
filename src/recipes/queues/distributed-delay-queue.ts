/**
 * DistributedDelayQueue: Curator's DistributedDelayQueue, a DistributedQueue whose node names carry the time
 * before which the item must not be consumed (`queue-|<epoch ms in hex>|<seq>`, node-names.ts). Items are taken in
 * time order once due; the consumer waits for the first one's time with a timer, not a poll. Times are wall-clock
 * (ms since 1970, as Java's System.currentTimeMillis()), so producers' and consumers' clocks must agree. A requeued
 * node goes back without its time, as Curator's.
 */

import type { ZooKeeperClient } from '../../client.js';
import { badArgument } from '../common/errors.js';
import type { RecipeState } from '../common/lifecycle.js';
import { delayName, delayOrder, epochOf, QUEUE_ITEM_NAME } from './node-names.js';
import { QueueEngine } from './queue-engine.js';
import type { DistributedQueueOptions } from './queue-options.js';

/**
 * Curator's DistributedDelayQueue: each item is consumed no sooner than its time.
 *
 * Usage: `await queue.put(reminder, Date.now() + 60_000)`.
 */
export class DistributedDelayQueue<T> implements AsyncDisposable {
  readonly #engine: QueueEngine<T>;

  constructor(
    client: ZooKeeperClient,
    /** The queue's node. */
    readonly path: string,
    options: DistributedQueueOptions<T>,
  ) {
    this.#engine = new QueueEngine(client, path, options, {
      recipe: 'DistributedDelayQueue',
      order: delayOrder,
      delayOf: (name) => epochOf(name) - Date.now(),
      requeueName: () => QUEUE_ITEM_NAME,
    });
  }

  /** `LATENT` before start(), `STARTED` until close(), then `CLOSED`. */
  get state(): RecipeState {
    return this.#engine.state;
  }

  /** As DistributedQueue.start(). */
  start(options: { readonly signal?: AbortSignal } = {}): Promise<void> {
    return this.#engine.start(options.signal);
  }

  /** Puts one item not to be consumed before `untilEpochMs` (ms since 1970, > 0); resolves with its node's path. */
  put(item: T, untilEpochMs: number, options: { readonly signal?: AbortSignal } = {}): Promise<string> {
    return this.putMulti([item], untilEpochMs, options);
  }

  /** Puts several items in one node with one time. */
  putMulti(items: readonly T[], untilEpochMs: number, options: { readonly signal?: AbortSignal } = {}): Promise<string> {
    if (!Number.isSafeInteger(untilEpochMs) || untilEpochMs <= 0) {
      return Promise.reject(badArgument('DistributedDelayQueue.put', this.path, 'the time must be a positive integer of ms since 1970'));
    }
    return this.#engine.put(items, delayName(untilEpochMs), options.signal, 'put');
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
