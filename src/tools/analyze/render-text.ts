/** The analysis as terminal tables (Markdown-compatible, so a ticket or a doc can quote them). */

import { renderTable } from '../shared/table.js';
import { safeText } from '../shared/safe-text.js';
import { withoutProtection } from '../../recipes/locks/naming.js';
import type { AnalysisReport, LatencySummary, LeaderReport, LockReport, OpRow, SessionEnd, SessionReport, TransactionsReport, TxnChange } from './report.js';

/** ms with a precision that suits its size. */
export function fmtMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '-';
  if (ms >= 10_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms >= 100) return `${ms.toFixed(0)} ms`;
  if (ms >= 1) return `${ms.toFixed(1)} ms`;
  return `${(ms * 1000).toFixed(0)} µs`;
}

/** A capture-relative time: seconds with ms. */
export function fmtAt(ms: number | null): string {
  return ms === null ? 'end' : `+${(ms / 1000).toFixed(3)}s`;
}

function errors(e: Record<string, number>): string {
  const parts = Object.entries(e).map(([k, n]) => `${k}×${n}`);
  return parts.length === 0 ? '' : parts.join(' ');
}

function latencyCells(l: LatencySummary | null): string[] {
  return l === null ? ['-', '-', '-', '-'] : [fmtMs(l.p50), fmtMs(l.p90), fmtMs(l.p99), fmtMs(l.max)];
}

/** An ops table: one row per key. */
export function opsTable(title: string, rows: readonly OpRow[], limit = rows.length): string {
  const shown = rows.slice(0, limit);
  const body = shown.map((r) => [safeText(r.key), String(r.requests), String(r.replies), errors(r.errors), ...latencyCells(r.latencyMs)]);
  const more = rows.length > shown.length ? `(${rows.length - shown.length} more rows)\n` : '';
  return renderTable([title, 'requests', 'replies', 'errors', 'p50', 'p90', 'p99', 'max'], body, 1) + more;
}

export function endText(e: SessionEnd): string {
  switch (e.kind) {
    case 'closed':
      return `closed ${fmtAt(e.atMs)}`;
    case 'expired':
      return `EXPIRED ${fmtAt(e.atMs)}`;
    case 'disconnected':
      return `disconnected ${fmtAt(e.atMs)}`;
    case 'open':
      return 'open at end';
  }
}

/** One session's cells in the sessions table, for the terminal and the HTML report alike. */
export function sessionCells(s: SessionReport): string[] {
  return [
    s.id,
    s.timeoutMs === null ? '?' : fmtMs(s.timeoutMs),
    String(s.connections.length),
    String(s.reconnects),
    String(s.disconnects),
    s.pingMs === null ? '-' : `${fmtMs(s.pingMs.p50)} / ${fmtMs(s.pingMs.p99)}`,
    String(s.silences.length),
    String(s.ephemerals.length),
    String(s.requests),
    endText(s.end),
  ];
}

export function sessionsTable(sessions: readonly SessionReport[]): string {
  const rows = sessions.map(sessionCells);
  return renderTable(['session', 'timeout', 'conns', 'reconnects', 'disconnects', 'ping p50/p99', 'silences', 'ephemerals', 'requests', 'end'], rows, 1);
}

function shortNode(path: string): string {
  return safeText(withoutProtection(path.slice(path.lastIndexOf('/') + 1)));
}

export function lockText(l: LockReport): string {
  const out: string[] = [];
  out.push(`${safeText(l.dir)} — ${l.recipe}, ${l.contenders} contender node(s), ${l.holders.length} hold(s)` + (l.handoffMs === null ? '' : `, hand-off p50 ${fmtMs(l.handoffMs.p50)} max ${fmtMs(l.handoffMs.max)}`));
  if (l.holders.length > 0) {
    out.push(
      renderTable(
        ['holder node', 'session', 'mode', 'from', 'to', 'hand-off', 'ended by'],
        l.holders.map((h) => [shortNode(h.node), h.session, h.mode, fmtAt(h.fromMs), fmtAt(h.toMs), fmtMs(h.handoffMs), h.how ?? 'still held']),
        3,
      ).trimEnd(),
    );
  }
  for (const w of l.waits.slice(0, 20)) out.push(`  wait: ${shortNode(w.waiter)} (${w.waiterSession}) watched ${shortNode(w.watched)} at ${fmtAt(w.atMs)}`);
  if (l.waits.length > 20) out.push(`  … ${l.waits.length - 20} more waits`);
  for (const o of l.orphans) out.push(`  ORPHAN ${shortNode(o.node)} (${o.session}): ${o.why}`);
  for (const v of l.violations) {
    out.push(`  VIOLATION: ${shortNode(v.a.node)} (${v.a.session}, ${v.a.mode}) and ${shortNode(v.b.node)} (${v.b.session}, ${v.b.mode}) both held ${fmtAt(v.fromMs)} → ${fmtAt(v.toMs)}`);
  }
  return out.join('\n');
}

export function leaderText(l: LeaderReport): string {
  const out: string[] = [];
  out.push(`${safeText(l.path)} — ${l.recipe}, ${l.candidates} candidate node(s), ${l.terms.length} term(s), ${l.gaps.length} gap(s) without a leader`);
  if (l.terms.length > 0) {
    out.push(
      renderTable(
        ['leader node', 'session', 'client', 'from', 'to', 'ended by'],
        l.terms.map((t) => [shortNode(t.node), t.session, safeText(t.client ?? '?'), fmtAt(t.fromMs), fmtAt(t.toMs), t.ended ?? 'still leading']),
        3,
      ).trimEnd(),
    );
  }
  for (const g of l.gaps) out.push(`  no leader ${fmtAt(g.fromMs)} → ${fmtAt(g.toMs)} (${fmtMs((g.toMs ?? NaN) - g.fromMs)}) after ${g.after}${g.before === null ? '' : `, until ${g.before}`}`);
  for (const v of l.overlaps) out.push(`  TWO LEADERS: ${shortNode(v.a.node)} (${v.a.session}) and ${shortNode(v.b.node)} (${v.b.session}) ${fmtAt(v.fromMs)} → ${fmtAt(v.toMs)}`);
  return out.join('\n');
}

const CHANGE_TEXT: Record<string, string> = {
  created: 'created',
  changed: 'data changed',
  'acl-changed': 'ACL changed',
  deleted: 'deleted',
  'deleted-with-session': 'deleted with its session',
};

/** One change's cells, for the terminal and the HTML report alike. */
export function txnChangeCells(c: TxnChange): string[] {
  return [c.time, fmtAt(c.atMs), c.zxid, safeText(c.path), `${CHANGE_TEXT[c.change] ?? c.change}${c.detail === null ? '' : ` (${c.detail})`}${c.op === 'multi' ? ' in a multi' : ''}`, c.session, safeText(c.client ?? 'not in the capture')];
}

export const TXN_CHANGE_HEAD = ['time', 'at', 'zxid', 'path', 'change', 'session', 'client'];

/** What the data directory's transactions say the capture's sessions did (or, with a path, who changed it). */
export function transactionsText(t: TransactionsReport): string {
  const what = t.path === null ? 'changes made by the sessions of the capture' : `changes of ${safeText(t.path)} and below`;
  const out = [`Transactions from ${safeText(t.source)}: ${t.scanned} read, ${t.fromCapture} by sessions of the capture; ${t.changes.length + t.omitted} ${what}`];
  if (t.changes.length > 0) out.push(renderTable(TXN_CHANGE_HEAD, t.changes.map(txnChangeCells), 7).trimEnd());
  if (t.omitted > 0) out.push(`  … ${t.omitted} more (the list is bounded)`);
  return out.join('\n');
}

/** The whole report as text. */
export function renderReportText(r: AnalysisReport): string {
  const out: string[] = [];
  const start = r.startUs > 0 ? ` from ${new Date(r.startUs / 1000).toISOString()}` : '';
  out.push(`Capture: ${r.connections} connection(s), ${r.frames} frame(s), ${(r.durationMs / 1000).toFixed(3)} s${start}`, '');
  out.push('Ops', opsTable('op', r.ops.byOp));
  out.push(`Paths (rolled up to depth ${r.ops.depth})`, opsTable('path', r.ops.byPath, 20));
  out.push('Clients', opsTable('client', r.ops.byClient, 20));
  out.push('Requests by session', opsTable('session', r.ops.bySession, 20));
  out.push('Sessions', sessionsTable(r.sessions));
  for (const s of r.sessions) {
    const conns = s.connections.map((c) => `#${safeText(c.conn)} ${fmtAt(c.fromMs)}→${fmtAt(c.toMs)}${c.resumed ? ' (resumed)' : ''}`).join(', ');
    out.push(`  ${s.id}: ${conns}`);
    for (const x of s.silences.slice(0, 5)) out.push(`    silence ${fmtMs(x.ms)} on #${safeText(x.conn)} ${fmtAt(x.fromMs)}→${fmtAt(x.toMs)} (timeout ${fmtMs(s.timeoutMs)})`);
    for (const e of s.ephemerals.slice(0, 10)) out.push(`    ephemeral ${safeText(e.path)} ${fmtAt(e.atMs)}→${e.deletedAtMs === null ? 'end' : fmtAt(e.deletedAtMs)}`);
    if (s.ephemerals.length > 10) out.push(`    … ${s.ephemerals.length - 10} more ephemerals`);
  }
  out.push('');
  const w = r.watches;
  out.push(
    `Watches: ${w.set} set, ${w.fired} fired, ${w.armedAtEnd} still armed at the end` +
      (w.fireLatencyMs === null ? '' : `; set → fire p50 ${fmtMs(w.fireLatencyMs.p50)}, max ${fmtMs(w.fireLatencyMs.max)}`),
  );
  const armed = w.list.filter((x) => x.fired === null && x.dropped === null);
  if (armed.length > 0) out.push(renderTable(['still armed', 'kind', 'session', 'set at'], armed.slice(0, 20).map((x) => [safeText(x.path), x.kind, x.session, fmtAt(x.setMs)]), 3).trimEnd());
  for (const l of w.notRestored) out.push(`  NOT RE-REGISTERED after reconnect ${fmtAt(l.reconnectMs)}: ${l.kind} watch on ${safeText(l.path)} (${l.session})`);
  for (const h of w.herds) out.push(`  HERD: ${h.event} on ${safeText(h.path)} notified ${h.sessions} sessions within ${fmtMs(h.spreadMs)} at ${fmtAt(h.atMs)}`);
  out.push('');
  out.push(r.locks.length === 0 ? 'Locks: none recognised' : 'Locks');
  for (const l of r.locks) out.push(lockText(l), '');
  out.push(r.leaders.length === 0 ? 'Leaders: no election recognised' : 'Leaders');
  for (const l of r.leaders) out.push(leaderText(l), '');
  if (r.transactions !== undefined) out.push(transactionsText(r.transactions), '');
  const g = r.guardrails;
  const counts = Object.entries(g.counts);
  out.push(counts.length === 0 ? 'Guardrails: nothing to report' : `Guardrails: ${counts.map(([k, n]) => `${k} ${n}`).join(', ')}`);
  for (const f of g.findings.slice(0, 30)) {
    out.push(`  ${fmtAt(f.atMs)} ${f.kind} #${safeText(f.conn)} ${f.session ?? ''} ${f.op ?? ''} ${safeText(f.path ?? '')}: ${safeText(f.detail)}`.replace(/ +/g, ' '));
  }
  const rest = Math.max(0, g.findings.length - 30) + g.omitted;
  if (rest > 0) out.push(`  … ${rest} more`);
  return `${out.join('\n')}\n`;
}
