/**
 * The clock every timer goes through takes any delay: runtimes' setTimeout honours at most 2^31−1 ms and fires
 * a longer one almost at once, so longer delays are chained in steps the runtime honours; Infinity arms nothing.
 * Driven by a fake clock that refuses (throws on) any delay the runtime would not honour.
 */

import { describe, expect, it } from 'vitest';
import { clockOf, longDelayClock, MAX_TIMER_DELAY_MS, systemClock, type Clock } from '../../src/session/clock.js';
import { ManualClock } from '../harness/manual-clock.js';

/** A ManualClock with the runtime's limit: a delay over 2^31−1 ms is a test failure, not a 1 ms timer. */
class LimitedFakeClock extends ManualClock {
  override setTimeout(fn: () => void, ms: number): unknown {
    if (!(ms <= MAX_TIMER_DELAY_MS)) throw new Error(`runtime timer asked for ${ms} ms`);
    return super.setTimeout(fn, ms);
  }
}

function firedAt(clock: Clock, base: ManualClock, ms: number): { fired: () => number | undefined; handle: unknown } {
  let at: number | undefined;
  const start = base.now();
  const handle = clock.setTimeout(() => (at = base.now() - start), ms);
  return { fired: () => at, handle };
}

describe('long delays on the clock', () => {
  const DAY = 24 * 3600 * 1000;

  it('fires a 30-day delay after exactly 30 days, never earlier, through steps the runtime honours', () => {
    const base = new LimitedFakeClock();
    const clock = longDelayClock(base);
    const t = firedAt(clock, base, 30 * DAY);
    base.advance(MAX_TIMER_DELAY_MS);
    expect(t.fired()).toBeUndefined();
    base.advance(30 * DAY - MAX_TIMER_DELAY_MS - 1);
    expect(t.fired()).toBeUndefined();
    base.advance(1);
    expect(t.fired()).toBe(30 * DAY);
    expect(base.pending).toBe(0);
  });

  it('fires Number.MAX_SAFE_INTEGER ms only at its end (checked over one step), and clearing stops the chain', () => {
    const base = new LimitedFakeClock();
    const clock = longDelayClock(base);
    const t = firedAt(clock, base, Number.MAX_SAFE_INTEGER);
    base.advance(3 * MAX_TIMER_DELAY_MS);
    expect(t.fired()).toBeUndefined();
    expect(base.pending).toBe(1);
    clock.clearTimeout(t.handle);
    expect(base.pending).toBe(0);
  });

  it('clearing no handle is a no-op, as the platform\'s clearTimeout(undefined) is', () => {
    const clock = longDelayClock(new ManualClock());
    expect(() => clock.clearTimeout(undefined)).not.toThrow();
  });

  it('arms no timer at all for Infinity', () => {
    const base = new LimitedFakeClock();
    const clock = longDelayClock(base);
    const t = firedAt(clock, base, Infinity);
    expect(base.pending).toBe(0);
    base.advance(100 * DAY);
    expect(t.fired()).toBeUndefined();
    clock.clearTimeout(t.handle);
  });

  it('passes short delays through as one timer (and a negative or NaN one as 0)', () => {
    const base = new LimitedFakeClock();
    const clock = longDelayClock(base);
    const a = firedAt(clock, base, 10);
    const b = firedAt(clock, base, -5);
    const c = firedAt(clock, base, Number.NaN);
    expect(base.pending).toBe(3);
    base.advance(0);
    expect([b.fired(), c.fired()]).toEqual([0, 0]);
    base.advance(10);
    expect(a.fired()).toBe(10);
    expect(base.pending).toBe(0);
  });

  it('fires the edge value 2^31−1 as one timer', () => {
    const base = new LimitedFakeClock();
    const t = firedAt(longDelayClock(base), base, MAX_TIMER_DELAY_MS);
    base.advance(MAX_TIMER_DELAY_MS);
    expect(t.fired()).toBe(MAX_TIMER_DELAY_MS);
  });
});

describe('an application clock', () => {
  it('is made to take any delay once (clockOf), as the system clock does', () => {
    expect(clockOf(undefined)).toBe(systemClock);
    expect(clockOf(systemClock)).toBe(systemClock);
    const base = new LimitedFakeClock();
    const clock = clockOf(base);
    expect(clockOf(clock)).toBe(clock); // not wrapped twice
    const t = firedAt(clock, base, 40 * 24 * 3600 * 1000); // would throw on the bare fake clock
    base.advance(40 * 24 * 3600 * 1000);
    expect(t.fired()).toBe(40 * 24 * 3600 * 1000);
  });
});
