/**
 * The `zkwire/testing` entry (Node; Deno and Bun through their Node compatibility): what an application's own tests
 * need to run against real ZooKeeper, as Curator's `curator-test` gives Java.
 *
 * - {@link TestingServer}: a throwaway standalone server on a free loopback port, from the ZooKeeper this machine
 *   has; stop, restart on the same port and data, `await using`.
 * - {@link TestingCluster}: an ensemble of 3 (or N) members; find the leader, kill, pause and restart members.
 * - {@link killSession}: expire a client's session on the server now, to test expiry handling deterministically.
 * - {@link startFaultProxy}: a frame-aware proxy that freezes, delays, drops replies and resets connections.
 *
 * - {@link TestingKdc}: a throwaway Kerberos realm (MIT's KDC) and the options that make servers Kerberized, to test
 *   a `saslGssapi` login (zkwire/kerberos).
 *
 * - {@link InMemoryZooKeeper}: a standalone ZooKeeper in memory, speaking the real wire protocol through a Transport,
 *   for tests with no Java and no sockets; also the whole of this entry under workerd and in browsers.
 *
 * Everything it starts is stopped when the process exits or is interrupted. See docs/testing.md.
 *
 * @module zkwire/testing
 */

export { TestingServer } from './testing/server.js';
export type { TestingServerOptions } from './testing/options.js';
export type { TestingServerTls } from './testing/local-server/tls.js';
export { TestingCluster, type ClusterMember, type TestingClusterOptions } from './testing/cluster.js';
export { killSession, type KillSessionOptions, type SessionLost } from './testing/kill-session.js';
export { InMemoryZooKeeper, type InMemoryZooKeeperOptions } from './testing/in-memory/server.js';
export type { InMemoryZooKeeperVersion } from './testing/in-memory/version.js';
export {
  startFaultProxy,
  type FaultProxy,
  type FaultProxyOptions,
  type ProxyLink,
  type ReplyInfo,
} from './testing/fault-proxy.js';
export { TestingKdc, type TestingKdcOptions, type KerberizedServerOptions } from './testing/kdc.js';
export { ZooKeeperNotInstalledError } from './testing/local-server/install.js';
export { CleanupRegistry, type CleanupOptions } from './testing/local-server/cleanup.js';
