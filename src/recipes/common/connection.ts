/**
 * What recipes need to know about the client's connection, from its public state and state changes: connected
 * or not, whether the client has ended (closed, refused, or expired with renewal off: then no session will follow),
 * and Curator-style connection events. A session expiry on a renewing client is LOST followed, once the new session
 * is up, by RECONNECTED with `newSession: true`: what the old session owned (ephemeral nodes, one-shot watches) is
 * gone, and a recipe rebuilds it on the new session.
 */

import type { ZooKeeperClient } from '../../client.js';
import { isCode, isRetryable } from '../../errors.js';
import type { StateChange } from '../../session/state.js';

type State = ZooKeeperClient['state'];

const CONNECTED: ReadonlySet<State> = new Set<State>(['connected', 'connected-read-only']);

export function isConnected(client: ZooKeeperClient): boolean {
  return CONNECTED.has(client.state);
}

/** True once the client will have no session again (see ZooKeeperClient.ended): a recipe can only stop. */
export function isSessionOver(client: ZooKeeperClient): boolean {
  return client.ended;
}

/**
 * True when `err` is the expiry of the session a call belonged to while the client goes on with a new one (session
 * renewal): what that session owned (ephemeral nodes, watches) is gone, and the work can start over on the new one.
 * False once the client has ended (closed, refused, or expired with renewal off).
 */
export function isSessionRenewed(client: ZooKeeperClient, err: unknown): boolean {
  return isCode(err, 'SESSIONEXPIRED') && !client.ended;
}

/**
 * True when the same call may succeed if simply made again on `client`: the link broke or the server pushed back
 * (isRetryable), or the session expired and the client opens a new one. As with isRetryable, a write that failed
 * so may have been applied: repeat only what is safe to repeat.
 */
export function retryableOn(client: ZooKeeperClient, err: unknown): boolean {
  return isRetryable(err) || isSessionRenewed(client, err);
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

/**
 * Waits for `work` while `client` is connected: resolves once it settles (never rejects: `work` reports its own
 * failure) or as soon as the client is not connected (at once if it is not now). For a close() that waits for a
 * cleanup while a server answers, never for a server to come back: the cleanup goes on after the reconnect.
 */
export async function settledWhileConnected(client: ZooKeeperClient, work: Promise<unknown>): Promise<void> {
  if (!isConnected(client)) return;
  let unsubscribe: () => void = () => undefined;
  const down = new Promise<void>((resolve) => {
    unsubscribe = client.onStateChange(() => {
      if (!isConnected(client)) resolve();
    });
  });
  try {
    await Promise.race([work.then(() => undefined, () => undefined), down]);
  } finally {
    unsubscribe();
  }
}
