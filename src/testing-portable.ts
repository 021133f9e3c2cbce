/**
 * The portable part of `zkwire/testing`, what the entry gives workerd and browsers (the `workerd` and `default`
 * export conditions): the in-memory ZooKeeper and killSession, with no Node API. Node, Deno and Bun get the whole
 * kit from `src/testing.ts`, this included. See docs/testing.md.
 *
 * @module zkwire/testing (portable)
 */

export { InMemoryZooKeeper, type InMemoryZooKeeperOptions } from './testing/in-memory/server.js';
export { killSession } from './testing/kill-session-portable.js';
export type { KillSessionOptions } from './testing/kill-session-core.js';
export type { Clock, TimerHandle } from './session/clock.js';
