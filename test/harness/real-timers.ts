/**
 * The real clock and timers, captured when the harness loads. Tests of heartbeats and timeouts install vitest's fake
 * timers (which replace globalThis.setTimeout and Date); the harness plays the outside world — server start polling,
 * the fault proxy's delays, socket read deadlines — and must keep running on real time meanwhile.
 */
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
