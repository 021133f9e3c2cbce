/**
 * A self-contained SVG of a lock bench run: the acquire-latency distribution (log-scale histogram with p50 and
 * p99 marked, the floor's create round trip for reference) above acquisitions per second over time, with each
 * interval's acquire p50 and p99 drawn over it. Plain SVG
 * 1.1, no scripts, fonts, styles or links to anything outside the file, so it opens anywhere and can be
 * attached to a ticket as is.
 */

import type { Bin } from '../shared/histogram.js';
import type { LockReport } from './lock-bench.js';
import type { Timeline } from './timeline.js';
import { n1, svgText, xmlEscape } from '../shared/svg.js';
import { fmtRate, fmtUs } from '../shared/table.js';

const W = 820;
const PAD_L = 70;
const PAD_R = 24;
const PLOT_W = W - PAD_L - PAD_R;


/** Log-scale x position of `us` within [lo, hi]. */
function logX(us: number, lo: number, hi: number): number {
  const a = Math.log10(lo);
  const b = Math.log10(hi);
  return PAD_L + (b === a ? 0.5 : (Math.log10(Math.max(us, lo)) - a) / (b - a)) * PLOT_W;
}

function histogramChart(bins: readonly Bin[], top: number, h: number, markers: { label: string; us: number; color: string }[]): string {
  const parts: string[] = [];
  const baseY = top + h;
  parts.push(`<line x1="${PAD_L}" y1="${baseY}" x2="${PAD_L + PLOT_W}" y2="${baseY}" stroke="#444"/>`);
  if (bins.length === 0) {
    parts.push(svgText(PAD_L + PLOT_W / 2, top + h / 2, 'no samples', 'text-anchor="middle"'));
    return parts.join('\n');
  }
  const lo = bins[0]!.lo;
  const hi = bins[bins.length - 1]!.hi;
  const most = Math.max(1, ...bins.map((b) => b.count));
  for (const b of bins) {
    const x0 = logX(b.lo, lo, hi);
    const x1 = logX(b.hi, lo, hi);
    const bh = (b.count / most) * (h - 10);
    parts.push(
      `<rect x="${n1(x0)}" y="${n1(baseY - bh)}" width="${n1(Math.max(1, x1 - x0 - 1))}" height="${n1(bh)}" fill="#4a78b5"><title>${xmlEscape(`${fmtUs(b.lo)} – ${fmtUs(b.hi)}: ${b.count}`)}</title></rect>`,
    );
  }
  // Decade ticks on the log axis.
  for (let d = Math.ceil(Math.log10(lo)); 10 ** d <= hi; d++) {
    const x = logX(10 ** d, lo, hi);
    parts.push(`<line x1="${n1(x)}" y1="${baseY}" x2="${n1(x)}" y2="${baseY + 5}" stroke="#444"/>`);
    parts.push(svgText(x, baseY + 18, fmtUs(10 ** d), 'text-anchor="middle" font-size="11"'));
  }
  parts.push(svgText(PAD_L - 8, top + 10, String(most), 'text-anchor="end" font-size="11"'));
  parts.push(svgText(PAD_L - 8, baseY, '0', 'text-anchor="end" font-size="11"'));
  markers.forEach((m, i) => {
    if (!(m.us > 0) || m.us < lo || m.us > hi) return;
    const x = logX(m.us, lo, hi);
    parts.push(`<line x1="${n1(x)}" y1="${top}" x2="${n1(x)}" y2="${baseY}" stroke="${m.color}" stroke-dasharray="4 3"/>`);
    parts.push(svgText(x + 4, top + 12 + i * 14, `${m.label} ${fmtUs(m.us)}`, `font-size="11" fill="${m.color}"`));
  });
  return parts.join('\n');
}

function timelineChart(perSec: readonly number[], binMs: number, top: number, h: number): string {
  const parts: string[] = [];
  const baseY = top + h;
  parts.push(`<line x1="${PAD_L}" y1="${baseY}" x2="${PAD_L + PLOT_W}" y2="${baseY}" stroke="#444"/>`);
  parts.push(`<line x1="${PAD_L}" y1="${top}" x2="${PAD_L}" y2="${baseY}" stroke="#444"/>`);
  if (perSec.length === 0) return parts.join('\n');
  const most = Math.max(1, ...perSec);
  const step = PLOT_W / perSec.length;
  const pts = perSec.map((v, i) => `${n1(PAD_L + step * (i + 0.5))},${n1(baseY - (v / most) * (h - 10))}`);
  parts.push(`<polygon points="${n1(PAD_L + step * 0.5)},${baseY} ${pts.join(' ')} ${n1(PAD_L + step * (perSec.length - 0.5))},${baseY}" fill="#cfe0f3"/>`);
  parts.push(`<polyline points="${pts.join(' ')}" fill="none" stroke="#2a5c9a" stroke-width="1.5"/>`);
  parts.push(svgText(PAD_L - 8, top + 10, fmtRate(most), 'text-anchor="end" font-size="11"'));
  parts.push(svgText(PAD_L - 8, baseY, '0', 'text-anchor="end" font-size="11"'));
  const totalS = (perSec.length * binMs) / 1000;
  const tickEvery = totalS <= 10 ? 1 : totalS <= 60 ? 5 : Math.ceil(totalS / 10);
  for (let t = 0; t <= totalS + 1e-9; t += tickEvery) {
    const x = PAD_L + (t / totalS) * PLOT_W;
    parts.push(`<line x1="${n1(x)}" y1="${baseY}" x2="${n1(x)}" y2="${baseY + 5}" stroke="#444"/>`);
    parts.push(svgText(x, baseY + 18, `${t} s`, 'text-anchor="middle" font-size="11"'));
  }
  return parts.join('\n');
}

/**
 * The acquire p50 and p99 of each interval as lines over the throughput chart, scaled to the largest p99 (its
 * figure at the top right); an interval without acquisitions breaks the lines.
 */
function latencyOverTime(t: Timeline, top: number, h: number): string {
  if (t.latency === undefined || t.counts.length === 0) return '';
  const { p50, p99 } = t.latency;
  const most = Math.max(0, ...p99.filter((_, i) => t.counts[i]! > 0));
  if (!(most > 0)) return '';
  const baseY = top + h;
  const step = PLOT_W / t.counts.length;
  const parts: string[] = [];
  for (const [series, color] of [[p50, '#1b7f3b'], [p99, '#b5462b']] as const) {
    let run: string[] = [];
    const flush = (): void => {
      if (run.length > 1) parts.push(`<polyline points="${run.join(' ')}" fill="none" stroke="${color}" stroke-width="1.5"/>`);
      else if (run.length === 1) {
        const [x, y] = run[0]!.split(',');
        parts.push(`<circle cx="${x}" cy="${y}" r="2" fill="${color}"/>`);
      }
      run = [];
    };
    series.forEach((v, i) => {
      if (t.counts[i] === 0) return flush();
      run.push(`${n1(PAD_L + step * (i + 0.5))},${n1(baseY - (v / most) * (h - 10))}`);
    });
    flush();
  }
  parts.push(svgText(PAD_L + PLOT_W, top + 10, `acquire p99 ${fmtUs(most)}`, 'text-anchor="end" font-size="11" fill="#b5462b"'));
  parts.push(svgText(PAD_L + PLOT_W, top + 24, 'acquire p50', 'text-anchor="end" font-size="11" fill="#1b7f3b"'));
  return parts.join('\n');
}

/** A dashed vertical line with its label at each fault (and a lighter one where it was lifted) over the timeline. */
function faultLines(r: LockReport, top: number, h: number): string {
  const t = r.timeline;
  const totalMs = t.counts.length * t.binMs;
  if (r.failover === undefined || !(totalMs > 0)) return '';
  const x = (ms: number): number => PAD_L + (Math.min(ms, totalMs) / totalMs) * PLOT_W;
  const parts: string[] = [];
  r.failover.faults.forEach((f, i) => {
    if (f.endedAtMs !== null) {
      parts.push(`<line x1="${n1(x(f.endedAtMs))}" y1="${top}" x2="${n1(x(f.endedAtMs))}" y2="${top + h}" stroke="#c0392b" stroke-opacity="0.45" stroke-dasharray="2 3"/>`);
      parts.push(svgText(x(f.endedAtMs) + 4, top + h - 6 - i * 14, 'lifted', 'font-size="11" fill="#c0392b"'));
    }
    const window = f.window.windowMs === null ? '' : `, unavailable ${fmtUs(f.window.windowMs * 1000)}`;
    parts.push(`<line x1="${n1(x(f.atMs))}" y1="${top}" x2="${n1(x(f.atMs))}" y2="${top + h}" stroke="#c0392b" stroke-width="1.5" stroke-dasharray="5 3"/>`);
    parts.push(svgText(x(f.atMs) + 4, top + 38 + i * 14, `${f.kind}${window}`, 'font-size="11" fill="#c0392b"'));
  });
  return parts.join('\n');
}

export function renderLockSvg(r: LockReport): string {
  const H = 600;
  const st = r.settings;
  const title = `zkwire bench lock: ${st.kind}, ${st.clients} session${st.clients === 1 ? '' : 's'}, hold ${st.holdMs} ms`;
  const sub = `ZooKeeper ${r.server.version} at ${r.server.connectString} · ${r.acquisitions} acquisitions, ${fmtRate(r.throughputPerSec)} · overlaps ${r.overlaps}`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`,
    `<title>${xmlEscape(title)}</title>`,
    `<rect x="0" y="0" width="${W}" height="${H}" fill="#ffffff"/>`,
    svgText(PAD_L, 24, title, 'font-size="16" font-weight="bold"'),
    svgText(PAD_L, 42, sub, 'fill="#555"'),
    svgText(PAD_L, 74, `Acquire latency (count per bin, log-scale time axis); p50 ${fmtUs(r.acquire.p50)}, p99 ${fmtUs(r.acquire.p99)}, max ${fmtUs(r.acquire.max)}`, 'font-weight="bold"'),
    histogramChart(r.histogram.acquire, 84, 210, [
      { label: 'p50', us: r.acquire.p50, color: '#1b7f3b' },
      { label: 'p99', us: r.acquire.p99, color: '#b5462b' },
      { label: 'floor create', us: r.floor.create.p50, color: '#7a4ab5' },
    ]),
    svgText(PAD_L, 356, `Acquisitions per second (area) and acquire p50/p99 (lines) over time (bins of ${r.timeline.binMs} ms)`, 'font-weight="bold"'),
    timelineChart(r.timeline.perSec, r.timeline.binMs, 366, 190),
    latencyOverTime(r.timeline, 366, 190),
    faultLines(r, 366, 190),
    '</svg>',
    '',
  ].join('\n');
}
