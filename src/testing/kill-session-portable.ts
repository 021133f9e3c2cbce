/** killSession for the portable entry: no default transport, so only in-memory servers or a given transport. */

import type { ZooKeeperClient } from '../client.js';
import { killSessionVia, type KillSessionOptions, type SessionLost } from './kill-session-core.js';

/**
 * Expires `client`'s current session on the server and resolves with the `LOST` change once `client` has seen it,
 * as the Node entry's killSession does. The killer reaches an `InMemoryZooKeeper` through its transport; any
 * other server needs `options.clientOptions.transport` (else BAD_ARGUMENT).
 *
 * Rejects with a ZooKeeperError: `CLOSED` when the client has ended, `TIMEOUT` after `options.timeoutMs`.
 */
export function killSession(client: ZooKeeperClient, options: KillSessionOptions = {}): Promise<SessionLost> {
  return killSessionVia(undefined, client, options);
}
