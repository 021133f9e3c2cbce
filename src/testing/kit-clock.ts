/**
 * The test kit's default clock: the runtime's timers, unref'd where the runtime can (Node, Bun, Deno), so a server
 * a test forgot to close does not keep the process alive: `node --test` or a script ends instead of hanging on the
 * in-memory server's 60 s container check or a session's expiry timer. Live clients keep their own (ref'd) timers,
 * so a process still talking to the server stays up; `openSessions()` names what a test left open.
 */

import { longDelayClock, type Clock } from '../session/clock.js';

interface Unrefable {
  unref?: () => unknown;
}

const unrefTimers: Clock = {
  now: () => Date.now(),
  setTimeout(fn, ms) {
    const handle = setTimeout(fn, ms) as unknown as Unrefable;
    if (typeof handle.unref === 'function') handle.unref();
    return handle;
  },
  clearTimeout: (handle) => clearTimeout(handle as Parameters<typeof clearTimeout>[0]),
};

/** The runtime's timers, unref'd, for any delay (longer ones chained, as systemClock does). */
export const kitClock: Clock = longDelayClock(unrefTimers);
