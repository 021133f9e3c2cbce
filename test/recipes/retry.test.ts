import { describe, expect, it } from 'vitest';
import { ZooKeeperError } from '../../src/errors.js';
import { sleep } from '../../src/recipes/retry.js';
import { ManualClock } from '../harness/manual-clock.js';

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
