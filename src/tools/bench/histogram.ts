/**
 * Latency histograms on a logarithmic axis: lock and round-trip latencies span two or three decades (a
 * 100 µs hand-off next to a 20 ms GC pause), which equal-width bins would squash into one bar.
 */

import type { LatencySummary } from './recorder.js';

export interface Bin {
  /** Inclusive lower edge, µs. */
  lo: number;
  /** Exclusive upper edge, µs (inclusive for the last bin). */
  hi: number;
  count: number;
}

/** BucketHistogram's compact form: see BucketHistogram.serialize. */
export interface SerializedHistogram {
  precision: number;
  count: number;
  /** Sum of the samples, µs (for the mean). */
  sum: number;
  min: number;
  max: number;
  /** Pairs [buckets skipped since the last non-empty one, count], lowest bucket first. */
  runs: number[];
}

/** `bins` log-spaced bins from the smallest to the largest sample; empty input gives no bins. */
export function logHistogram(samples: ArrayLike<number>, bins: number): Bin[] {
  if (samples.length === 0 || bins < 1) return [];
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < samples.length; i++) {
    const v = samples[i]!;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  // Log of zero is -Infinity; a sub-microsecond floor keeps the axis finite.
  const lo = Math.log10(Math.max(min, 0.1));
  const hi = Math.log10(Math.max(max, 0.1));
  const span = hi - lo;
  const n = span === 0 ? 1 : bins;
  const out: Bin[] = [];
  for (let i = 0; i < n; i++) {
    out.push({ lo: 10 ** (lo + (span * i) / n), hi: 10 ** (lo + (span * (i + 1)) / n), count: 0 });
  }
  for (let i = 0; i < samples.length; i++) {
    const v = Math.log10(Math.max(samples[i]!, 0.1));
    const idx = span === 0 ? 0 : Math.min(n - 1, Math.floor(((v - lo) / span) * n));
    out[idx]!.count++;
  }
  return out;
}

/** A compact terminal histogram: one line per bin, a bar scaled to the fullest bin. */
export function renderHistogram(bins: readonly Bin[], width = 40, formatUs: (us: number) => string = String): string {
  if (bins.length === 0) return '  (no samples)\n';
  const top = Math.max(...bins.map((b) => b.count));
  const total = bins.reduce((s, b) => s + b.count, 0);
  const labels = bins.map((b) => `${formatUs(b.lo)} – ${formatUs(b.hi)}`);
  const labelWidth = Math.max(...labels.map((l) => l.length));
  const countWidth = String(top).length;
  let out = '';
  bins.forEach((b, i) => {
    const bar = top === 0 ? 0 : Math.round((b.count / top) * width);
    const share = total === 0 ? 0 : (100 * b.count) / total;
    out += `  ${labels[i]!.padStart(labelWidth)} │${'█'.repeat(bar).padEnd(width)}│ ${String(b.count).padStart(countWidth)} ${share.toFixed(1).padStart(5)}%\n`;
  });
  return out;
}

/**
 * A latency histogram of bounded memory, HdrHistogram's idea in our own code: a fixed array of counters over
 * log-spaced buckets from 1 µs to 100 s, each bucket `precision` (default 1%) wider than the one below, plus
 * one bucket below and one above the range. Recording is O(1) and allocates nothing; the memory is the same
 * for ten samples or ten billion, so an open-loop run of any length can keep every latency. Percentiles use
 * the nearest-rank rule over the counts and answer the rank's bucket's geometric middle (clamped to the exact
 * min and max), so they are within `precision` of the exact nearest-rank sample; count, min, max and mean
 * are exact.
 */
export class BucketHistogram {
  static readonly LOWEST_US = 1;
  static readonly HIGHEST_US = 1e8;
  private readonly lnBase: number;
  private readonly counts: Uint32Array;
  private n = 0;
  private sum = 0;
  private lo = Infinity;
  private hi = -Infinity;

  constructor(readonly precision = 0.01) {
    if (!(precision > 0 && precision < 1)) throw new RangeError(`precision must be in (0, 1), got ${precision}`);
    this.lnBase = Math.log1p(precision);
    const inRange = Math.ceil(Math.log(BucketHistogram.HIGHEST_US / BucketHistogram.LOWEST_US) / this.lnBase);
    this.counts = new Uint32Array(inRange + 2);
  }

  /** How many buckets there are: fixed by the precision, whatever is recorded. */
  get bucketCount(): number {
    return this.counts.length;
  }

  get count(): number {
    return this.n;
  }

  /** Adds one sample, in microseconds. */
  record(us: number): void {
    this.counts[this.indexOf(us)]!++;
    this.n++;
    this.sum += us;
    if (us < this.lo) this.lo = us;
    if (us > this.hi) this.hi = us;
  }

  /** Adds every count of a histogram of the same precision (what a merge of workers' histograms needs). */
  merge(other: BucketHistogram): void {
    if (other.precision !== this.precision) throw new RangeError('histograms of different precision cannot be merged');
    for (let i = 0; i < this.counts.length; i++) this.counts[i]! += other.counts[i]!;
    this.n += other.n;
    this.sum += other.sum;
    this.lo = Math.min(this.lo, other.lo);
    this.hi = Math.max(this.hi, other.hi);
  }

  /** Nearest-rank percentile, `p` in 0..100, within `precision` of the exact one; 0 when empty. */
  percentile(p: number): number {
    if (this.n === 0) return 0;
    const rank = Math.min(this.n, Math.max(1, Math.ceil((p / 100) * this.n - 1e-9)));
    let seen = 0;
    for (let i = 0; i < this.counts.length; i++) {
      seen += this.counts[i]!;
      if (seen >= rank) return Math.min(this.hi, Math.max(this.lo, this.middleOf(i)));
    }
    return this.hi;
  }

  summary(): LatencySummary {
    const empty = this.n === 0;
    return {
      count: this.n,
      p50: this.percentile(50),
      p90: this.percentile(90),
      p99: this.percentile(99),
      p999: this.percentile(99.9),
      max: empty ? 0 : this.hi,
      min: empty ? 0 : this.lo,
      mean: empty ? 0 : this.sum / this.n,
    };
  }

  /** The non-empty buckets as bins (edges in µs), lowest first. */
  bins(): Bin[] {
    const out: Bin[] = [];
    for (let i = 0; i < this.counts.length; i++) {
      const count = this.counts[i]!;
      if (count === 0) continue;
      out.push({ lo: i === 0 ? 0 : this.lowerEdge(i), hi: i === this.counts.length - 1 ? this.hi : this.lowerEdge(i + 1), count });
    }
    return out;
  }

  /**
   * A compact, JSON-safe form for sending the histogram to another process (a bench worker's result znode, under
   * ZooKeeper's 1 MB jute.maxbuffer): only the non-empty buckets, as runs of [empty buckets skipped, count]. A
   * latency distribution fills a few hundred of the buckets, so the form is a few KB whatever the run's length.
   */
  serialize(): SerializedHistogram {
    const runs: number[] = [];
    let next = 0;
    for (let i = 0; i < this.counts.length; i++) {
      const count = this.counts[i]!;
      if (count === 0) continue;
      runs.push(i - next, count);
      next = i + 1;
    }
    const empty = this.n === 0;
    return { precision: this.precision, count: this.n, sum: this.sum, min: empty ? 0 : this.lo, max: empty ? 0 : this.hi, runs };
  }

  /** The histogram `serialize()` wrote; RangeError when `s` is not one (its counts must add up and fit). */
  static deserialize(s: SerializedHistogram): BucketHistogram {
    const h = new BucketHistogram(s.precision);
    const bad = (why: string): RangeError => new RangeError(`not a serialized histogram: ${why}`);
    if (!Array.isArray(s.runs) || s.runs.length % 2 !== 0) throw bad('runs must be pairs of numbers');
    let index = 0;
    let total = 0;
    for (let r = 0; r < s.runs.length; r += 2) {
      const skip = s.runs[r]!;
      const count = s.runs[r + 1]!;
      if (!Number.isSafeInteger(skip) || skip < 0 || !Number.isSafeInteger(count) || count <= 0) throw bad(`run ${r / 2} is not [skip ≥ 0, count > 0]`);
      index += skip;
      if (index >= h.counts.length) throw bad(`bucket ${index} is past the last (${h.counts.length - 1})`);
      h.counts[index] = count;
      total += count;
      index++;
    }
    if (total !== s.count) throw bad(`the buckets hold ${total} samples, the count says ${s.count}`);
    if (![s.sum, s.min, s.max].every(Number.isFinite)) throw bad('sum, min and max must be finite numbers');
    h.n = s.count;
    h.sum = s.sum;
    if (s.count > 0) {
      h.lo = s.min;
      h.hi = s.max;
    }
    return h;
  }

  private indexOf(us: number): number {
    if (!(us >= BucketHistogram.LOWEST_US)) return 0; // below the range, zero, negative or NaN
    if (us >= BucketHistogram.HIGHEST_US) return this.counts.length - 1;
    const i = 1 + Math.floor(Math.log(us / BucketHistogram.LOWEST_US) / this.lnBase);
    return Math.min(this.counts.length - 2, i);
  }

  private lowerEdge(i: number): number {
    return BucketHistogram.LOWEST_US * Math.exp((i - 1) * this.lnBase);
  }

  private middleOf(i: number): number {
    if (i === 0) return this.lo;
    if (i === this.counts.length - 1) return this.hi;
    return this.lowerEdge(i) * Math.sqrt(1 + this.precision);
  }
}
