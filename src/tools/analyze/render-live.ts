/** The top-like screen of `zkwire trace --analyze`: the busiest ops, sessions, watches and locks right now. */

import type { AnalysisReport } from './report.js';
import { endText, fmtAt, fmtMs, opsTable } from './render-text.js';
import { safeText } from '../shared/safe-text.js';
import { renderTable } from '../shared/table.js';

export interface LiveHeader {
  /** Connections open now. */
  connections: number;
  /** Where the proxy listens and forwards, for the title line. */
  title: string;
}

/** One screenful: the ops table, the most active sessions, watch totals, locks and guardrail counts. */
export function renderLiveSnapshot(r: AnalysisReport, h: LiveHeader, rows = 8): string {
  const out: string[] = [];
  out.push(`zkwire trace --analyze  ${h.title}  up ${(r.durationMs / 1000).toFixed(0)} s  connections open ${h.connections} (total ${r.connections})  frames ${r.frames}`);
  const ops = [...r.ops.byOp].sort((a, b) => b.requests - a.requests);
  out.push('', opsTable('op', ops, rows).trimEnd());
  const sessions = [...r.sessions].sort((a, b) => b.requests - a.requests).slice(0, rows);
  const open = r.sessions.filter((s) => s.end.kind === 'open').length;
  out.push('', `sessions: ${r.sessions.length} seen, ${open} open`);
  if (sessions.length > 0) {
    out.push(
      renderTable(
        ['session', 'requests', 'conns', 'ping p50', 'silences', 'ephemerals', 'state'],
        sessions.map((s) => [s.id, String(s.requests), String(s.connections.length), s.pingMs === null ? '-' : fmtMs(s.pingMs.p50), String(s.silences.length), String(s.ephemerals.length), endText(s.end)]),
        1,
      ).trimEnd(),
    );
  }
  const w = r.watches;
  out.push('', `watches: ${w.set} set, ${w.fired} fired, ${w.armedAtEnd} armed now${w.fireLatencyMs === null ? '' : `, set→fire p50 ${fmtMs(w.fireLatencyMs.p50)}`}; herds ${w.herds.length}, lost on reconnect ${w.notRestored.length}`);
  if (r.locks.length > 0) {
    out.push(
      '',
      renderTable(
        ['lock', 'holder now', 'since', 'holds', 'waiting', 'violations'],
        r.locks.slice(0, rows).map((l) => {
          const now = l.holders.filter((x) => x.toMs === null);
          return [safeText(l.dir), now.map((x) => x.session).join(' ') || '-', now.length === 0 ? '-' : fmtAt(now[0]!.fromMs), String(l.holders.length), String(l.waits.length), String(l.violations.length)];
        }),
        2,
      ).trimEnd(),
    );
  }
  const g = Object.entries(r.guardrails.counts);
  out.push('', g.length === 0 ? 'guardrails: nothing so far' : `guardrails: ${g.map(([k, n]) => `${k} ${n}`).join(', ')}`);
  return `${out.join('\n')}\n`;
}
