/**
 * What recipes need to know about the client's connection, from its public state and state changes: connected
 * or not, whether the session is over for good (a zkwire client's session is its life: after expiry the client
 * is replaced, never revived), waiting for a connection, and Curator-style connection events.
 */

import type { ZooKeeperClient } from '../../client.js';
import { ZooKeeperError } from '../../errors.js';

type State = ZooKeeperClient['state'];

const TERMINAL: ReadonlySet<State> = new Set<State>(['expired', 'auth-failed', 'closed']);
const CONNECTED: ReadonlySet<State> = new Set<State>(['connected', 'connected-read-only']);

export type SessionEndCode = 'SESSIONEXPIRED' | 'CLOSED' | 'AUTHFAILED';

export function isConnected(client: ZooKeeperClient): boolean {
  return CONNECTED.has(client.state);
}

export function isSessionOver(client: ZooKeeperClient): boolean {
  return TERMINAL.has(client.state);
}

export function sessionEndCode(client: ZooKeeperClient): SessionEndCode {
  return client.state === 'closed' ? 'CLOSED' : client.state === 'auth-failed' ? 'AUTHFAILED' : 'SESSIONEXPIRED';
}

export function sessionEndError(client: ZooKeeperClient, what?: string, path?: string): ZooKeeperError {
  const code = sessionEndCode(client);
  const where = what === undefined ? '' : ` (${what}${path === undefined ? '' : ` ${path}`})`;
  return new ZooKeeperError(code, `${code}${where}: the ZooKeeper session has ended`, {
    ...(what === undefined ? {} : { op: what }),
    ...(path === undefined ? {} : { path }),
  });
}

/** Curator's connection events, the ones recipes react to. */
export type RecipeConnectionEvent = 'SUSPENDED' | 'RECONNECTED' | 'LOST';

/** Calls `listener` on every later SUSPENDED / RECONNECTED / LOST; returns the unsubscribe function. */
export function onConnectionEvent(client: ZooKeeperClient, listener: (event: RecipeConnectionEvent) => void): () => void {
  return client.onStateChange((change) => {
    const event = change.event;
    if (event === 'SUSPENDED' || event === 'RECONNECTED' || event === 'LOST') listener(event);
    // read-only: writes would fail, and a recipe that relies on writes is as good as suspended
    else if (event === 'READ_ONLY') listener('SUSPENDED');
  });
}
