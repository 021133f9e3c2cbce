/**
 * Latency percentiles in constant memory: a trace may run for hours at tens of thousands of replies per second, so
 * samples go into logarithmic buckets 1% wide (about 1,400 buckets from 1 µs to 1,000 s) instead of an array.
 * A percentile is reported as its bucket's midpoint, i.e. within 0.5% of an exact figure; min and max are exact.
 */

const GROWTH = 1.01;
const LOG_GROWTH = Math.log(GROWTH);
/** Bucket 0 holds everything below 1 µs. */
const MIN_MS = 0.001;

export class LatencyHistogram {
  private readonly counts = new Map<number, number>();
  private n = 0;
  private lo = Infinity;
  private hi = -Infinity;

  get count(): number {
    return this.n;
  }

  get min(): number | undefined {
    return this.n === 0 ? undefined : this.lo;
  }

  get max(): number | undefined {
    return this.n === 0 ? undefined : this.hi;
  }

  add(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) return;
    const i = ms < MIN_MS ? 0 : 1 + Math.floor(Math.log(ms / MIN_MS) / LOG_GROWTH);
    this.counts.set(i, (this.counts.get(i) ?? 0) + 1);
    this.n++;
    if (ms < this.lo) this.lo = ms;
    if (ms > this.hi) this.hi = ms;
  }

  /** The latency at or below which `p` (0..1) of the samples fall; undefined when empty. */
  percentile(p: number): number | undefined {
    if (this.n === 0) return undefined;
    const rank = Math.max(1, Math.ceil(p * this.n));
    // The extremes are known exactly.
    if (rank >= this.n) return this.hi;
    if (rank === 1) return this.lo;
    let seen = 0;
    for (const i of [...this.counts.keys()].sort((a, b) => a - b)) {
      seen += this.counts.get(i)!;
      if (seen >= rank) return this.clamp(i === 0 ? MIN_MS / 2 : MIN_MS * GROWTH ** (i - 0.5));
    }
    return this.hi;
  }

  /** The non-empty buckets in ascending order, with their bounds in ms (for drawing the distribution). */
  buckets(): { loMs: number; hiMs: number; count: number }[] {
    return [...this.counts].sort(([a], [b]) => a - b).map(([i, count]) => ({
      loMs: i === 0 ? 0 : MIN_MS * GROWTH ** (i - 1),
      hiMs: MIN_MS * GROWTH ** i,
      count,
    }));
  }

  /** A bucket midpoint can fall outside the samples' range; never report a figure nobody measured beyond. */
  private clamp(v: number): number {
    return Math.min(this.hi, Math.max(this.lo, v));
  }
}
