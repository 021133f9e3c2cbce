/** The failover section of the terminal report, and the fault marker row under the over-time sparklines. */

import { renderTable } from '../../shared/table.js';
import type { Timeline } from '../timeline.js';
import type { FailoverReport, FaultReport } from './report.js';
import type { Window } from './window.js';

const secs = (ms: number | null): string => (ms === null ? '–' : `${(ms / 1000).toFixed(2)} s`);
const msText = (ms: number | null): string => (ms === null ? '–' : ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`);

/** "812 ms", or "≥ 3.20 s (not recovered when the run ended)". */
function windowText(w: Window): string {
  if (w.windowMs === null) return `≥ ${msText(w.atLeastMs)} (not recovered when the run ended)`;
  return msText(w.windowMs);
}

function fencingText(f: FaultReport['fencing']): string {
  if (f.before === null || f.after === null) return 'fencing: no exclusive acquisition on one side of the fault';
  const epochs = f.epochBefore === f.epochAfter ? `epoch ${f.epochAfter}` : `epoch ${f.epochBefore} → ${f.epochAfter}: a new leader`;
  return `fencing token ${f.before} → ${f.after} (${epochs}): ${f.increasing ? 'increasing (ok)' : 'WENT BACKWARDS'}`;
}

/** "#2 127.0.0.1:37143 (faulted)": a session's server, named by member when it is one of the bench's ensemble. */
function serverLabel(address: string | null, f: FaultReport, ensemble: FailoverReport['ensemble']): string {
  if (address === null) return 'disconnected';
  const i = ensemble?.members.findIndex((m) => m.connectString === address || m.proxy === address) ?? -1;
  if (i < 0) return address;
  return `#${i} ${ensemble!.members[i]!.connectString}${i === f.member ? ' (faulted)' : ''}`;
}

function renderFault(f: FaultReport, n: number, of: number, ensemble: FailoverReport['ensemble']): string {
  const w = f.window;
  const lifted = f.endedAtMs === null ? '' : `, lifted at ${secs(f.endedAtMs)}`;
  let out = `\nfault${of > 1 ? ` ${n}` : ''}: ${f.kind} at ${secs(f.atMs)}${lifted} — ${f.label}\n`;
  out += `  lock unavailable: ${windowText(w)}`;
  if (w.windowMs !== null) out += ` (no acquisition completed from ${secs(w.stallFromMs)} to ${secs(w.stallToMs)}; every session had acquired again ${msText(w.recoveredAfterMs)} after the fault)`;
  out += `\n  ${fencingText(f.fencing)}\n`;
  out += renderTable(
    ['session', 'on server at the fault', 'last before', 'first after', 'unavailable'],
    f.perSession.map((s) => [String(s.session), serverLabel(s.serverAtFault, f, ensemble), secs(s.lastBeforeMs), secs(s.firstAfterMs), windowText(s)]),
    2,
  );
  return out;
}

/** The failover section: each fault's window (overall and per session), failures by code, sessions, safety. */
export function renderFailover(r: FailoverReport): string {
  let out = '';
  if (r.ensemble !== null) {
    const members = r.ensemble.members.map((m, i) => `#${i} ${m.connectString}`).join(', ');
    out += `\nensemble: ${r.ensemble.size} members started for this run (${members})${r.ensemble.proxied ? ', each behind a fault proxy' : ''}\n`;
  }
  r.faults.forEach((f, i) => (out += renderFault(f, i + 1, r.faults.length, r.ensemble)));
  if (r.faults.length === 0) out += `\nno fault caused or marked, but some acquisitions failed:\n`;
  const c = r.config;
  const asked = r.sessionTimeoutMs.asked === null ? '' : ` (asked ${r.sessionTimeoutMs.asked} ms)`;
  out += `session timeout ${r.sessionTimeoutMs.negotiated} ms${asked}`;
  if (r.boundMs !== null) out += `; expected bound ${msText(r.boundMs)} = session timeout + (initLimit ${c.initLimit} + syncLimit ${c.syncLimit}) × tickTime ${c.tickTime} ms`;
  out += '\n';
  const errors = Object.entries(r.errors).map(([code, n]) => `${code} ${n}`);
  out += `failed: ${r.failedAcquires} acquire${r.failedAcquires === 1 ? '' : 's'}, ${r.failedReleases} release${r.failedReleases === 1 ? '' : 's'}; lost while held: ${r.lostWhileHeld}`;
  out += `; errors by code: ${errors.length === 0 ? 'none' : errors.join(', ')}\n`;
  out += `sessions: ${r.disconnects} disconnection${r.disconnects === 1 ? '' : 's'}, ${r.expiries} expir${r.expiries === 1 ? 'y' : 'ies'}, ${r.renewals} renewal${r.renewals === 1 ? '' : 's'}\n`;
  out += `through the fault${r.faults.length === 1 ? '' : 's'}: mutual exclusion ${r.exclusionHeld ? 'held' : 'VIOLATED'}, fencing ${r.fencingHeld ? 'held' : 'VIOLATED'}\n`;
  return out;
}

/**
 * A row as wide as the sparklines with ▲ in the interval of each fault and △ where it was lifted, and its legend;
 * null without faults.
 */
export function faultMarkerRow(r: FailoverReport, t: Timeline): { row: string; legend: string } | null {
  if (r.faults.length === 0) return null;
  const cells = new Array<string>(t.counts.length).fill(' ');
  const bin = (ms: number): number => Math.min(t.counts.length - 1, Math.max(0, Math.floor(ms / t.binMs)));
  for (const f of r.faults) if (f.endedAtMs !== null) cells[bin(f.endedAtMs)] = '△';
  for (const f of r.faults) cells[bin(f.atMs)] = '▲';
  const legend = r.faults.map((f) => `▲ ${f.kind} ${secs(f.atMs)}${f.endedAtMs === null ? '' : ` △ lifted ${secs(f.endedAtMs)}`}`).join('; ');
  return { row: cells.join(''), legend };
}
