/**
 * Latency samples in microseconds, kept whole (not pre-bucketed) so percentiles are exact: a bench run holds
 * at most a few hundred thousand samples, a few MB of Float64Array, and exact figures are what a reader
 * comparing against a floor needs.
 *
 * Percentiles use the nearest-rank rule: the p-th percentile of n sorted samples is the sample at rank
 * ceil(p/100 · n) (1-based). It is always a value that was measured, never an interpolation between two.
 */

import type { LatencyStats } from '../shared/histogram.js';

export class LatencyRecorder {
  #samples = new Float64Array(1024);
  #n = 0;
  #sorted: Float64Array | undefined;

  /** Adds one sample, in microseconds. */
  record(us: number): void {
    if (this.#n === this.#samples.length) {
      const grown = new Float64Array(this.#samples.length * 2);
      grown.set(this.#samples);
      this.#samples = grown;
    }
    this.#samples[this.#n++] = us;
    this.#sorted = undefined;
  }

  /** Adds the time since `startMs` (a performance.now() reading), converted to microseconds. */
  since(startMs: number): number {
    const us = (performance.now() - startMs) * 1000;
    this.record(us);
    return us;
  }

  /** Adds every sample of another recorder. */
  merge(other: LatencyRecorder): void {
    for (const v of other.values()) this.record(v);
  }

  get count(): number {
    return this.#n;
  }

  /** The samples in recording order (a copy). */
  values(): Float64Array {
    return this.#samples.slice(0, this.#n);
  }

  /** The samples in ascending order (cached until the next record). */
  sortedValues(): Float64Array {
    this.#sorted ??= this.#samples.slice(0, this.#n).sort();
    return this.#sorted;
  }

  /** Nearest-rank percentile, `p` in 0..100; 0 when there are no samples. */
  percentile(p: number): number {
    const s = this.sortedValues();
    if (s.length === 0) return 0;
    // The epsilon absorbs binary rounding (99.9/100 × 1000 is 999.0000000000001, which must be rank 999).
    const rank = Math.ceil((p / 100) * s.length - 1e-9);
    return s[Math.min(s.length, Math.max(1, rank)) - 1]!;
  }

  summary(): LatencyStats {
    const s = this.sortedValues();
    let sum = 0;
    for (const v of s) sum += v;
    return {
      count: s.length,
      p50: this.percentile(50),
      p90: this.percentile(90),
      p99: this.percentile(99),
      p999: this.percentile(99.9),
      max: s.length === 0 ? 0 : s[s.length - 1]!,
      min: s.length === 0 ? 0 : s[0]!,
      mean: s.length === 0 ? 0 : sum / s.length,
    };
  }
}

/** A summary with figures rounded to 0.1 µs, as reports carry them. */
export function roundedSummary(r: LatencyRecorder): LatencyStats {
  const s = r.summary();
  const round = (v: number): number => Math.round(v * 10) / 10;
  return {
    count: s.count,
    p50: round(s.p50),
    p90: round(s.p90),
    p99: round(s.p99),
    p999: round(s.p999),
    max: round(s.max),
    min: round(s.min),
    mean: round(s.mean),
  };
}
