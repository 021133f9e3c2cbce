/**
 * The real clock and timers, captured when this module loads. Tests install vitest's fake timers (which replace
 * globalThis.setTimeout and Date); starting, probing and stopping servers and the fault proxy's delays play the
 * outside world and must keep running on real time meanwhile, so the harness hands them `realClock`.
 */
import type { Clock } from '../../src/session/clock.js';

const realSetTimeout = globalThis.setTimeout;
const realClearTimeout = globalThis.clearTimeout;
const realDateNow = Date.now;

export type RealTimer = ReturnType<typeof realSetTimeout>;

export function now(): number {
  return realDateNow.call(Date);
}

export function setRealTimeout(callback: () => void, ms: number): RealTimer {
  return realSetTimeout(callback, ms);
}

export function clearRealTimeout(timer: RealTimer | undefined): void {
  if (timer !== undefined) realClearTimeout(timer);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => realSetTimeout(resolve, ms));
}

/** The kit's Clock over the captured timers. */
export const realClock: Clock = {
  now,
  setTimeout: (fn, ms) => realSetTimeout(fn, ms),
  clearTimeout: (handle) => realClearTimeout(handle as RealTimer),
};
