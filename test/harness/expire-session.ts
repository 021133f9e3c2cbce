/**
 * Forcing a client's session to expire, deterministically, for tests of what comes after an expiry. The client
 * reaches the server through a fault proxy; its link is held while a second connection takes the session over with
 * its id and password and closes it (as Curator's KillSession does), so the server ends the session and drops its
 * ephemerals at once; then the client's link is cut and it learns of the expiry on its next handshake.
 */

import { ZooKeeperClient } from '../../src/node.js';
import type { StateChange } from '../../src/session/state.js';
import type { FaultProxy } from './fault-proxy.js';

/** Resolves with the first later change of `zk` that `predicate` accepts. */
export function nextChange(zk: ZooKeeperClient, predicate: (c: StateChange) => boolean): Promise<StateChange> {
  return new Promise((resolve) => {
    const off = zk.onStateChange((c) => {
      if (predicate(c)) {
        off();
        resolve(c);
      }
    });
  });
}

/**
 * Expires `zk`'s session on the server behind `proxy` (`serverConnect`, the server's own address) and resolves
 * with the LOST change once `zk` has seen it. Link traffic resumes afterwards.
 */
export async function expireSession(zk: ZooKeeperClient, proxy: FaultProxy, serverConnect: string): Promise<StateChange> {
  const lost = nextChange(zk, (c) => c.event === 'LOST');
  proxy.pause();
  const killer = await ZooKeeperClient.connect(serverConnect, {
    sessionTimeoutMs: 30_000,
    sessionId: zk.sessionId,
    sessionPassword: zk.sessionPassword,
    renewSession: false,
  });
  await killer.close();
  proxy.resetAll();
  proxy.pass();
  return lost;
}
