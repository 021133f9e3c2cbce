/**
 * Retry with exponential backoff and jitter, bounded in attempts and in elapsed time, for the recipe loops that
 * must start over after losing their node (Curator's ExponentialBackoffRetry, kazoo's KazooRetry). Sleeping goes
 * through an injected clock and stops at once when the caller's AbortSignal fires, so a retried acquire can still
 * be cancelled and a fake clock can drive the tests.
 */

import type { ZooKeeperError } from '../errors.js';
import type { Clock } from '../session/clock.js';
import { aborted, badArgument } from './common/errors.js';

/** @deprecated The recipes take the client's `Clock`; this name stays for code written against it. */
export type RecipeClock = Clock;

/** Decides whether to try again and after how long. */
export interface RetryPolicy {
  /**
   * `retryCount` is 0 for the first retry; `elapsedMs` counts from the first attempt. Returns the delay before
   * the next attempt, or undefined to give up.
   */
  nextDelay(retryCount: number, elapsedMs: number): number | undefined;
}

/** Options of `exponentialBackoff`. */
export interface ExponentialBackoffOptions {
  /** Delay before the first retry, before jitter. Default 100 ms. */
  readonly baseDelayMs?: number;
  /** Ceiling on any single delay. Default 5000 ms. */
  readonly maxDelayMs?: number;
  /** Retries after the first attempt. Default 10. */
  readonly maxRetries?: number;
  /** Give up once this much time has passed since the first attempt. Default: no limit besides maxRetries. */
  readonly maxElapsedMs?: number;
  /** Source of randomness in [0, 1); injectable for tests. */
  readonly random?: () => number;
}

/**
 * Delay for retry n is min(maxDelay, base * 2^n), of which the upper half is random ("equal jitter"): waiters
 * that lost their nodes together spread out instead of retrying in lockstep, yet none retries at once.
 */
export function exponentialBackoff(options: ExponentialBackoffOptions = {}): RetryPolicy {
  const base = options.baseDelayMs ?? 100;
  const max = options.maxDelayMs ?? 5000;
  const maxRetries = options.maxRetries ?? 10;
  const maxElapsed = options.maxElapsedMs;
  const random = options.random ?? Math.random;
  if (!(base >= 0) || !(max >= base) || !(maxRetries >= 0) || (maxElapsed !== undefined && !(maxElapsed >= 0))) {
    throw badArgument('exponentialBackoff', undefined, 'needs 0 <= baseDelayMs <= maxDelayMs and non-negative limits');
  }
  return {
    nextDelay(retryCount, elapsedMs) {
      if (retryCount >= maxRetries) return undefined;
      if (maxElapsed !== undefined && elapsedMs >= maxElapsed) return undefined;
      // 2^n overflows to Infinity long after min() has capped it, so no guard beyond min is needed
      const ceiling = Math.min(max, base * 2 ** retryCount);
      const delay = ceiling / 2 + (ceiling / 2) * random();
      return maxElapsed === undefined ? delay : Math.min(delay, Math.max(0, maxElapsed - elapsedMs));
    },
  };
}

/** Never retries. */
export const noRetry: RetryPolicy = { nextDelay: () => undefined };

/**
 * The reason an abort carries, as a ZooKeeperError: ABORTED unless the signal's reason already is one (the recipe
 * error factory's `aborted`; kept under this name for the callers written against it).
 */
export function abortError(signal: AbortSignal, op = 'wait'): ZooKeeperError {
  return aborted(signal, op);
}

/** Waits `ms` on `clock`; rejects with ABORTED as soon as `signal` fires (the timer is cleared). */
export async function sleep(ms: number, clock: Clock, signal?: AbortSignal): Promise<void> {
  if ((await race(undefined, clock, Math.max(0, ms), signal)) === 'aborted') throw abortError(signal as AbortSignal, 'sleep');
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
