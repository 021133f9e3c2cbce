/**
 * The back-off of the recipes' background loops (latch, persistent node, shared value, cache) and of the
 * foundation's guaranteed deletes, written once over session/retry-policy.ts: each loop counts its failures here
 * and the policy's one computation (exponential, equal jitter) gives the pause, instead of a formula per loop.
 */

import { exponentialBackoff, type RetryPolicy } from '../../session/retry-policy.js';

/**
 * A background loop after a failure no reconnect fixes (NOAUTH, a throttled server): 100 ms doubling to 5 s,
 * jittered into the upper half, never giving up (the loop ends only with close() or the session).
 */
export const loopBackoff: RetryPolicy = exponentialBackoff({ baseDelayMs: 100, maxDelayMs: 5000, maxRetries: Infinity });

/**
 * A cleanup that must never give up (a guaranteed delete refused, or its reply lost): 100 ms doubling to a second,
 * so a refused delete never spins yet follows a restored link promptly (retryForever-shaped).
 */
export const cleanupBackoff: RetryPolicy = exponentialBackoff({ baseDelayMs: 100, maxDelayMs: 1000, maxRetries: Infinity });

/** A loop's failures in a row and the pause they call for: 0 until the first failure and after reset(). */
export class Backoff {
  readonly #policy: RetryPolicy;
  #failures = 0;
  #delayMs = 0;

  constructor(policy: RetryPolicy = loopBackoff) {
    this.#policy = policy;
  }

  /** The pause before the next try. */
  get delayMs(): number {
    return this.#delayMs;
  }

  /**
   * One more failure: the next pause grows. A policy that would give up keeps the last pause (5 s if it gave up at
   * once): a background loop never gives up, and never spins.
   */
  failed(): void {
    this.#delayMs = this.#policy.nextDelay(this.#failures++, 0) ?? (this.#delayMs > 0 ? this.#delayMs : 5000);
  }

  /** A success (or a failure a reconnect fixes): the next try goes at once. */
  reset(): void {
    this.#failures = 0;
    this.#delayMs = 0;
  }
}
