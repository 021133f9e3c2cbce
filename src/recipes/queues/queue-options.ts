/** What a DistributedQueue (and its id, priority and delay flavours) is made with. */

import type { Clock } from '../../session/clock.js';
import type { QueueSerializer } from './item-format.js';

/**
 * Takes one item. Its promise settling is the item's end: in lock-safe mode the item's node is deleted only then.
 * `signal` aborts when the queue closes, and in lock-safe mode when the session holding the item's lock ends (the
 * item is then left for another consumer).
 */
export type QueueConsumer<T> = (item: T, context: { readonly signal: AbortSignal }) => void | Promise<void>;

/**
 * What a lock-safe queue does with a node whose consumer threw (Curator's ErrorMode): `REQUEUE` (the default) puts
 * the node's items back at the tail, `DELETE` drops them. Without a lock path the node is already gone.
 */
export type QueueErrorMode = 'REQUEUE' | 'DELETE';

/** How a DistributedQueue is built (Curator's QueueBuilder). */
export interface DistributedQueueOptions<T> {
  /** Items to bytes and back (Curator's QueueSerializer): `utf8QueueSerializer`, `bytesQueueSerializer`, or yours. */
  readonly serializer: QueueSerializer<T>;
  /** Consumes the items; without one the queue only produces (Curator's `consumer == null`). */
  readonly consumer?: QueueConsumer<T>;
  /**
   * Lock-safe mode (Curator's QueueBuilder.lockPath): before consuming a node, the consumer holds an ephemeral
   * `<lockPath>/<node name>`, and deletes the node only after the consumer's promise settles. A consumer that dies or
   * loses its session mid-item leaves the item to another consumer (at-least-once). Without it a node is deleted
   * before its items are consumed (at-most-once), as in Curator.
   */
  readonly lockPath?: string;
  /** Lock-safe mode only: see QueueErrorMode (default `REQUEUE`). */
  readonly errorMode?: QueueErrorMode;
  /**
   * Told of what a consumer cannot throw to anyone: a consumer that threw, a node that is not Curator's item format
   * (it is dropped, as Curator drops it), a failure of the queue's loop that no reconnect fixes (it retries with a
   * back-off). `node` is the item node's path, when there is one.
   */
  readonly onError?: (error: unknown, node: string | undefined) => void;
  /** Timers (tests). */
  readonly clock?: Clock;
}
