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

export { ZooKeeperClient } from './client.js';
export type {
  AddWatchMode,
  CallOptions,
  ChildrenWithStat,
  ClientIdentity,
  ClientOptions,
  CreateOptions,
  Created,
  Data,
  MkdirpOptions,
  NodeData,
  ReconfigChange,
  RemoveWatchType,
  Stat,
  VersionOptions,
  Watched,
  WatchEvent,
  WatchEventType,
  WatchKeeperState,
  WatchOptions,
} from './client/types.js';
export { Op, type OpBuilders, type OpResult, type ReadOp, type WriteOp } from './client/multi.js';
export { PersistentWatch } from './client/watch-handle.js';
export { reconfig } from './client/admin-ops.js';
export { namespaceOf, usingNamespace } from './client/namespace.js';
export { CREATOR_ALL_ACL, digestAcl, digestId, OPEN_ACL_UNSAFE, Perms, READ_ACL_UNSAFE, type ACL, type Id } from './client/acl.js';
export type { CreateMode } from './client/create-mode.js';
export { pathProblem } from './client/paths.js';
export { DEFAULT_MAX_DATA_SIZE } from './client/request-size.js';
export {
  clientError,
  errorFromServer,
  isCode,
  isRetryable,
  isSessionLost,
  ZooKeeperError,
  type ErrorCodeName,
  type ZooKeeperErrorOptions,
} from './errors.js';
export type { SessionState, ConnectionEvent, StateChange } from './session/state.js';
export type { FrameTrace, FrameListener } from './session/trace.js';
export { describeFrames, type DescribedFrameTrace } from './session/describe-frames.js';
export type { SaslExchange, SaslMechanism } from './session/sasl-login.js';
export { saslDigestMd5, type DigestCredentials } from './session/sasl-digest-md5.js';
export { systemClock, type Clock, type TimerHandle } from './session/clock.js';
export { defaultReconnectDelay, type ReconnectDelay } from './session/timing.js';
export type { ByteStream, ByteStreamHandlers, ConnectOptions, Endpoint, TlsOptions, Transport } from './transport/types.js';
export { denoTransport, type DenoTlsOptions, type DenoTransportOptions } from './transport/deno.js';
export {
  streamSocketTransport,
  webSocketTransport,
  type StreamSocket,
  type StreamSocketAddress,
  type StreamSocketConnect,
  type StreamSocketOptions,
  type StreamSocketTransportOptions,
  type StreamReader,
  type StreamWriter,
  type WebSocketTransportOptions,
} from './transport/web.js';

// The recipes: built only on the client API above, re-exported so one import gives both.
export * from './recipes/index.js';
