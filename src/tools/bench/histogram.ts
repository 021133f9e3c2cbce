/**
 * Latency histograms on a logarithmic axis: lock and round-trip latencies span two or three decades (a
 * 100 µs hand-off next to a 20 ms GC pause), which equal-width bins would squash into one bar.
 */

export interface Bin {
  /** Inclusive lower edge, µs. */
  lo: number;
  /** Exclusive upper edge, µs (inclusive for the last bin). */
  hi: number;
  count: number;
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
