/**
 * The real clock and timers, captured when this module loads. The test suite reuses the local-server launcher while
 * tests install vitest's fake timers (which replace globalThis.setTimeout and Date); starting, probing and stopping
 * a server plays the outside world and must keep running on real time meanwhile. In the CLI this is plain setTimeout.
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
