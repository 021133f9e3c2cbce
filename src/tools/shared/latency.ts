/**
 * A capture's latency figures in ms, from a LatencyHistogram: the per-op rows of `zkwire analyze` and the summary
 * the tracing proxy prints when it stops, one shape for both.
 */

import { LatencyHistogram, MILLISECONDS, type LatencySummary } from './histogram.js';

/** A histogram for a capture's latencies, in ms. */
export function msHistogram(): LatencyHistogram {
  return new LatencyHistogram(0.01, MILLISECONDS);
}

/** A latency distribution for drawing: log buckets with their bounds in ms. */
export interface LatencyBucket {
  loMs: number;
  hiMs: number;
  count: number;
}

/** Three decimals: µs resolution is all a capture's timestamps can claim. */
export function roundMs(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

/** p50/p90/p99/max of a histogram, or null when it has no samples. */
export function latencySummary(h: LatencyHistogram): LatencySummary | null {
  if (h.count === 0) return null;
  return {
    count: h.count,
    p50: roundMs(h.percentile(50)),
    p90: roundMs(h.percentile(90)),
    p99: roundMs(h.percentile(99)),
    max: roundMs(h.max!),
  };
}

/**
 * The histogram's 1%-wide buckets merged into at most `bins` bins of equal width on a log scale, for drawing.
 * Empty bins between occupied ones are kept so the drawing shows the gaps.
 */
export function coarseBuckets(h: LatencyHistogram, bins = 30): LatencyBucket[] {
  const fine = h.bins();
  if (fine.length === 0) return [];
  const lo = Math.max(0.001, h.min!);
  const hi = Math.max(lo * 1.01, h.max!);
  const step = (Math.log10(hi) - Math.log10(lo)) / bins;
  const out: LatencyBucket[] = Array.from({ length: bins }, (_, i) => ({
    loMs: roundMs(10 ** (Math.log10(lo) + i * step)),
    hiMs: roundMs(10 ** (Math.log10(lo) + (i + 1) * step)),
    count: 0,
  }));
  for (const b of fine) {
    const mid = Math.min(hi, Math.max(lo, Math.sqrt(Math.max(b.lo, 0.0005) * b.hi)));
    const i = Math.min(bins - 1, Math.max(0, Math.floor((Math.log10(mid) - Math.log10(lo)) / step)));
    out[i]!.count += b.count;
  }
  return out;
}
