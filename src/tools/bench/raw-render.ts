/** The terminal report of bench raw: client next to floor, the ratios and whether each target holds. */

import type { LatencyStats } from '../shared/histogram.js';
import type { RawReport } from './raw-bench.js';
import { fmtMB, fmtRate, fmtRatio, fmtUs, renderTable } from '../shared/table.js';

function latencyRow(name: string, s: LatencyStats, floor?: LatencyStats): string[] {
  return [name, String(s.count), fmtUs(s.p50), fmtUs(s.p90), fmtUs(s.p99), fmtUs(s.max), floor === undefined ? '' : fmtRatio(s.p50, floor.p50)];
}

const mark = (ok: boolean | null): string => (ok === null ? 'not measured' : ok ? 'met' : 'MISSED');

export function renderRawReport(r: RawReport): string {
  const { client: c, floor: f } = r;
  let out = `zkwire bench raw — ZooKeeper ${r.server.version} (${r.server.mode}) at ${r.server.connectString}\n`;
  out += `node ${r.environment.node}, ${r.environment.cpu} ×${r.environment.cpus}; ${r.settings.samples} sequential samples per op in ${r.settings.rounds} rounds alternating with the floor; ${r.settings.dataBytes}-byte node data\n\n`;
  out += 'Sequential latency (one request at a time)\n';
  out += renderTable(
    ['operation', 'count', 'p50', 'p90', 'p99', 'max', 'p50 vs floor'],
    [
      latencyRow('floor ping', f.ping),
      latencyRow('floor getData', f.getData),
      latencyRow('client getData', c.getData, f.getData),
      latencyRow('floor create', f.create),
      latencyRow('client create', c.create, f.create),
      latencyRow('floor delete', f.delete),
      latencyRow('client delete', c.delete, f.delete),
      latencyRow('floor create+delete', f.createDelete),
      latencyRow('client create+delete', c.createDelete, f.createDelete),
    ],
  );
  out += `\nPipelined getData (${r.settings.pipelineRounds} rounds of ${r.settings.pipelineTotal} requests, up to ${r.settings.window} in flight)\n`;
  out += renderTable(
    ['side', 'median', 'rounds', 'vs floor'],
    [
      ['floor ping', fmtRate(f.pipelinedPing.opsPerSec), f.pipelinedPing.rounds.map(fmtRate).join(' '), ''],
      ['floor getData', fmtRate(f.pipelinedGetData.opsPerSec), f.pipelinedGetData.rounds.map(fmtRate).join(' '), ''],
      ['client getData', fmtRate(c.pipelinedGetData.opsPerSec), c.pipelinedGetData.rounds.map(fmtRate).join(' '), fmtRatio(c.pipelinedGetData.opsPerSec, f.pipelinedGetData.opsPerSec)],
    ],
  );
  const idle = r.idleSessions;
  if (idle !== null) {
    out += `\nIdle sessions: ${idle.sessions} open in one process — RSS ${fmtMB(idle.rssWith)} (before: ${fmtMB(idle.rssBefore)}, ${(idle.perSession / 1024).toFixed(1)} KB per session), heap used ${fmtMB(idle.heapUsedWith)}; opened in ${(idle.openMs / 1000).toFixed(1)} s, closed in ${(idle.closeMs / 1000).toFixed(1)} s${idle.isolated ? ' (measured in a fresh node process)' : ''}\n`;
  }
  out += '\nTargets\n';
  out += renderTable(
    ['target', 'measured', 'result'],
    [
      ['sequential p50 ≤ 1.05× floor', `getData ${r.ratios.getDataP50.toFixed(2)}×, create+delete ${r.ratios.createDeleteP50.toFixed(2)}×`, mark(r.targets.sequentialP50Within105)],
      ['pipelined throughput ≥ 0.95× floor', `${r.ratios.pipelinedGetData.toFixed(2)}×`, mark(r.targets.pipelinedAtLeast095)],
      [`${idle?.sessions ?? r.settings.idleSessions} idle sessions < 100 MB RSS`, idle === null ? '–' : fmtMB(idle.rssWith), mark(r.targets.idleRssUnder100MB)],
    ],
  );
  return out;
}
