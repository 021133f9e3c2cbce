/**
 * The tests' one fake clock: time moves only when the test (or the fuzzer) says so, so a scenario covering
 * minutes of timeouts runs in milliseconds and replays exactly. `advance(ms)` fires every due timer at its own
 * deadline, in deadline order (ties in arming order); the fuzzer instead steps with `fireNext` and lets the event
 * loop run between firings, as real time would. A timer that keeps re-arming itself at the same instant is
 * reported (`storm`): with real timers that is a busy loop.
 */

import type { Clock, TimerHandle } from '../../src/session/clock.js';

interface Entry {
  readonly at: number;
  readonly seq: number;
  readonly fn: () => void;
}

/** Most timer firings allowed at one instant before it counts as a busy loop. */
const STORM_LIMIT = 2000;

export class ManualClock implements Clock {
  private t: number;
  private seq = 0;
  private readonly timers = new Map<number, Entry>();
  private firedAtInstant = 0;
  private instant = -1;
  /** Set when timers fired STORM_LIMIT times without time moving. */
  storm: string | undefined;

  /** `start`: the clock's first reading (a large one by default, so no test mistakes 0 for "unset"). */
  constructor(start = 1_000_000) {
    this.t = start;
  }

  now(): number {
    return this.t;
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const id = ++this.seq;
    const delay = Number.isFinite(ms) ? Math.max(0, ms) : 0;
    this.timers.set(id, { at: this.t + delay, seq: id, fn });
    return id;
  }

  clearTimeout(handle: TimerHandle): void {
    this.timers.delete(handle as number);
  }

  /** Timers armed and neither fired nor cleared. */
  get pending(): number {
    return this.timers.size;
  }

  /** The earliest deadline, or undefined when no timer is armed. */
  nextDeadline(): number | undefined {
    let best: number | undefined;
    for (const e of this.timers.values()) if (best === undefined || e.at < best) best = e.at;
    return best;
  }

  /**
   * Fires the earliest timer due at or before `limit`, moving time to its deadline. Returns false when none is
   * due. The caller lets the event loop run between calls.
   */
  fireNext(limit: number): boolean {
    let next: [number, Entry] | undefined;
    for (const entry of this.timers) {
      const e = entry[1];
      if (e.at > limit) continue;
      if (next === undefined || e.at < next[1].at || (e.at === next[1].at && e.seq < next[1].seq)) next = entry;
    }
    if (next === undefined) return false;
    this.timers.delete(next[0]);
    this.t = Math.max(this.t, next[1].at);
    if (this.t === this.instant) {
      if (++this.firedAtInstant > STORM_LIMIT) {
        this.storm ??= `more than ${STORM_LIMIT} timer firings at t=${this.t} without time moving`;
        this.timers.clear();
        return false;
      }
    } else {
      this.instant = this.t;
      this.firedAtInstant = 1;
    }
    next[1].fn();
    return true;
  }

  /** Moves time forward by `ms`, firing due timers (those they arm too, when due) each at its own deadline. */
  advance(ms: number): void {
    const target = this.t + ms;
    while (this.fireNext(target));
    this.setNow(target);
  }

  /** Moves time forward to `t` (never backward) without firing anything. */
  setNow(t: number): void {
    this.t = Math.max(this.t, t);
  }
}
