import { describe, expect, it } from 'vitest';
import { ZooKeeperError } from '../../src/errors.js';
import { exponentialBackoff, noRetry } from '../../src/session/retry-policy.js';
import { sleep } from '../../src/recipes/retry.js';
import { ManualClock } from '../harness/manual-clock.js';

describe('exponentialBackoff', () => {
  it('doubles up to the ceiling, the upper half random', () => {
    const low = exponentialBackoff({ baseDelayMs: 100, maxDelayMs: 1000, maxRetries: 10, random: () => 0 });
    const high = exponentialBackoff({ baseDelayMs: 100, maxDelayMs: 1000, maxRetries: 10, random: () => 0.999999 });
    expect([0, 1, 2, 3, 4, 5].map((n) => low.nextDelay(n, 0))).toEqual([50, 100, 200, 400, 500, 500]);
    const highs = [0, 1, 2, 3, 4, 5].map((n) => high.nextDelay(n, 0) as number);
    expect(highs.map((d) => Math.round(d))).toEqual([100, 200, 400, 800, 1000, 1000]);
  });

  it('stops after maxRetries', () => {
    const policy = exponentialBackoff({ maxRetries: 3, random: () => 0.5 });
    expect(policy.nextDelay(2, 0)).toBeTypeOf('number');
    expect(policy.nextDelay(3, 0)).toBeUndefined();
  });

  it('stops once maxElapsedMs has passed and never sleeps past it', () => {
    const policy = exponentialBackoff({ baseDelayMs: 1000, maxDelayMs: 1000, maxElapsedMs: 1500, random: () => 0.5 });
    expect(policy.nextDelay(0, 0)).toBe(750);
    expect(policy.nextDelay(1, 1000)).toBe(500);
    expect(policy.nextDelay(2, 1500)).toBeUndefined();
  });

  it('refuses nonsense bounds with BAD_ARGUMENT', () => {
    expect(() => exponentialBackoff({ baseDelayMs: 10, maxDelayMs: 5 })).toThrowError(
      expect.objectContaining({ code: 'BAD_ARGUMENT' }) as Error,
    );
    expect(() => exponentialBackoff({ maxRetries: -1 })).toThrow(ZooKeeperError);
  });

  it('noRetry never retries', () => {
    expect(noRetry.nextDelay(0, 0)).toBeUndefined();
  });
});

describe('sleep', () => {
  it('resolves when the clock reaches the delay', async () => {
    const clock = new ManualClock(0);
    let done = false;
    const p = sleep(100, clock).then(() => {
      done = true;
    });
    clock.advance(99);
    await Promise.resolve();
    expect(done).toBe(false);
    clock.advance(1);
    await p;
    expect(done).toBe(true);
  });

  it('rejects with ABORTED at once when the signal fires, clearing its timer', async () => {
    const clock = new ManualClock(0);
    const ac = new AbortController();
    const p = sleep(1000, clock, ac.signal);
    expect(clock.pending).toBe(1);
    ac.abort();
    await expect(p).rejects.toMatchObject({ code: 'ABORTED' });
    expect(clock.pending).toBe(0);
  });

  it('rejects without arming a timer when already aborted, keeping a ZooKeeperError reason', async () => {
    const clock = new ManualClock(0);
    const reason = new ZooKeeperError('TIMEOUT', 'TIMEOUT');
    await expect(sleep(10, clock, AbortSignal.abort(reason))).rejects.toBe(reason);
    expect(clock.pending).toBe(0);
  });
});
