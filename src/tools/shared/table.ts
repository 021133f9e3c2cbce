/** Plain-text tables and number formats for bench reports (Markdown-compatible, so a README can quote them). */

/** A Markdown table; the first `leftColumns` columns are left-aligned, the rest right-aligned. */
export function renderTable(header: readonly string[], rows: readonly (readonly string[])[], leftColumns = 1): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    `| ${widths.map((w, i) => (i < leftColumns ? (cells[i] ?? '').padEnd(w) : (cells[i] ?? '').padStart(w))).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (i < leftColumns ? ` ${'-'.repeat(w)} ` : ` ${'-'.repeat(w - 1)}: `)).join('|')}|`;
  return [line(header), rule, ...rows.map(line)].join('\n') + '\n';
}

/** Microseconds, as µs below 10 ms and ms above. */
export function fmtUs(us: number): string {
  if (!Number.isFinite(us)) return '–';
  if (us >= 10_000) return `${(us / 1000).toFixed(1)} ms`;
  if (us >= 1000) return `${(us / 1000).toFixed(2)} ms`;
  return `${us.toFixed(0)} µs`;
}

/** A rate per second with k/M suffixes. */
export function fmtRate(perSec: number): string {
  if (!Number.isFinite(perSec)) return '–';
  if (perSec >= 1e6) return `${(perSec / 1e6).toFixed(2)}M/s`;
  if (perSec >= 1e4) return `${(perSec / 1e3).toFixed(1)}k/s`;
  return `${perSec.toFixed(0)}/s`;
}

/** A ratio like 1.03×, or – when the base is missing. */
export function fmtRatio(value: number, base: number): string {
  if (!(base > 0) || !Number.isFinite(value)) return '–';
  return `${(value / base).toFixed(2)}×`;
}

export function fmtMB(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
