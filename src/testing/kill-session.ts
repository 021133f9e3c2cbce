/** killSession for the Node entry: the killer connects with node:net unless told otherwise (kill-session-core.ts). */

import type { ZooKeeperClient } from '../client.js';
import { nodeTransport } from '../transport/node.js';
import { killSessionVia, type KillSessionOptions, type SessionLost } from './kill-session-core.js';

export type { KillSessionOptions, SessionLost };

/**
 * Expires `client`'s current session on the server and resolves with the `LOST` change once `client` has seen it
 * (its `state` went to `expired`). A client that renews its session (the default) is already opening a new one
 * then: wait for it with `client.waitConnected()`. Its ephemeral nodes are gone from the server before this resolves.
 * Works against a real server (the killer connects with node:net, or `options.clientOptions.transport`) and
 * against an `InMemoryZooKeeper` (through its transport, found from the client's connect string).
 *
 * Rejects with a ZooKeeperError: `CLOSED` when the client has ended, `TIMEOUT` after `options.timeoutMs`.
 */
export function killSession(client: ZooKeeperClient, options: KillSessionOptions = {}): Promise<SessionLost> {
  return killSessionVia(() => nodeTransport(), client, options);
}
