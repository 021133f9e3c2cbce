/**
 * The one retry vocabulary: a `RetryPolicy` says whether to try again and after how long. The session's reconnect
 * loop and the recipes' retry loops both ask one; every policy below is the same back-off computation with other
 * limits (Curator's ExponentialBackoffRetry, RetryNTimes, RetryUntilElapsed, RetryForever), so the jitter that keeps
 * clients cut off together from retrying in lockstep is written once. It sits on the session floor so that both the
 * session and the recipes above it can import it.
 */

import { clientError } from '../errors.js';

/** Decides whether to try again and after how long. */
export interface RetryPolicy {
  /**
   * `retryCount` is 0 for the first retry; `elapsedMs` counts from the first failure. Returns the delay before the
   * next attempt, or undefined to give up.
   */
  nextDelay(retryCount: number, elapsedMs: number): number | undefined;
}

/** Options of {@link exponentialBackoff}. */
export interface ExponentialBackoffOptions {
  /** Delay before the first retry, before jitter. Default 100 ms. */
  readonly baseDelayMs?: number;
  /** Ceiling on any single delay. Default 5000 ms. */
  readonly maxDelayMs?: number;
  /** Retries after the first attempt. Default 10; `Infinity` for no limit. */
  readonly maxRetries?: number;
  /** Give up once this much time has passed since the first failure. Default: no limit besides maxRetries. */
  readonly maxElapsedMs?: number;
  /** Source of randomness in [0, 1); injectable for tests. `() => 1` removes the jitter. */
  readonly random?: () => number;
}

/**
 * Delay for retry n is min(maxDelay, base * 2^n), of which the upper half is random ("equal jitter"): waiters that
 * failed together spread out instead of retrying in lockstep, yet none retries at once. Every policy of this module
 * is this one with other limits.
 */
export function exponentialBackoff(options: ExponentialBackoffOptions = {}): RetryPolicy {
  const base = options.baseDelayMs ?? 100;
  const max = options.maxDelayMs ?? 5000;
  const maxRetries = options.maxRetries ?? 10;
  const maxElapsed = options.maxElapsedMs ?? Infinity;
  const random = options.random ?? Math.random;
  if (!(0 <= base && base <= max && maxRetries >= 0 && maxElapsed >= 0)) {
    throw clientError('BAD_ARGUMENT', 'needs 0 <= baseDelayMs <= maxDelayMs and non-negative limits', { op: 'exponentialBackoff' });
  }
  return {
    nextDelay(retryCount, elapsedMs) {
      if (retryCount >= maxRetries || elapsedMs >= maxElapsed) return undefined;
      // 2^n overflows to Infinity long after min() has capped it, so no guard beyond min is needed
      const ceiling = Math.min(max, base * 2 ** retryCount);
      // never past the elapsed limit (which is more than elapsedMs here)
      return Math.min(ceiling / 2 + (ceiling / 2) * random(), maxElapsed - elapsedMs);
    },
  };
}

/** At most `n` retries, each after about `delayMs` (jittered into [delayMs/2, delayMs]). */
export function retryNTimes(n: number, delayMs: number): RetryPolicy {
  return exponentialBackoff({ baseDelayMs: delayMs, maxDelayMs: delayMs, maxRetries: n });
}

/** Retries every `delayMs` (jittered into [delayMs/2, delayMs]) until `maxElapsedMs` have passed since the first failure. */
export function retryUntilElapsed(maxElapsedMs: number, delayMs: number): RetryPolicy {
  return exponentialBackoff({ baseDelayMs: delayMs, maxDelayMs: delayMs, maxRetries: Infinity, maxElapsedMs });
}

/** Retries without end every `delayMs` (jittered into [delayMs/2, delayMs]). */
export function retryForever(delayMs: number): RetryPolicy {
  return exponentialBackoff({ baseDelayMs: delayMs, maxDelayMs: delayMs, maxRetries: Infinity });
}

/** Never retries. */
export const noRetry: RetryPolicy = { nextDelay: () => undefined };
