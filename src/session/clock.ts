/**
 * Time as the session sees it. Every timer the session arms goes through a Clock, so heartbeats, read
 * timeouts and client-side expiry can be driven by a fake clock in unit tests and counted by an
 * instrumented one (no timer may outlive close()).
 */

export type TimerHandle = unknown;

/**
 * Time as every timer in zkwire sees it: the session's heartbeats, read timeouts and client-side expiry, the
 * connect deadline, and the recipes' acquire deadlines and retry sleeps. The system implementation takes any
 * delay (see `systemClock`); a test passes a fake one.
 */
export interface Clock {
  /** Milliseconds on a monotonic-enough scale; only differences are used. */
  now(): number;
  /**
   * Calls `fn` once after `ms`; NaN and negative delays count as 0. An application's clock given as an option is
   * only ever asked for delays the runtime's timers honour (at most 2^31−1 ms): zkwire chains longer ones and arms
   * nothing for Infinity.
   */
  setTimeout(fn: () => void, ms: number): TimerHandle;
  /** Cancels a timer. */
  clearTimeout(handle: TimerHandle): void;
}

/**
 * The longest delay runtimes' setTimeout honours (a signed 32-bit count of ms, about 24.8 days): Node, browsers,
 * Deno, Bun and workerd fire a longer one after about 1 ms instead.
 */
export const MAX_TIMER_DELAY_MS = 2 ** 31 - 1;

/** A timer on a chained clock: the step armed on the underlying clock now, if any. */
interface ChainedHandle {
  step: TimerHandle | undefined;
}

/**
 * A clock that takes any delay, over `base` whose timers honour at most MAX_TIMER_DELAY_MS: a longer delay is
 * armed as a chain of steps of at most that length (counted down by the step lengths, so a wall-clock jump
 * moves it no more than it moves a single timer); Infinity arms nothing at all.
 */
export function longDelayClock(base: Clock): Clock {
  return {
    now: () => base.now(),
    setTimeout(fn, ms) {
      const handle: ChainedHandle = { step: undefined };
      let remaining = ms > 0 ? ms : 0; // NaN and negatives: 0, as the runtime treats them
      if (remaining === Infinity) return handle;
      const next = (): void => {
        const step = Math.min(remaining, MAX_TIMER_DELAY_MS);
        remaining -= step;
        handle.step = base.setTimeout(() => {
          handle.step = undefined;
          if (remaining > 0) next();
          else fn();
        }, step);
      };
      next();
      return handle;
    },
    clearTimeout(handle) {
      // No handle is a no-op, as the platform's clearTimeout(undefined) is.
      const h = handle as ChainedHandle | undefined;
      if (h === undefined || h === null) return;
      if (h.step !== undefined) base.clearTimeout(h.step);
      h.step = undefined;
    },
  };
}

const runtimeTimers: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as Parameters<typeof clearTimeout>[0]),
};

/** The runtime's own timers, for any delay: longer ones than the runtime honours are chained, Infinity never fires. */
export const systemClock: Clock = longDelayClock(runtimeTimers);

/** Clocks that already take any delay: the system clock and every one clockOf has made. */
const takesAnyDelay = new WeakSet<Clock>([systemClock]);

/**
 * The clock an option names, or the system clock. An application's own clock is made to take any delay
 * (longDelayClock), as the system clock does: one built on the runtime's timers would otherwise fire a delay of
 * 2^31 ms or more (a long acquire timeout) after about 1 ms.
 */
export function clockOf(given: Clock | undefined): Clock {
  if (given === undefined) return systemClock;
  if (takesAnyDelay.has(given)) return given;
  const clock = longDelayClock(given);
  takesAnyDelay.add(clock);
  return clock;
}

/** One re-armable timer on a clock: `arm` replaces any earlier deadline. */
export class Timer {
  #handle: TimerHandle | undefined;
  readonly #clock: Clock;
  readonly #fire: () => void;

  constructor(clock: Clock, fire: () => void) {
    this.#clock = clock;
    this.#fire = fire;
  }

  get armed(): boolean {
    return this.#handle !== undefined;
  }

  arm(ms: number): void {
    this.cancel();
    this.#handle = this.#clock.setTimeout(() => {
      this.#handle = undefined;
      this.#fire();
    }, Math.max(0, ms));
  }

  cancel(): void {
    if (this.#handle !== undefined) {
      this.#clock.clearTimeout(this.#handle);
      this.#handle = undefined;
    }
  }
}

/** Waits for `promise` or `ms`, whichever comes first (a bounded wait that leaves no timer behind). */
export async function settleWithin(clock: Clock, promise: Promise<void>, ms: number): Promise<void> {
  let timer: Timer | undefined;
  await Promise.race([promise, new Promise<void>((resolve) => (timer = new Timer(clock, resolve)).arm(ms))]);
  timer?.cancel();
}
