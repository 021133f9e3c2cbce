/** The terminal report of bench lock: throughput, latency table with the floor and ratios, exclusion, histogram. */

import { faultMarkerRow, renderFailover } from './failover/failover-render.js';
import { renderHistogram } from '../shared/histogram.js';
import { HELD_SHARE, type LockReport, type OpenLoopReport } from './lock-bench.js';
import type { LatencyStats } from '../shared/histogram.js';
import { fmtRate, fmtRatio, fmtUs, renderTable } from '../shared/table.js';
import { sparkline } from './timeline.js';
import { renderProcesses } from './workers/processes-render.js';

function row(name: string, s: LatencyStats, base: LatencyStats | undefined, baseName: string): string[] {
  if (s.count === 0) return [name, '0', '–', '–', '–', '–', '–', ''];
  return [
    name,
    String(s.count),
    fmtUs(s.p50),
    fmtUs(s.p90),
    fmtUs(s.p99),
    fmtUs(s.p999),
    fmtUs(s.max),
    base === undefined ? '' : `${fmtRatio(s.p50, base.p50)} ${baseName}`,
  ];
}

export function renderLockReport(r: LockReport): string {
  const st = r.settings;
  const what = st.kind === 'semaphore' ? `semaphore (${st.leases} leases)` : st.kind === 'read-write' ? 'read-write lock (even sessions write, odd read)' : 'mutex';
  const run = (st.iterations !== null ? `${st.iterations} acquisitions` : `${st.durationS} s`) + (st.ratePerSec !== null ? `, open loop at ${fmtRate(st.ratePerSec)}` : '');
  let out = `zkwire bench lock — ${what}, ${st.clients} session${st.clients === 1 ? '' : 's'}, hold ${st.holdMs} ms, ${run}\n`;
  if (r.interrupted) out += `INTERRUPTED: partial figures, for what ran until the signal\n`;
  out += `server: ZooKeeper ${r.server.version} (${r.server.mode}) at ${r.server.connectString}; node ${r.environment.node}, ${r.environment.cpu} ×${r.environment.cpus}\n\n`;
  out += `acquisitions: ${r.acquisitions} in ${(r.elapsedMs / 1000).toFixed(2)} s = ${fmtRate(r.throughputPerSec)}  (per session: ${r.perClient.join(' / ')})\n`;
  out += `mutual exclusion: ${r.overlaps} overlap${r.overlaps === 1 ? '' : 's'}${r.overlaps === 0 ? ' (ok)' : ' — VIOLATED'}`;
  out += `; fencing tokens: ${r.fencingViolations === 0 ? 'strictly increasing (ok)' : `${r.fencingViolations} out of order — VIOLATED`}\n\n`;
  if (r.processes !== undefined) out += renderProcesses(r.processes);
  out += renderTable(
    ['latency', 'count', 'p50', 'p90', 'p99', 'p99.9', 'max', 'p50 vs floor'],
    [
      row('acquire', r.acquire, r.floor.create, 'create'),
      row('release', r.release, r.floor.delete, 'delete'),
      row('cycle (acquire+release)', r.cycle, r.floor.create, 'create'),
      row('hand-off', r.handoff, r.floor.handoff, 'hand-off floor'),
      row('floor: ping', r.floor.ping, undefined, ''),
      row('floor: create', r.floor.create, undefined, ''),
      row('floor: delete', r.floor.delete, undefined, ''),
      row('floor: delete+getChildren', r.floor.deleteGetChildren, undefined, ''),
      row('floor: hand-off (delete → watch event)', r.floor.handoff, undefined, ''),
    ],
  );
  const x = (v: number): string => (v > 0 ? `${v.toFixed(2)}×` : '–');
  out += `\nfloor ratios (p50): acquire / create ${x(r.ratios.acquireToCreate)}, hand-off / hand-off floor ${x(r.ratios.handoffToHandoffFloor)}, release / delete ${x(r.ratios.releaseToDelete)}\n`;
  if (r.openLoop !== null) out += renderOpenLoop(r.openLoop);
  if (r.failover !== undefined) out += renderFailover(r.failover);
  out += renderOverTime(r);
  out += `\nacquire latency distribution (log scale)\n`;
  out += renderHistogram(r.histogram.acquire.length > 12 ? merge(r.histogram.acquire, 12) : r.histogram.acquire, 36, fmtUs);
  return out;
}

/** Merges adjacent bins pairwise-or-more down to about `target` bins for the terminal. */
function merge(bins: LockReport['histogram']['acquire'], target: number): LockReport['histogram']['acquire'] {
  const step = Math.ceil(bins.length / target);
  const out: LockReport['histogram']['acquire'] = [];
  for (let i = 0; i < bins.length; i += step) {
    const group = bins.slice(i, i + step);
    out.push({ lo: group[0]!.lo, hi: group[group.length - 1]!.hi, count: group.reduce((s, b) => s + b.count, 0) });
  }
  return out;
}

/** The open-loop section: the rate asked and achieved (or that it could not be held) and both percentile sets. */
function renderOpenLoop(o: OpenLoopReport): string {
  let out = `\nopen loop: asked ${fmtRate(o.askedPerSec)}, achieved ${fmtRate(o.achievedPerSec)}`;
  if (o.held) out += ` (held; ${o.started} of ${o.scheduled} scheduled acquisitions)\n`;
  else {
    const why = o.missed > 0 ? `${o.missed} of ${o.scheduled} scheduled acquisitions never started` : `under ${Math.round(HELD_SHARE * 100)}% of the rate achieved`;
    out += ` — COULD NOT HOLD THE RATE: ${why}; the latencies below are of an overloaded run\n`;
  }
  out += renderTable(
    ['open-loop acquire', 'count', 'p50', 'p90', 'p99', 'p99.9', 'max'],
    [
      row('from intended start (corrected)', o.corrected, undefined, '').slice(0, 7),
      row('from call (uncorrected)', o.uncorrected, undefined, '').slice(0, 7),
      row('start lag behind schedule', o.startLag, undefined, '').slice(0, 7),
    ],
  );
  out += `(open-loop figures from log-bucketed histograms, within ${(o.precision * 100).toFixed(0)}%)\n`;
  return out;
}

/** Throughput and acquire p50/p99/max per interval as sparklines, each with its range. */
function renderOverTime(r: LockReport): string {
  const t = r.timeline;
  if (t.counts.length < 2 || t.latency === undefined) return '';
  const present = t.counts.map((c) => c > 0);
  const range = (values: readonly number[], fmt: (v: number) => string, mask: readonly boolean[] | undefined): string => {
    const shown = values.filter((_, i) => mask?.[i] !== false);
    return shown.length === 0 ? '' : `${fmt(Math.min(...shown))} – ${fmt(Math.max(...shown))}`;
  };
  const from = r.openLoop !== null ? ' (from intended start)' : '';
  const lines: [string, readonly number[], (v: number) => string, boolean][] = [
    ['acquisitions/s', t.perSec, fmtRate, false],
    [`acquire p50${from}`, t.latency.p50, fmtUs, true],
    ['acquire p99', t.latency.p99, fmtUs, true],
    ['acquire max', t.latency.max, fmtUs, true],
  ];
  const width = Math.max(...lines.map(([name]) => name.length));
  let out = `\nover time (${t.counts.length} intervals of ${t.binMs} ms)\n`;
  for (const [name, values, fmt, onlyPresent] of lines) {
    // An interval without acquisitions has no latency: a gap in the latency lines, a 0/s in the throughput one.
    const mask = onlyPresent ? present : undefined;
    out += `  ${name.padEnd(width)}  ${sparkline(values, mask)}  ${range(values, fmt, mask)}\n`;
  }
  const marks = r.failover === undefined ? null : faultMarkerRow(r.failover, t);
  if (marks !== null) out += `  ${'faults'.padEnd(width)}  ${marks.row}  ${marks.legend}\n`;
  return out;
}
