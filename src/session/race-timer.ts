/**
 * The one timer-and-abort race of zkwire's waits: a retried call's pause (client/retry-call.ts) and the recipes'
 * sleeps and event waits (recipes/retry.ts). On the session floor so that the client and the recipes above it share
 * it; each caller turns the outcome into its own error.
 */

import type { Clock } from './clock.js';

/**
 * Waits for `fired` to settle, `ms` to pass on `clock`, or `signal` to abort, whichever is first (`fired` and `ms`
 * are each optional); the timer and the abort listener are released either way.
 */
export function raceTimer(
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
