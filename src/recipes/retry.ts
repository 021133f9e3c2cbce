/**
 * The recipes' waits: a sleep between retries and a wait for an event, each through an injected clock and stopped at
 * once when the caller's AbortSignal fires, so a retried acquire can still be cancelled and a fake clock can drive
 * the tests. How long to sleep is a RetryPolicy's answer (session/retry-policy.ts, shared with the session's
 * reconnect loop).
 */

import type { Clock } from '../session/clock.js';
import { aborted } from './common/errors.js';

/** Waits `ms` on `clock`; rejects with ABORTED as soon as `signal` fires (the timer is cleared). */
export async function sleep(ms: number, clock: Clock, signal?: AbortSignal): Promise<void> {
  if ((await race(undefined, clock, Math.max(0, ms), signal)) === 'aborted') throw aborted(signal, 'sleep');
}

/** Waits for a promise to settle, the deadline to pass, or the signal to abort, whichever is first. */
export function waitForEvent(
  fired: Promise<unknown>,
  clock: Clock,
  deadline: number | undefined,
  signal: AbortSignal | undefined,
): Promise<'fired' | 'timeout' | 'aborted'> {
  return race(fired, clock, deadline === undefined ? undefined : Math.max(0, deadline - clock.now()), signal);
}

/** The one timer-and-abort race behind sleep and waitForEvent: `fired` and `ms` are each optional. */
function race(
  fired: Promise<unknown> | undefined,
  clock: Clock,
  ms: number | undefined,
  signal: AbortSignal | undefined,
): Promise<'fired' | 'timeout' | 'aborted'> {
  if (signal?.aborted) return Promise.resolve('aborted');
  return new Promise((resolve) => {
    let timer: unknown;
    let settled = false;
    const finish = (outcome: 'fired' | 'timeout' | 'aborted'): void => {
      if (settled) return;
      settled = true;
      if (timer !== undefined) clock.clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve(outcome);
    };
    const onAbort = (): void => finish('aborted');
    if (ms !== undefined) timer = clock.setTimeout(() => finish('timeout'), ms);
    signal?.addEventListener('abort', onAbort, { once: true });
    void fired?.then(
      () => finish('fired'),
      () => finish('fired'),
    );
  });
}
