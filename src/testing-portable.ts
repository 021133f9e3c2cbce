/**
 * The portable part of `zkwire/testing`, what that entry gives workerd and browsers (its `workerd` and `browser`
 * export conditions), and `zkwire/testing/portable` everywhere: the in-memory ZooKeeper and killSession, with no
 * Node API. Node, Deno and Bun get the whole kit from `zkwire/testing`, this included. See docs/testing.md.
 *
 * @module zkwire/testing/portable
 */

export { InMemoryZooKeeper, type InMemoryZooKeeperOptions } from './testing/in-memory/server.js';
export type { InMemoryZooKeeperVersion } from './testing/in-memory/version.js';
export { killSession } from './testing/kill-session-portable.js';
export type { KillSessionOptions, SessionLost } from './testing/kill-session-core.js';
