import { describe, expect, it } from 'vitest';
import { Backoff, cleanupBackoff, loopBackoff } from '../../src/recipes/common/backoff.js';
import { exponentialBackoff, retryNTimes } from '../../src/session/retry-policy.js';

/** The recipes' loop back-off, counted over one RetryPolicy (no server). */
describe('Backoff', () => {
  it('is 0 until a failure, grows by the policy, and goes back to 0 on reset', () => {
    const backoff = new Backoff(exponentialBackoff({ baseDelayMs: 100, maxDelayMs: 400, maxRetries: Infinity, random: () => 1 }));
    expect(backoff.delayMs).toBe(0);
    const seen: number[] = [];
    for (let i = 0; i < 4; i++) {
      backoff.failed();
      seen.push(backoff.delayMs);
    }
    expect(seen).toEqual([100, 200, 400, 400]);
    backoff.reset();
    expect(backoff.delayMs).toBe(0);
    backoff.failed();
    expect(backoff.delayMs).toBe(100);
  });

  it('keeps the last pause when the policy would give up (a loop never gives up)', () => {
    const backoff = new Backoff(retryNTimes(1, 200));
    backoff.failed();
    const first = backoff.delayMs;
    backoff.failed();
    expect(backoff.delayMs).toBe(first);
  });

  it('the loops back off from 100 ms to 5 s, the cleanups to 1 s, never giving up, jittered into the upper half', () => {
    for (const [policy, cap] of [[loopBackoff, 5000], [cleanupBackoff, 1000]] as const) {
      expect(policy.nextDelay(0, 0)).toBeGreaterThanOrEqual(50);
      expect(policy.nextDelay(0, 0)).toBeLessThanOrEqual(100);
      const late = policy.nextDelay(1000, 1e9);
      expect(late).toBeGreaterThanOrEqual(cap / 2);
      expect(late).toBeLessThanOrEqual(cap);
    }
  });
});
