/**
 * One latency histogram for every tool: the benchmarks (µs, merged across worker processes), `zkwire analyze` and
 * the tracing proxy (ms, over captures of hours at tens of thousands of replies per second).
 *
 * Samples go into log-spaced buckets, each `precision` (default 1%) wider than the one below, from `lowest` to
 * `highest` plus one bucket below and one above that range: HdrHistogram's idea in our own code. Only non-empty
 * buckets are stored, so a histogram per session costs what its samples fill, and no run, however long, grows it
 * past `bucketCount`. A percentile follows the nearest-rank rule and answers its bucket's geometric middle, clamped
 * to the exact min and max (which the lowest and highest ranks answer exactly), so it is within `precision` of the
 * exact sample; count, min, max and mean are exact.
 */

/** The range of a histogram, in the unit its samples are recorded in. */
export interface HistogramRange {
  /** The lower edge of the first in-range bucket; below it is one bucket. */
  readonly lowest: number;
  /** Samples at or above it share the last bucket. */
  readonly highest: number;
}

/** Microseconds, 1 µs to 100 s: the benchmarks'. */
export const MICROSECONDS: HistogramRange = { lowest: 1, highest: 1e8 };
/** Milliseconds, 1 µs to 11 days: a capture's (a watch may fire hours after it was set). */
export const MILLISECONDS: HistogramRange = { lowest: 0.001, highest: 1e9 };

/** Latency percentiles and the maximum: in ms (µs resolution) in captures and traces, in µs in the benchmarks. */
export interface LatencySummary {
  count: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

/** The benchmarks' figures, in µs: the summary plus p99.9, the minimum and the mean. */
export interface LatencyStats extends LatencySummary {
  p999: number;
  min: number;
  mean: number;
}

/** A bin of a distribution, in the histogram's unit. */
export interface Bin {
  /** Inclusive lower edge. */
  lo: number;
  /** Exclusive upper edge (inclusive for the last bin). */
  hi: number;
  count: number;
}

/** LatencyHistogram's compact form: see LatencyHistogram.serialize. */
export interface SerializedHistogram {
  precision: number;
  count: number;
  /** Sum of the samples (for the mean). */
  sum: number;
  min: number;
  max: number;
  /** Pairs [buckets skipped since the last non-empty one, count], lowest bucket first. */
  runs: number[];
}

export class LatencyHistogram {
  readonly precision: number;
  readonly range: HistogramRange;
  readonly #growth: number;
  readonly #lnGrowth: number;
  readonly #buckets: number;
  readonly #counts = new Map<number, number>();
  #n = 0;
  #sum = 0;
  #lo = Infinity;
  #hi = -Infinity;

  constructor(precision = 0.01, range: HistogramRange = MICROSECONDS) {
    if (!(precision > 0 && precision < 1)) throw new RangeError(`precision must be in (0, 1), got ${precision}`);
    if (!(range.lowest > 0 && range.highest > range.lowest)) throw new RangeError('the range must have 0 < lowest < highest');
    this.precision = precision;
    this.range = range;
    this.#growth = 1 + precision;
    this.#lnGrowth = Math.log(this.#growth);
    this.#buckets = Math.ceil(Math.log(range.highest / range.lowest) / this.#lnGrowth) + 2;
  }

  /** How many buckets there can be: fixed by the precision and the range, whatever is recorded. */
  get bucketCount(): number {
    return this.#buckets;
  }

  get count(): number {
    return this.#n;
  }

  /** The least sample; undefined when empty. */
  get min(): number | undefined {
    return this.#n === 0 ? undefined : this.#lo;
  }

  /** The greatest sample; undefined when empty. */
  get max(): number | undefined {
    return this.#n === 0 ? undefined : this.#hi;
  }

  /** Adds one sample. A negative or non-finite one is no latency (a capture's clock stepped back) and is skipped. */
  record(v: number): void {
    if (!Number.isFinite(v) || v < 0) return;
    const i = this.#indexOf(v);
    this.#counts.set(i, (this.#counts.get(i) ?? 0) + 1);
    this.#n++;
    this.#sum += v;
    if (v < this.#lo) this.#lo = v;
    if (v > this.#hi) this.#hi = v;
  }

  /** Adds every count of a histogram of the same precision and range (what a merge of workers' histograms needs). */
  merge(other: LatencyHistogram): void {
    if (other.precision !== this.precision || other.#buckets !== this.#buckets) throw new RangeError('histograms of different precision cannot be merged');
    for (const [i, c] of other.#counts) this.#counts.set(i, (this.#counts.get(i) ?? 0) + c);
    this.#n += other.#n;
    this.#sum += other.#sum;
    this.#lo = Math.min(this.#lo, other.#lo);
    this.#hi = Math.max(this.#hi, other.#hi);
  }

  /** Nearest-rank percentile, `p` in 0..100, within `precision` of the exact one; 0 when empty. */
  percentile(p: number): number {
    if (this.#n === 0) return 0;
    // The epsilon absorbs binary rounding (99.9/100 × 1000 is 999.0000000000001, which must be rank 999).
    const rank = Math.min(this.#n, Math.max(1, Math.ceil((p / 100) * this.#n - 1e-9)));
    if (rank === this.#n) return this.#hi;
    if (rank === 1) return this.#lo;
    let seen = 0;
    for (const i of this.#sortedIndexes()) {
      seen += this.#counts.get(i)!;
      if (seen >= rank) return Math.min(this.#hi, Math.max(this.#lo, this.#middleOf(i)));
    }
    return this.#hi;
  }

  /** Count, p50/p90/p99/p99.9, min, max and mean; zeros when empty. */
  summary(): LatencyStats {
    const empty = this.#n === 0;
    return {
      count: this.#n,
      p50: this.percentile(50),
      p90: this.percentile(90),
      p99: this.percentile(99),
      p999: this.percentile(99.9),
      max: empty ? 0 : this.#hi,
      min: empty ? 0 : this.#lo,
      mean: empty ? 0 : this.#sum / this.#n,
    };
  }

  /** The non-empty buckets as bins, lowest first. */
  bins(): Bin[] {
    const last = this.#buckets - 1;
    return this.#sortedIndexes().map((i) => ({
      lo: i === 0 ? 0 : this.#lowerEdge(i),
      hi: i === last ? this.#hi : this.#lowerEdge(i + 1),
      count: this.#counts.get(i)!,
    }));
  }

  /**
   * A compact, JSON-safe form for sending the histogram to another process (a bench worker's result znode, under
   * ZooKeeper's 1 MB jute.maxbuffer): only the non-empty buckets, as runs of [empty buckets skipped, count]. A
   * latency distribution fills a few hundred of the buckets, so the form is a few KB whatever the run's length.
   * The range is not carried: both sides use the benchmarks' (MICROSECONDS).
   */
  serialize(): SerializedHistogram {
    const runs: number[] = [];
    let next = 0;
    for (const i of this.#sortedIndexes()) {
      runs.push(i - next, this.#counts.get(i)!);
      next = i + 1;
    }
    const empty = this.#n === 0;
    return { precision: this.precision, count: this.#n, sum: this.#sum, min: empty ? 0 : this.#lo, max: empty ? 0 : this.#hi, runs };
  }

  /** The histogram `serialize()` wrote; RangeError when `s` is not one (its counts must add up and fit). */
  static deserialize(s: SerializedHistogram): LatencyHistogram {
    const h = new LatencyHistogram(s.precision);
    const bad = (why: string): RangeError => new RangeError(`not a serialized histogram: ${why}`);
    if (!Array.isArray(s.runs) || s.runs.length % 2 !== 0) throw bad('runs must be pairs of numbers');
    let index = 0;
    let total = 0;
    for (let r = 0; r < s.runs.length; r += 2) {
      const skip = s.runs[r]!;
      const count = s.runs[r + 1]!;
      if (!Number.isSafeInteger(skip) || skip < 0 || !Number.isSafeInteger(count) || count <= 0) throw bad(`run ${r / 2} is not [skip ≥ 0, count > 0]`);
      index += skip;
      if (index >= h.#buckets) throw bad(`bucket ${index} is past the last (${h.#buckets - 1})`);
      h.#counts.set(index, count);
      total += count;
      index++;
    }
    if (total !== s.count) throw bad(`the buckets hold ${total} samples, the count says ${s.count}`);
    if (![s.sum, s.min, s.max].every(Number.isFinite)) throw bad('sum, min and max must be finite numbers');
    h.#n = s.count;
    h.#sum = s.sum;
    if (s.count > 0) {
      h.#lo = s.min;
      h.#hi = s.max;
    }
    return h;
  }

  #sortedIndexes(): number[] {
    return [...this.#counts.keys()].sort((a, b) => a - b);
  }

  #indexOf(v: number): number {
    if (v < this.range.lowest) return 0;
    if (v >= this.range.highest) return this.#buckets - 1;
    return Math.min(this.#buckets - 2, 1 + Math.floor(Math.log(v / this.range.lowest) / this.#lnGrowth));
  }

  #lowerEdge(i: number): number {
    return this.range.lowest * this.#growth ** (i - 1);
  }

  #middleOf(i: number): number {
    if (i === 0) return this.range.lowest / 2;
    if (i === this.#buckets - 1) return this.#hi;
    return this.range.lowest * this.#growth ** (i - 0.5);
  }
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
