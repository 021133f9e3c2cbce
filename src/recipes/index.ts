/**
 * Apache Curator's recipes on the public client API, on Curator's znodes: the five locks, leader election, caches,
 * shared values and counters, barriers, an atomic counter, kept-alive nodes, service discovery (curator-x-discovery)
 * and gzip node data. Re-exported by the package entry.
 *
 * @module zkwire/recipes
 */

export { InterProcessMutex } from './locks/mutex.js';
export { InterProcessSemaphoreMutex } from './locks/semaphore-mutex.js';
export { InterProcessReadWriteLock, ReadWriteHalf } from './locks/read-write-lock.js';
export { InterProcessMultiLock, MultiLease } from './locks/multi-lock.js';
export { InterProcessSemaphoreV2, type SemaphoreAcquireOptions } from './locks/semaphore-v2.js';
export { Lease, NOT_ACQUIRED, type NotAcquired } from './locks/lease.js';
export type { RecipeState } from './common/lifecycle.js';
export type { AcquireOptions, InterProcessLock } from './locks/reentrant-lock.js';
export type { LockOptions } from './locks/options.js';
export type { LockLostPolicy } from './locks/lock-lost.js';
export { attemptRevoke, type RevocationListener } from './locks/revocation.js';
export { exponentialBackoff, noRetry, type ExponentialBackoffOptions, type RecipeClock, type RetryPolicy } from './retry.js';
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
export type { RecipeEvents } from './common/event-hub.js';
export type { RecipeConnectionEvent } from './common/connection.js';
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

// Service discovery: Curator's curator-x-discovery, read and written as Java services (Spring Cloud, Dubbo) do.
export {
  ServiceDiscovery,
  type ServiceDiscoveryEvent,
  type ServiceDiscoveryOptions,
  type ServiceDiscoveryState,
} from './discovery/service-discovery.js';
export {
  createModeOf,
  isNodeName,
  SERVICE_TYPES,
  serviceInstance,
  checkServiceInstance,
  type JavaObject,
  type ServiceInstance,
  type ServiceInstanceOptions,
  type ServicePayload,
  type ServiceType,
} from './discovery/service-instance.js';
export { decodeServiceInstance, encodeServiceInstance, type InstanceCodecOptions } from './discovery/instance-codec.js';
export type { JsonValue } from './discovery/jackson-json.js';
export { buildUriSpec, parseUriSpec, type UriSpec, type UriSpecPart, type UriSpecSource } from './discovery/uri-spec.js';
export {
  DUBBO_INSTANCE_CLASS,
  dubboPayload,
  javaPayload,
  readZookeeperInstance,
  SPRING_CLOUD_INSTANCE_CLASS,
  springCloudPayload,
  type ZookeeperInstanceFields,
  type ZookeeperInstancePayload,
} from './discovery/payloads.js';
export { ServiceCache, type ServiceCacheEvent, type ServiceCacheOptions, type ServiceCacheState } from './discovery/service-cache.js';
export { ServiceProvider, type ServiceProviderOptions } from './discovery/service-provider.js';
export { randomStrategy, roundRobinStrategy, stickyStrategy, type ProviderStrategy } from './discovery/provider-strategies.js';
export type { DownInstancePolicy } from './discovery/down-instances.js';

// Compression: Curator's GzipCompressionProvider format, opt-in per read and write.
export { gzipCompress, gzipDecompress, GzipCompression, type CompressionProvider } from './compression/gzip.js';
