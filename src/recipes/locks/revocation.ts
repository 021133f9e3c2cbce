/**
 * Revocation, as Curator does it: anyone may ask a lock holder to let go by writing `__REVOKE__` into the
 * holder's lock node; a holder that made its lock revocable watches its own node and calls its listener. It is
 * cooperative: the listener decides whether and when to release. Since the holder watches its node anyway, a
 * deletion of the node under it (an operator, a misbehaving client) also aborts the lease's lock-lost signal.
 */

import type { ZooKeeperClient } from '../../client.js';
import { isCode, isRetryable } from '../../errors.js';
import type { NodeOps } from '../common/nodes.js';
import type { LockLostSignal } from './lock-lost.js';
import { REVOKE_MESSAGE } from './naming.js';
import { sleep } from '../retry.js';

const RETRY_PAUSE_MS = 100;

/** Called with the lock node's path when someone asks the holder to release. */
export type RevocationListener = (node: string) => void;

const REVOKE_BYTES = Uint8Array.from(REVOKE_MESSAGE, (c) => c.charCodeAt(0));

function isRevokeMessage(data: Uint8Array): boolean {
  return data.length === REVOKE_BYTES.length && data.every((b, i) => b === REVOKE_BYTES[i]);
}

/** Watches our lock node until stopped; returns the stop function. */
export function watchRevocation(
  ops: NodeOps,
  node: string,
  listener: RevocationListener,
  lost: LockLostSignal,
): () => void {
  let stopped = false;
  const run = async (): Promise<void> => {
    while (!stopped) {
      let read: Awaited<ReturnType<NodeOps['watchData']>>;
      try {
        read = await ops.watchData(node, undefined);
      } catch (err) {
        if (stopped) return;
        if (isCode(err, 'NONODE')) {
          lost.lose('NONODE', 'our lock node was deleted');
          return;
        }
        if (!isRetryable(err)) return;
        await ops.client.waitConnected();
        // A retryable error on a live link (THROTTLEDOP, say) returns from waitConnected at once: pause so the
        // watch does not spin on the server.
        await sleep(RETRY_PAUSE_MS, ops.clock).catch(() => undefined);
        continue;
      }
      if (stopped) {
        await read.watch.remove();
        return;
      }
      if (isRevokeMessage(read.data)) {
        try {
          listener(node);
        } catch {
          // the listener's own failure is not ours to report, and must not stop the watch
        }
      }
      const event = await read.watch.fired;
      if (stopped || event.type === 'None') return;
      if (event.type === 'NodeDeleted') {
        lost.lose('NONODE', 'our lock node was deleted');
        return;
      }
    }
  };
  void run().catch(() => undefined);
  return () => {
    stopped = true;
    // The node is about to be deleted, which fires and clears the server's watch: nothing to send.
  };
}

/**
 * Asks the holder of `nodePath` (a lock node, e.g. from getParticipantNodes()) to release, by writing the revoke
 * message into it. Works with Curator holders too. A node that is already gone is not an error.
 */
export async function attemptRevoke(client: ZooKeeperClient, nodePath: string): Promise<void> {
  try {
    await client.setData(nodePath, REVOKE_BYTES);
  } catch (err) {
    if (isCode(err, 'NONODE')) return;
    throw err;
  }
}
