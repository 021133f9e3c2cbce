/**
 * Time as the session sees it. Every timer the session arms goes through a Clock, so heartbeats, read
 * timeouts and client-side expiry can be driven by a fake clock in unit tests and counted by an
 * instrumented one (no timer may outlive close()).
 */

export type TimerHandle = unknown;

/** Time and timers, injectable so tests can drive time. */
export interface Clock {
  /** Milliseconds on a monotonic-enough scale; only differences are used. */
  now(): number;
  /** Calls `fn` after `ms` milliseconds. */
  setTimeout(fn: () => void, ms: number): TimerHandle;
  /** Cancels a timer. */
  clearTimeout(handle: TimerHandle): void;
}

/** The runtime's own timers. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as Parameters<typeof clearTimeout>[0]),
};

/** One re-armable timer on a clock: `arm` replaces any earlier deadline. */
export class Timer {
  private handle: TimerHandle | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly fire: () => void,
  ) {}

  get armed(): boolean {
    return this.handle !== undefined;
  }

  arm(ms: number): void {
    this.cancel();
    this.handle = this.clock.setTimeout(() => {
      this.handle = undefined;
      this.fire();
    }, Math.max(0, ms));
  }

  cancel(): void {
    if (this.handle !== undefined) {
      this.clock.clearTimeout(this.handle);
      this.handle = undefined;
    }
  }
}

/** Waits for `promise` or `ms`, whichever comes first (a bounded wait that leaves no timer behind). */
export async function settleWithin(clock: Clock, promise: Promise<void>, ms: number): Promise<void> {
  let timer: Timer | undefined;
  await Promise.race([promise, new Promise<void>((resolve) => (timer = new Timer(clock, resolve)).arm(ms))]);
  timer?.cancel();
}
