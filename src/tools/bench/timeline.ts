/**
 * Throughput and latency over time: event timestamps binned into equal intervals, with each interval's
 * nearest-rank p50, p99 and max of the latencies of the events in it, for the report's sparklines, chart and JSON.
 */

export interface Timeline {
  /** Width of one bin, ms (the last one also takes the remainder of the run, less than one bin more). */
  binMs: number;
  /** Events per bin; they sum to the number of events. */
  counts: number[];
  /** The same as a rate, per second. */
  perSec: number[];
  /** Per bin, of the latencies of the events in it (µs, rounded to 0.1; 0 in an empty bin). Present when latencies were given. */
  latency?: { p50: number[]; p99: number[]; max: number[] };
}

/**
 * Bins `times` (ms since the start) over [0, totalMs) into about `targetBins` bins of at least `minBinMs`;
 * `latenciesUs[i]`, when given, is the latency of the event at `times[i]`.
 */
export function binTimeline(times: readonly number[], totalMs: number, targetBins = 50, minBinMs = 100, latenciesUs?: ArrayLike<number>): Timeline {
  const binMs = Math.max(minBinMs, Math.ceil(totalMs / targetBins));
  // The last bin takes the remainder (under one bin more), so no sliver of a bin at the end reads as a rate.
  const n = Math.max(1, Math.round(totalMs / binMs));
  const lastMs = Math.max(binMs, totalMs - (n - 1) * binMs);
  const counts = new Array<number>(n).fill(0);
  const binOf = (t: number): number => Math.min(n - 1, Math.max(0, Math.floor(t / binMs)));
  for (const t of times) counts[binOf(t)]!++;
  const out: Timeline = { binMs, counts, perSec: counts.map((c, i) => Math.round((c * 1000) / (i === n - 1 ? lastMs : binMs))) };
  if (latenciesUs === undefined) return out;
  const perBin = counts.map((c) => new Float64Array(c));
  const filled = new Array<number>(n).fill(0);
  times.forEach((t, i) => {
    const b = binOf(t);
    perBin[b]![filled[b]!++] = latenciesUs[i] ?? 0;
  });
  const round = (v: number): number => Math.round(v * 10) / 10;
  const rank = (s: Float64Array, p: number): number => (s.length === 0 ? 0 : s[Math.min(s.length, Math.max(1, Math.ceil((p / 100) * s.length - 1e-9))) - 1]!);
  const sorted = perBin.map((s) => s.sort());
  out.latency = {
    p50: sorted.map((s) => round(rank(s, 50))),
    p99: sorted.map((s) => round(rank(s, 99))),
    max: sorted.map((s) => round(rank(s, 100))),
  };
  return out;
}

const BLOCKS = '▁▂▃▄▅▆▇█';

/**
 * A one-line sparkline of `values`, scaled from their least to their greatest; an entry whose `present` is
 * false (an empty interval) is a space.
 */
export function sparkline(values: readonly number[], present?: readonly boolean[]): string {
  const shown = values.filter((_, i) => present?.[i] !== false);
  if (shown.length === 0) return ' '.repeat(values.length);
  const lo = Math.min(...shown);
  const hi = Math.max(...shown);
  return values
    .map((v, i) => {
      if (present?.[i] === false) return ' ';
      const level = hi === lo ? 0 : Math.round(((v - lo) / (hi - lo)) * (BLOCKS.length - 1));
      return BLOCKS[level]!;
    })
    .join('');
}
