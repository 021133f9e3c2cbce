/**
 * A timeline that adds up across processes: acquisitions counted in fixed intervals, each with a small bounded
 * histogram of their latencies, so the workers' timelines merge interval by interval (exactly for the counts, within
 * the histograms' precision for the percentiles) and travel in a znode.
 */

import { LatencyHistogram, type SerializedHistogram } from '../../shared/histogram.js';
import type { Timeline } from '../timeline.js';

/** Per-interval percentiles within 5%: coarse buckets keep a long run's timeline small. */
export const TIMELINE_PRECISION = 0.05;
/** A worker's timeline is coarsened (intervals doubled) until it has at most this many intervals. */
export const MAX_INTERVALS = 200;

export interface SerializedTimeline {
  binMs: number;
  bins: SerializedHistogram[];
}

export class BinnedTimeline {
  private constructor(
    readonly binMs: number,
    readonly bins: LatencyHistogram[],
  ) {}

  /** Bins `atMs[i]` (ms since the start) with latency `latencyUs[i]`, doubling `binMs` until MAX_INTERVALS suffice. */
  static of(atMs: readonly number[], latencyUs: readonly number[], binMs: number): BinnedTimeline {
    const last = atMs.reduce((m, t) => Math.max(m, t), 0);
    let width = binMs;
    while (Math.floor(last / width) + 1 > MAX_INTERVALS) width *= 2;
    const bins = Array.from({ length: Math.floor(last / width) + 1 }, () => new LatencyHistogram(TIMELINE_PRECISION));
    atMs.forEach((t, i) => bins[Math.max(0, Math.floor(t / width))]!.record(latencyUs[i] ?? 0));
    return new BinnedTimeline(width, bins);
  }

  static deserialize(s: SerializedTimeline): BinnedTimeline {
    if (!(Number.isFinite(s.binMs) && s.binMs > 0) || !Array.isArray(s.bins)) throw new RangeError('not a serialized timeline');
    return new BinnedTimeline(s.binMs, s.bins.map((b) => LatencyHistogram.deserialize(b)));
  }

  serialize(): SerializedTimeline {
    return { binMs: this.binMs, bins: this.bins.map((b) => b.serialize()) };
  }

  /** This timeline in intervals `factor` times wider. */
  coarsen(factor: number): BinnedTimeline {
    if (factor === 1) return this;
    const bins = Array.from({ length: Math.ceil(this.bins.length / factor) }, () => new LatencyHistogram(TIMELINE_PRECISION));
    this.bins.forEach((b, i) => bins[Math.floor(i / factor)]!.merge(b));
    return new BinnedTimeline(this.binMs * factor, bins);
  }

  /**
   * The sum of `timelines` (widths that are the same base doubled, as `of` makes them) as a report's Timeline over
   * `totalMs`: about `targetBins` intervals of at least `minBinMs`, the last one taking the remainder.
   */
  static merge(timelines: readonly BinnedTimeline[], totalMs: number, targetBins = 50, minBinMs = 100): Timeline {
    const widest = Math.max(minBinMs, ...timelines.map((t) => t.binMs));
    let binMs = widest;
    while (binMs < totalMs / targetBins) binMs *= 2;
    const n = Math.max(1, Math.round(totalMs / binMs));
    const lastMs = Math.max(binMs, totalMs - (n - 1) * binMs);
    const sums = Array.from({ length: n }, () => new LatencyHistogram(TIMELINE_PRECISION));
    for (const t of timelines) {
      const c = t.coarsen(Math.max(1, Math.round(binMs / t.binMs)));
      c.bins.forEach((b, i) => sums[Math.min(n - 1, i)]!.merge(b));
    }
    const round = (v: number): number => Math.round(v * 10) / 10;
    const counts = sums.map((h) => h.count);
    return {
      binMs,
      counts,
      perSec: counts.map((c, i) => Math.round((c * 1000) / (i === n - 1 ? lastMs : binMs))),
      latency: { p50: sums.map((h) => round(h.percentile(50))), p99: sums.map((h) => round(h.percentile(99))), max: sums.map((h) => round(h.percentile(100))) },
    };
  }
}
