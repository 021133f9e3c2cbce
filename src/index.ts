/**
 * zkwire's portable public surface: no runtime-specific imports, so it loads in Node, Deno, Bun and edge
 * runtimes alike. Pass a transport in the options (nodeTransport from the Node entry, denoTransport,
 * webSocketTransport); under Node the package root resolves to ./node.js, which supplies node:net itself.
 */

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
  SaslOptions,
  RemoveWatchType,
  Stat,
  VersionOptions,
  Watched,
  WatchEvent,
  WatchEventType,
  WatchKeeperState,
  WatchOptions,
} from './client/types.js';
export { Op, type OpResult, type ReadOp, type WriteOp } from './client/multi.js';
export { PersistentWatch } from './client/watch-handle.js';
export { CREATOR_ALL_ACL, digestAcl, digestId, OPEN_ACL_UNSAFE, Perms, READ_ACL_UNSAFE, type ACL, type Id } from './client/acl.js';
export type { CreateMode } from './client/create-mode.js';
export { pathProblem } from './client/paths.js';
export {
  clientError,
  errorFromServer,
  isRetryable,
  isSessionLost,
  ZooKeeperError,
  type ErrorCodeName,
  type ZooKeeperErrorOptions,
} from './errors.js';
export type { SessionState, ConnectionEvent, StateChange } from './session/state.js';
export type { FrameTrace, FrameListener } from './session/trace.js';
export type { Clock, TimerHandle } from './session/clock.js';
export { defaultReconnectDelay, type ReconnectDelay } from './session/timing.js';
export type { ByteStream, ByteStreamHandlers, ConnectOptions, Endpoint, Transport } from './transport/types.js';
export { denoTransport, type DenoTransportOptions } from './transport/deno.js';
export { webSocketTransport, type WebSocketTransportOptions, type StreamSocketConnect } from './transport/web.js';

// The lock recipes: built only on the client API above, re-exported so one import gives both.
export * from './recipes/index.js';
