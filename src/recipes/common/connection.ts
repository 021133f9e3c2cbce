/**
 * What recipes need to know about the client's connection, from its public state and state changes: connected
 * or not, whether the client has ended (closed, refused, or expired with renewal off: then no session will follow),
 * and Curator-style connection events. A session expiry on a renewing client is LOST followed, once the new session
 * is up, by RECONNECTED with `newSession: true`: what the old session owned (ephemeral nodes, one-shot watches) is
 * gone, and a recipe rebuilds it on the new session.
 */

import type { ZooKeeperClient } from '../../client.js';
import { ZooKeeperError } from '../../errors.js';
import type { StateChange } from '../../session/state.js';

type State = ZooKeeperClient['state'];

const CONNECTED: ReadonlySet<State> = new Set<State>(['connected', 'connected-read-only']);

export type SessionEndCode = 'SESSIONEXPIRED' | 'CLOSED' | 'AUTHFAILED';

export function isConnected(client: ZooKeeperClient): boolean {
  return CONNECTED.has(client.state);
}

/** True once the client will have no session again (see ZooKeeperClient.ended): a recipe can only stop. */
export function isSessionOver(client: ZooKeeperClient): boolean {
  return client.ended;
}

export function sessionEndCode(client: ZooKeeperClient): SessionEndCode {
  return client.state === 'closed' ? 'CLOSED' : client.state === 'auth-failed' ? 'AUTHFAILED' : 'SESSIONEXPIRED';
}

export function sessionEndError(client: ZooKeeperClient, what?: string, path?: string): ZooKeeperError {
  const code = sessionEndCode(client);
  const where = what === undefined ? '' : ` (${what}${path === undefined ? '' : ` ${path}`})`;
  const why = code === 'CLOSED' ? 'the client was closed' : code === 'AUTHFAILED' ? 'the server refused the credentials' : 'the ZooKeeper session has ended';
  return new ZooKeeperError(code, `${code}${where}: ${why}`, {
    ...(what === undefined ? {} : { op: what }),
    ...(path === undefined ? {} : { path }),
  });
}

/** Curator's connection events, the ones recipes react to. */
export type RecipeConnectionEvent = 'SUSPENDED' | 'RECONNECTED' | 'LOST';

/**
 * Calls `listener` on every later SUSPENDED / RECONNECTED / LOST, with the change behind it (`change.newSession` on
 * the RECONNECTED that follows a session renewal); returns the unsubscribe function.
 */
export function onConnectionEvent(client: ZooKeeperClient, listener: (event: RecipeConnectionEvent, change: StateChange) => void): () => void {
  return client.onStateChange((change) => {
    const event = change.event;
    if (event === 'SUSPENDED' || event === 'RECONNECTED' || event === 'LOST') listener(event, change);
    // read-only: writes would fail, and a recipe that relies on writes is as good as suspended
    else if (event === 'READ_ONLY') listener('SUSPENDED', change);
  });
}
