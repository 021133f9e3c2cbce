/**
 * Apache Curator's recipes on the public client API, on Curator's znodes: leader election, caches, shared values and
 * counters, barriers, an atomic counter, kept-alive nodes and group membership, Curator's queues, and gzip node data. The five locks are
 * in the package root, service discovery in `zkwire/discovery`; the types the recipes share with the locks
 * (`RecipeState`, the retry policies) are in the root too.
 *
 * @module zkwire/recipes
 */

// Curator's znode names, for code that reads or writes the layout directly (the locks themselves are in the package root).
export { LOCK_NAME, READ_LOCK_NAME, WRITE_LOCK_NAME, LEASE_NAME, REVOKE_MESSAGE } from './locks/naming.js';

// Beyond locks: leader election, shared values, caches, counters, barriers, nodes (Curator's other recipes).
export {
  LeaderLatch,
  LATCH_NAME,
  type CloseMode,
  type LeaderLatchEvent,
  type LeaderLatchOptions,
  type LeaderLatchState,
  type LeadershipLostPolicy,
} from './leader/leader-latch.js';
export { NO_LEADER, type Participant } from './leader/participant.js';
export { watchLeader, type LeaderObservation, type WatchLeaderOptions } from './leader/watch-leader.js';
export type { RecipeEvents } from './common/event-hub.js';
export type { RecipeConnectionEvent } from './common/connection.js';
export { onDampedConnectionEvent, type ConnectionDamping } from './common/damping.js';
export type { WaitOptions } from './common/deadline.js';
export {
  SharedValue,
  type SharedValueEvent,
  type SharedValueOptions,
  type SharedValueState,
} from './shared/shared-value.js';
export { SharedCount, type SharedCountEvent } from './shared/shared-count.js';
export type { VersionedValue } from './shared/versioned.js';
export {
  LeaderSelector,
  type Leadership,
  type LeaderSelectorEvent,
  type LeaderSelectorOptions,
  type LeaderSelectorState,
  type TakeLeadership,
} from './leader/leader-selector.js';
export {
  DistributedAtomicLong,
  type AtomicCallOptions,
  type AtomicStats,
  type AtomicValue,
  type DistributedAtomicLongOptions,
  type PromotedToLock,
} from './atomic/distributed-atomic-long.js';
export { DistributedBarrier } from './barriers/distributed-barrier.js';
export { DistributedDoubleBarrier, READY_NODE, type DoubleBarrierState } from './barriers/double-barrier.js';
export {
  CuratorCache,
  type ChildData,
  type CuratorCacheEvent,
  type CuratorCacheOptions,
  type CuratorCacheState,
} from './cache/curator-cache.js';
export {
  PersistentNode,
  type PersistentNodeEvent,
  type PersistentNodeOptions,
  type PersistentNodeState,
} from './nodes/persistent-node.js';
export { PersistentTtlNode, TTL_CHILD_NAME, type PersistentTtlNodeOptions } from './nodes/persistent-ttl-node.js';
export { GroupMember, type GroupMemberEvent } from './nodes/group-member.js';

// Queues: Curator's queue family, on Curator's nodes and item format.
export { SimpleDistributedQueue } from './queues/simple-distributed-queue.js';
export { DistributedQueue } from './queues/distributed-queue.js';
export { DistributedIdQueue } from './queues/distributed-id-queue.js';
export { DistributedPriorityQueue } from './queues/distributed-priority-queue.js';
export { DistributedDelayQueue } from './queues/distributed-delay-queue.js';
export type { DistributedQueueOptions, QueueConsumer, QueueErrorMode } from './queues/queue-options.js';
export { bytesQueueSerializer, utf8QueueSerializer, type QueueSerializer } from './queues/item-format.js';
export { QUEUE_ITEM_NAME, SIMPLE_QUEUE_PREFIX } from './queues/node-names.js';

// Compression: Curator's GzipCompressionProvider format, for the client's `compression` option or by hand.
export { gzipCompress, gzipDecompress, GzipCompression } from './compression/gzip.js';
