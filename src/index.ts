/**
 * zkwire's portable public surface: no runtime-specific imports, so it loads in Node, Deno, Bun and edge runtimes
 * alike. The package root resolves here under the `workerd` and `default` export conditions, and `zkwire/portable`
 * always does; under the `node` condition the root resolves to ./node.js, which has the same API plus node:net as
 * the default transport. Here there is no default transport: pass one in the options (`streamSocketTransport` over
 * the runtime's socket `connect`, `denoTransport`, or `nodeTransport` from 'zkwire/node').
 *
 * @module zkwire/portable
 */

import { ZooKeeperClient } from './client.js';
import type { ClientOptions } from './client/types.js';

/**
 * Connects and resolves once the session is established. This entry has no default transport, so
 * `options.transport` is required: without it the promise rejects with a ZooKeeperError whose code is BAD_ARGUMENT.
 * (The Node entry's `connect`, which the package root gives Node, Bun and Deno, defaults to node:net.)
 */
export function connect(connectString: string, options: ClientOptions = {}): Promise<ZooKeeperClient> {
  return ZooKeeperClient.connect(connectString, options);
}

// The client and its options. Each name of the public surface is exported once, from one entry; docs/api.md lists
// every entry and every name with what it is for.
export { ZooKeeperClient } from './client.js';
export { DEFAULT_SESSION_TIMEOUT_MS } from './client/connecting.js';
export type {
  AclProvider,
  AddWatchMode,
  CallOptions,
  ChildrenWithStat,
  ClientIdentity,
  ClientOptions,
  Resolver,
  CreateOptions,
  Created,
  Data,
  GetDataOptions,
  MkdirpOptions,
  NodeData,
  ReconfigChange,
  RemoveWatchType,
  SetDataOptions,
  Stat,
  VersionOptions,
  DeleteOptions,
  Watched,
  WatchEvent,
  WatchEventType,
  WatchKeeperState,
  WatchOptions,
} from './client/types.js';
export { Op, type OpBuilders, type OpResult, type ReadOp, type WriteOp } from './client/multi.js';
export type { PersistentWatch } from './client/watch-handle.js';
export { compressWith } from './client/compression.js';
export type { Compression, CompressionOptions, CompressionProvider } from './client/types.js';
export type { ServerFeatures } from './client/server-features.js';
export { reconfig } from './client/admin-ops.js';
export { namespaceOf, usingNamespace } from './client/namespace.js';
export type { CreateMode } from './client/create-mode.js';
export { DEFAULT_MAX_DATA_SIZE } from './client/request-size.js';
export type { SessionState, ConnectionEvent, StateChange } from './session/state.js';
export type { Clock, TimerHandle } from './session/clock.js';
export type { FrameTrace, FrameListener } from './session/trace.js';
export { describeFrames, type DescribedFrameTrace } from './session/describe-frames.js';
export type { ClientStats, OperationStats } from './client/call-stats.js';
export { collectStats, type StatsCollector } from './client/collect-stats.js';
export type { ConnectionMessage, OperationMessage } from './client/observe.js';

// Retrying: one vocabulary for the client's reconnect option and the recipes' retry options.
export {
  exponentialBackoff,
  noRetry,
  retryForever,
  retryNTimes,
  retryUntilElapsed,
  type ExponentialBackoffOptions,
  type RetryPolicy,
} from './session/retry-policy.js';

// Errors.
export { isCode, isRetryable, isSessionLost, ZooKeeperError, type ErrorCodeName, type ZooKeeperErrorOptions } from './errors.js';

// ACLs and authentication.
export { CREATOR_ALL_ACL, digestAcl, digestId, OPEN_ACL_UNSAFE, Perms, READ_ACL_UNSAFE, type ACL, type Id } from './client/acl.js';
export { saslMechanism, type SaslContext, type SaslExchange, type SaslMechanism } from './session/sasl-login.js';
export { saslDigestMd5, type DigestCredentials } from './session/sasl-digest-md5.js';
export { systemClock } from './session/clock.js';
export { parseConnectString, type ConnectString } from './session/connect-string.js';

// Transports.
export type { ByteStream, ByteStreamHandlers, ConnectOptions, Endpoint, TlsOptions, Transport } from './transport/types.js';
export { denoTransport, type DenoTlsOptions, type DenoTransportOptions } from './transport/deno.js';
export {
  streamSocketTransport,
  type StreamSocket,
  type StreamSocketAddress,
  type StreamSocketConnect,
  type StreamSocketOptions,
  type StreamSocketTransportOptions,
  type StreamReader,
  type StreamWriter,
} from './transport/web.js';

// The locks the project is named for (Curator's five). The other recipes are in zkwire/recipes, service discovery
// in zkwire/discovery; all of them are built on the client's public API above.
export { InterProcessMutex } from './recipes/locks/mutex.js';
export { InterProcessSemaphoreMutex } from './recipes/locks/semaphore-mutex.js';
export { InterProcessReadWriteLock, type ReadWriteHalf } from './recipes/locks/read-write-lock.js';
export { InterProcessMultiLock, type MultiLease } from './recipes/locks/multi-lock.js';
export { InterProcessSemaphoreV2, type SemaphoreAcquireOptions } from './recipes/locks/semaphore-v2.js';
export { NOT_ACQUIRED, type Lease, type NotAcquired } from './recipes/locks/lease.js';
export type { AcquireOptions, InterProcessLock } from './recipes/locks/reentrant-lock.js';
export type { LockOptions } from './recipes/locks/options.js';
export type { LockLostPolicy } from './recipes/locks/lock-lost.js';
export { attemptRevoke, type RevocationListener } from './recipes/locks/revocation.js';
export type { RecipeState } from './recipes/common/lifecycle.js';
