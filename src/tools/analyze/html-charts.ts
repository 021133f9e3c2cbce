/**
 * The SVG drawings of the HTML report: the session timeline, the lock-holder timeline and latency histograms.
 * Inline SVG only (no script, font or link); every string from the capture goes through `esc`.
 */

import { withoutProtection } from '../../recipes/locks/naming.js';
import type { LatencyBucket, LeaderReport, LockReport, SessionReport, TxnChange } from './report.js';
import { fmtAt, fmtMs } from './render-text.js';
import { safeText } from '../shared/safe-text.js';
import { n1, xmlEscape } from '../shared/svg.js';

/**
 * Escapes text for HTML/XML character data and attribute values. Control characters (invalid in XML, invisible in
 * HTML) are shown as `\xNN`, as on the terminal.
 */
export function esc(s: string): string {
  return xmlEscape(safeText(s));
}

const W = 1000;
const LABEL_W = 190;
const PLOT_W = W - LABEL_W - 20;
const ROW_H = 22;
/** A lock held ten thousand times would draw a page nobody can scroll: the rest is in the table. */
const MAX_HOLDER_ROWS = 100;

/** A time window of the capture, in ms since its start. */
interface Span {
  lo: number;
  hi: number;
}

function axis(w: Span, y: number): string {
  const parts: string[] = [`<line x1="${LABEL_W}" y1="${y}" x2="${LABEL_W + PLOT_W}" y2="${y}" class="axis"/>`];
  const span = Math.max(w.hi - w.lo, 1e-3);
  const raw = span / 8;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? raw;
  for (let t = Math.ceil(w.lo / step) * step; t <= w.hi + 1e-9; t += step) {
    const x = xOf(t, w);
    parts.push(`<line x1="${n1(x)}" y1="${y}" x2="${n1(x)}" y2="${y + 4}" class="axis"/>`);
    parts.push(`<text x="${n1(x)}" y="${y + 16}" class="tick">${esc(fmtAt(t))}</text>`);
  }
  return parts.join('');
}

function xOf(ms: number, w: Span): number {
  const span = Math.max(w.hi - w.lo, 1e-3);
  return LABEL_W + ((Math.min(Math.max(ms, w.lo), w.hi) - w.lo) / span) * PLOT_W;
}

/**
 * One row per session: its connections as bars, silences, reconnects and how it ended; with a data directory, a
 * diamond per transaction of the session (create, setData, delete…) at the time the leader logged it.
 */
export function sessionTimelineSvg(sessions: readonly SessionReport[], durationMs: number, changes: readonly TxnChange[] = []): string {
  if (sessions.length === 0) return '<p class="none">No session in this capture.</p>';
  const whole: Span = { lo: 0, hi: durationMs };
  const h = sessions.length * ROW_H + 34;
  const bySession = new Map<string, TxnChange[]>();
  // Only those within the capture's time: the axis clamps, and a mark at the edge would claim the wrong time.
  for (const c of changes) {
    if (c.atMs < 0 || c.atMs > durationMs) continue;
    const list = bySession.get(c.session);
    if (list === undefined) bySession.set(c.session, [c]);
    else list.push(c);
  }
  const rows = sessions.map((s, i) => {
    const y = 8 + i * ROW_H;
    const parts: string[] = [`<g class="session-row" data-session="${esc(s.id)}">`];
    parts.push(`<text x="${LABEL_W - 8}" y="${y + 14}" class="label">${esc(s.id)}</text>`);
    for (const c of s.connections) {
      const x0 = xOf(c.fromMs, whole);
      const x1 = xOf(c.toMs ?? durationMs, whole);
      const tip = `connection ${c.conn} (${c.client}) ${fmtAt(c.fromMs)} → ${fmtAt(c.toMs)}${c.resumed ? ', resumed the session' : ''}${c.endReason === null ? '' : `, ended: ${c.endReason}`}`;
      parts.push(`<rect x="${n1(x0)}" y="${y + 3}" width="${n1(Math.max(2, x1 - x0))}" height="${ROW_H - 8}" class="conn${c.resumed ? ' resumed' : ''}"><title>${esc(tip)}</title></rect>`);
    }
    for (const z of s.silences) {
      const x0 = xOf(z.fromMs, whole);
      const x1 = xOf(z.toMs, whole);
      parts.push(`<rect x="${n1(x0)}" y="${y + 6}" width="${n1(Math.max(2, x1 - x0))}" height="${ROW_H - 14}" class="silence"><title>${esc(`silent for ${fmtMs(z.ms)} (timeout ${fmtMs(s.timeoutMs)})`)}</title></rect>`);
    }
    if (s.end.kind === 'closed' || s.end.kind === 'expired') {
      const x = xOf(s.end.atMs, whole);
      const cls = s.end.kind === 'expired' ? 'expired' : 'closed';
      const tip = s.end.kind === 'expired' ? `expired: ${s.end.how}` : 'closed by the client';
      parts.push(`<path d="M${n1(x - 5)} ${y + 4} l10 12 m0 -12 l-10 12" class="${cls}"><title>${esc(tip)}</title></path>`);
    }
    for (const c of bySession.get(s.id) ?? []) {
      const x = xOf(c.atMs, whole);
      const tip = `zxid ${c.zxid} ${c.op} ${c.path}: ${c.change}${c.detail === null ? '' : ` (${c.detail})`} at ${fmtAt(c.atMs)} (${c.time})${c.client === null ? '' : ` from ${c.client}`}`;
      parts.push(`<path d="M${n1(x)} ${y + 2} l5 7 l-5 7 l-5 -7 z" class="txn ${c.change}" data-zxid="${esc(c.zxid)}"><title>${esc(tip)}</title></path>`);
    }
    parts.push('</g>');
    return parts.join('');
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${h}" width="100%" role="img" aria-label="session timeline">${rows.join('')}${axis(whole, h - 24)}</svg>`;
}

/** One group per lock directory, one row per holder: who held the lock from when to when. */
export function lockTimelineSvg(locks: readonly LockReport[], durationMs: number): string {
  const withHolders = locks.filter((l) => l.holders.length > 0);
  if (withHolders.length === 0) return '<p class="none">No lock was held in this capture.</p>';
  // Zoomed to the time the locks were in use: lock traffic is often a short part of a long capture.
  const holds = withHolders.flatMap((l) => l.holders);
  const first = Math.min(...holds.map((h) => h.fromMs));
  const last = Math.max(...holds.map((h) => h.toMs ?? durationMs));
  const pad = Math.max((last - first) * 0.04, 0.5);
  const whole: Span = { lo: Math.max(0, first - pad), hi: Math.min(Math.max(durationMs, last), last + pad) };
  const rows: string[] = [];
  let y = 6;
  for (const l of withHolders) {
    rows.push(`<g class="lock-group" data-lock="${esc(l.dir)}"><text x="4" y="${y + 14}" class="dir">${esc(l.dir)} (${esc(l.recipe)})</text>`);
    y += ROW_H;
    const shown = l.holders.slice(0, MAX_HOLDER_ROWS);
    for (const h of shown) {
      const x0 = xOf(h.fromMs, whole);
      const x1 = xOf(h.toMs ?? durationMs, whole);
      const name = withoutProtection(h.node.slice(h.node.lastIndexOf('/') + 1));
      const tip = `${name} held by ${h.session} (${h.mode}) ${fmtAt(h.fromMs)} → ${fmtAt(h.toMs)}${h.handoffMs === null ? '' : `, hand-off ${fmtMs(h.handoffMs)}`}${h.how === null ? ', still held at the end' : `, ${h.how}`}`;
      rows.push(`<text x="${LABEL_W - 8}" y="${y + 14}" class="label">${esc(name)}</text>`);
      rows.push(`<rect x="${n1(x0)}" y="${y + 3}" width="${n1(Math.max(2, x1 - x0))}" height="${ROW_H - 8}" class="hold ${h.mode}"><title>${esc(tip)}</title></rect>`);
      // Who held it, next to the bar (or before it when the bar ends near the right edge).
      const right = x1 + 6 < LABEL_W + PLOT_W - 120;
      rows.push(`<text x="${n1(right ? Math.max(x1, x0 + 2) + 6 : x0 - 6)}" y="${y + 14}" class="who${right ? '' : ' label'}">${esc(h.session)}</text>`);
      y += ROW_H;
    }
    for (const v of l.violations) {
      const x0 = xOf(v.fromMs, whole);
      const x1 = xOf(v.toMs, whole);
      rows.push(`<rect x="${n1(x0)}" y="${y - ROW_H * shown.length}" width="${n1(Math.max(3, x1 - x0))}" height="${ROW_H * shown.length}" class="violation"><title>${esc('two holders at once')}</title></rect>`);
    }
    if (l.holders.length > shown.length) {
      rows.push(`<text x="${LABEL_W}" y="${y + 14}" class="note">${l.holders.length - shown.length} more holders in the table below</text>`);
      y += ROW_H;
    }
    rows.push('</g>');
    y += 6;
  }
  const h = y + 28;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${h}" width="100%" role="img" aria-label="lock holders">${rows.join('')}${axis(whole, h - 24)}</svg>`;
}

/**
 * One group per election: a row per term (the leader's session and client beside its bar) in time order, with the
 * leaderless gaps as rows of their own between them, and overlaps shaded as for locks.
 */
export function leaderTimelineSvg(leaders: readonly LeaderReport[], durationMs: number): string {
  const withTerms = leaders.filter((l) => l.terms.length > 0);
  if (withTerms.length === 0) return '<p class="none">Nobody led in this capture.</p>';
  const terms = withTerms.flatMap((l) => l.terms);
  const first = Math.min(...terms.map((t) => t.fromMs));
  const last = Math.max(...terms.map((t) => t.toMs ?? durationMs));
  const pad = Math.max((last - first) * 0.04, 0.5);
  const whole: Span = { lo: Math.max(0, first - pad), hi: Math.min(Math.max(durationMs, last), last + pad) };
  const rows: string[] = [];
  let y = 6;
  for (const l of withTerms) {
    rows.push(`<g class="leader-group" data-leader="${esc(l.path)}"><text x="4" y="${y + 14}" class="dir">${esc(l.path)} (${esc(l.recipe)})</text>`);
    y += ROW_H;
    const top = y;
    type Row = { fromMs: number; toMs: number | null; cls: string; label: string; who: string; tip: string };
    const items: Row[] = [
      ...l.terms.slice(0, MAX_HOLDER_ROWS).map((t) => {
        const name = withoutProtection(t.node.slice(t.node.lastIndexOf('/') + 1));
        const who = `${t.session}${t.client === null ? '' : ` ${t.client}`}`;
        return { fromMs: t.fromMs, toMs: t.toMs, cls: 'hold exclusive', label: name, who, tip: `${name}: ${who} led ${fmtAt(t.fromMs)} → ${fmtAt(t.toMs)}, ${t.ended ?? 'still leading at the end'}` };
      }),
      ...l.gaps.slice(0, MAX_HOLDER_ROWS).map((g) => ({ fromMs: g.fromMs, toMs: g.toMs, cls: 'gap', label: 'no leader', who: '', tip: `no leader ${fmtAt(g.fromMs)} → ${fmtAt(g.toMs)} (${fmtMs((g.toMs ?? durationMs) - g.fromMs)})` })),
    ].sort((a, b) => a.fromMs - b.fromMs);
    for (const r of items) {
      const x0 = xOf(r.fromMs, whole);
      const x1 = xOf(r.toMs ?? durationMs, whole);
      rows.push(`<text x="${LABEL_W - 8}" y="${y + 14}" class="label">${esc(r.label)}</text>`);
      rows.push(`<rect x="${n1(x0)}" y="${y + 3}" width="${n1(Math.max(2, x1 - x0))}" height="${ROW_H - 8}" class="${r.cls}"><title>${esc(r.tip)}</title></rect>`);
      const right = x1 + 6 < LABEL_W + PLOT_W - 160;
      if (r.who !== '') rows.push(`<text x="${n1(right ? Math.max(x1, x0 + 2) + 6 : x0 - 6)}" y="${y + 14}" class="who${right ? '' : ' label'}">${esc(r.who)}</text>`);
      y += ROW_H;
    }
    for (const v of l.overlaps) {
      const x0 = xOf(v.fromMs, whole);
      const x1 = xOf(v.toMs, whole);
      rows.push(`<rect x="${n1(x0)}" y="${top}" width="${n1(Math.max(3, x1 - x0))}" height="${y - top}" class="violation"><title>${esc('two leaders at once')}</title></rect>`);
    }
    if (l.terms.length > MAX_HOLDER_ROWS) {
      rows.push(`<text x="${LABEL_W}" y="${y + 14}" class="note">${l.terms.length - MAX_HOLDER_ROWS} more terms in the table below</text>`);
      y += ROW_H;
    }
    rows.push('</g>');
    y += 6;
  }
  const h = y + 28;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${h}" width="100%" role="img" aria-label="leaders">${rows.join('')}${axis(whole, h - 24)}</svg>`;
}

/** Bars on a log-scale latency axis. */
export function histogramSvg(buckets: readonly LatencyBucket[], label: string): string {
  if (buckets.length === 0 || buckets.every((b) => b.count === 0)) return '<p class="none">No reply to measure.</p>';
  const Wh = 640;
  const H = 150;
  const left = 50;
  const plotW = Wh - left - 10;
  const most = Math.max(...buckets.map((b) => b.count));
  const bw = plotW / buckets.length;
  const bars = buckets.map((b, i) => {
    const bh = (b.count / most) * (H - 40);
    return `<rect x="${n1(left + i * bw)}" y="${n1(H - 24 - bh)}" width="${n1(Math.max(1, bw - 1))}" height="${n1(bh)}" class="bar"><title>${esc(`${fmtMs(b.loMs)} – ${fmtMs(b.hiMs)}: ${b.count} repl${b.count === 1 ? 'y' : 'ies'}`)}</title></rect>`;
  });
  const first = buckets[0]!;
  const last = buckets[buckets.length - 1]!;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${Wh} ${H}" width="${Wh}" role="img" aria-label="${esc(label)}">` +
    bars.join('') +
    `<line x1="${left}" y1="${H - 24}" x2="${left + plotW}" y2="${H - 24}" class="axis"/>` +
    `<text x="${left}" y="${H - 8}" class="tick" text-anchor="start">${esc(fmtMs(first.loMs))}</text>` +
    `<text x="${left + plotW}" y="${H - 8}" class="tick" text-anchor="end">${esc(fmtMs(last.hiMs))}</text>` +
    `<text x="${left - 6}" y="20" class="tick" text-anchor="end">${most}</text>` +
    `<text x="${left + plotW / 2}" y="${H - 8}" class="tick">${esc(label)} (log scale)</text></svg>`
  );
}
