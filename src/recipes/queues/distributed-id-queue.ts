/**
 * DistributedIdQueue: Curator's DistributedIdQueue, a DistributedQueue whose items carry an id in their node name
 * (`queue-|<id>|<seq>`), so queued items can be removed by id before anyone consumes them. Taken in put order (the
 * name without its id), requeued with their id.
 */

import type { ZooKeeperClient } from '../../client.js';
import { badArgument } from '../common/errors.js';
import type { RecipeState } from '../common/lifecycle.js';
import { idName, idOrder, parseIdName, QUEUE_ITEM_NAME } from './node-names.js';
import { QueueEngine } from './queue-engine.js';
import type { DistributedQueueOptions } from './queue-options.js';

/**
 * Curator's DistributedIdQueue: a DistributedQueue with an id per put, and remove(id).
 *
 * Usage: `await queue.put(job, 'order-17')`, later `await queue.remove('order-17')` if it is no longer wanted.
 */
export class DistributedIdQueue<T> implements AsyncDisposable {
  readonly #engine: QueueEngine<T>;

  constructor(
    client: ZooKeeperClient,
    /** The queue's node. */
    readonly path: string,
    options: DistributedQueueOptions<T>,
  ) {
    this.#engine = new QueueEngine(client, path, options, {
      recipe: 'DistributedIdQueue',
      order: idOrder,
      requeueName: (name) => QUEUE_ITEM_NAME + idName(parseIdName(name).id),
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

  /** Puts one item with `id` (non-empty; `/` and `|` in it become `_`, as Curator writes them); resolves with its node's path. */
  put(item: T, id: string, options: { readonly signal?: AbortSignal } = {}): Promise<string> {
    if (typeof id !== 'string' || id === '') return Promise.reject(badArgument('DistributedIdQueue.put', this.path, 'the id must be a non-empty string'));
    return this.#engine.put([item], idName(id), options.signal, 'put');
  }

  /**
   * Removes every queued item with `id` (as written: `/` and `|` made `_`), lock-safe when the queue is; resolves
   * with how many this call removed.
   */
  remove(id: string): Promise<number> {
    if (typeof id !== 'string') return Promise.reject(badArgument('DistributedIdQueue.remove', this.path, 'the id must be a string'));
    const written = idName(id).slice(1, -1);
    return this.#engine.remove((name) => parseIdName(name).id === written, 'remove');
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
