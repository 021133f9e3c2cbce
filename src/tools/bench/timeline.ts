/** Throughput over time: event timestamps binned into equal intervals, for the report's chart and JSON. */

export interface Timeline {
  /** Width of one bin, ms. */
  binMs: number;
  /** Events per bin; they sum to the number of events. */
  counts: number[];
  /** The same as a rate, per second. */
  perSec: number[];
}

/** Bins `times` (ms since the start) over [0, totalMs) into about `targetBins` bins of at least `minBinMs`. */
export function binTimeline(times: readonly number[], totalMs: number, targetBins = 50, minBinMs = 100): Timeline {
  const binMs = Math.max(minBinMs, Math.ceil(totalMs / targetBins));
  const n = Math.max(1, Math.ceil(totalMs / binMs));
  const counts = new Array<number>(n).fill(0);
  for (const t of times) {
    const i = Math.min(n - 1, Math.max(0, Math.floor(t / binMs)));
    counts[i]!++;
  }
  return { binMs, counts, perSec: counts.map((c) => Math.round((c * 1000) / binMs)) };
}
