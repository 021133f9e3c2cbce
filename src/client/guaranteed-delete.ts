/**
 * Guaranteed delete (Curator's `delete().guaranteed()`): a node that must go, such as a lock node released while
 * the server is away, is deleted in the background across reconnects and new sessions, and a missing node counts as
 * deleted. Each attempt is the ordinary idempotent delete under a policy that never gives up (it waits for a
 * connection between attempts); a session expiry starts it over on the next session. It ends at success, at an
 * error that says the node is not ours to delete (BADVERSION, NOTEMPTY, NOAUTH), or when the client is closed:
 * `close()` waits for the deletes still owed (see SessionSeries.close) and those left then fail with CLOSED.
 */

import { isCode } from '../errors.js';
import { DEFAULT_RECONNECT_POLICY } from '../session/connect-loop.js';
import type { SessionSeries } from './session-series.js';

/** Between attempts, the reconnect loop's default pauses (100–200 ms, doubling up to 1 s, forever), then the wait for a connection. */
export const AGAIN = DEFAULT_RECONNECT_POLICY;

/** Runs `attempt` until it settles other than with SESSIONEXPIRED, counted among the deletes `close()` waits for. */
export function guaranteed(sessions: SessionSeries, attempt: () => Promise<void>): Promise<void> {
  const work = (async () => {
    for (;;) {
      try {
        return await attempt();
      } catch (e) {
        // An expiry with renewal off ends the client: no session will come to try on.
        if (!isCode(e, 'SESSIONEXPIRED') || sessions.terminal) throw e;
      }
    }
  })().finally(() => sessions.owed.delete(work));
  sessions.owed.add(work);
  return work;
}
