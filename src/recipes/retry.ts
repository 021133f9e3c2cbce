/**
 * The recipes' waits: a sleep between retries and a wait for an event, each through an injected clock and stopped at
 * once when the caller's AbortSignal fires, so a retried acquire can still be cancelled and a fake clock can drive
 * the tests. The race underneath is the session floor's (session/race-timer.ts), shared with the client's retries.
 * How long to sleep is a RetryPolicy's answer (session/retry-policy.ts, shared with the session's reconnect loop).
 */

import type { Clock } from '../session/clock.js';
import { raceTimer } from '../session/race-timer.js';
import { aborted } from './common/errors.js';

/** Waits `ms` on `clock`; rejects with ABORTED as soon as `signal` fires (the timer is cleared). */
export async function sleep(ms: number, clock: Clock, signal?: AbortSignal): Promise<void> {
  if ((await raceTimer(undefined, clock, Math.max(0, ms), signal)) === 'aborted') throw aborted(signal, 'sleep');
}

/** Waits for a promise to settle, the deadline to pass, or the signal to abort, whichever is first. */
export function waitForEvent(
  fired: Promise<unknown>,
  clock: Clock,
  deadline: number | undefined,
  signal: AbortSignal | undefined,
): Promise<'fired' | 'timeout' | 'aborted'> {
  return raceTimer(fired, clock, deadline === undefined ? undefined : Math.max(0, deadline - clock.now()), signal);
}
