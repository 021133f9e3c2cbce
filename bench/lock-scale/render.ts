/** The terminal report of bench lock-scale: one table per part, each with its target and met / missed. */

import type { LockScaleReport } from './run.js';
import { SEGMENTS, type HandoffReport } from './handoff.js';
import type { LatencyStats } from '../../src/tools/shared/histogram.js';
import { fmtUs, renderTable } from '../../src/tools/shared/table.js';

const x = (v: number): string => (v > 0 ? `${v.toFixed(2)}×` : '–');
const verdict = (met: boolean): string => (met ? 'met' : 'MISSED');

export function renderLockScale(r: LockScaleReport): string {
  let out = `zkwire bench lock-scale — ZooKeeper ${r.server.version} (${r.server.mode}) at ${r.server.connectString}\n`;
  out += `node ${r.environment.node}, ${r.environment.cpu} ×${r.environment.cpus}\n`;

  const h = r.held;
  if (h !== null) {
    out += `\n1. Uncontended acquire/release on a fresh path while the process holds N other locks\n`;
    out += `   (${h.samplesPerLevel} cycles per level; held locks each on their own path, half through the measuring client, half through ${h.otherClients} other clients)\n\n`;
    out += renderTable(
      ['held', 'acquire p50', 'p90', 'p99', '× 0-held p50/p90/p99', 'release p50', '×', 'floor create p50', '×', 'acquire ÷ create', 'vs 0-held'],
      h.levels.map((l) => [
        l.phase === 'after' ? `${l.held} (after release)` : l.held.toLocaleString('en-US'),
        fmtUs(l.acquire.p50),
        fmtUs(l.acquire.p90),
        fmtUs(l.acquire.p99),
        `${x(l.ratioToZero.acquireP50)} ${x(l.ratioToZero.acquireP90)} ${x(l.ratioToZero.acquireP99)}`,
        fmtUs(l.release.p50),
        x(l.ratioToZero.releaseP50),
        fmtUs(l.floorCreate.p50),
        x(l.ratioToZero.floorCreateP50),
        x(l.acquireToCreate),
        x(l.normalizedToZero),
      ]),
    );
    out += `target: no per-acquire cost that grows with the locks held — acquire ÷ create at every level within ${h.target.normalizedAtMost}× of 0 held: `;
    out += `worst ${x(h.worstNormalized)} (raw acquire p50 worst ${x(h.worstAcquireP50Ratio)} of 0 held) — ${verdict(h.target.met)}\n`;
  }

  const q = r.queue;
  if (q !== null) {
    out += `\n2. ${q.waiters.toLocaleString('en-US')} InterProcessMutex waiters on one lock, ${q.sessions} sessions, queued one by one in ${(q.queueMs / 1000).toFixed(1)} s; the holder releases, each waiter releases on acquiring\n\n`;
    const t = q.targets;
    out += renderTable(
      ['figure', 'value', 'target', ''],
      [
        ['acquired', `${q.acquired} / ${q.waiters}`, `all`, verdict(q.acquired === q.waiters)],
        ['out-of-order acquisitions', String(q.outOfOrder), '0', verdict(q.outOfOrder === 0)],
        ['queue order gaps (sequence vs queueing)', String(q.queueOrderGaps), '0', ''],
        ['watch notifications', `${q.frames.notificationsTotal} for ${q.handoffs} hand-offs`, '', ''],
        ['notifications per hand-off', q.perHandoff.notifications.toFixed(2), '', ''],
        ['most notifications for one node', String(q.frames.maxNotificationsPerPath), `≤ ${t.notificationsPerHandoffAtMost}`, verdict(t.noHerd)],
        ['getChildren per hand-off', q.perHandoff.getChildren.toFixed(2), `≤ ${t.getChildrenPerHandoffAtMost}`, verdict(t.getChildrenMet)],
        ['requests per hand-off', `${q.perHandoff.requests.toFixed(2)} (${describeRequests(q.frames.requests, q.handoffs)})`, '', ''],
        ['hand-off p50 / p90 / p99', `${fmtUs(q.handoff.p50)} / ${fmtUs(q.handoff.p90)} / ${fmtUs(q.handoff.p99)}`, '', ''],
        [`first tenth of the chain (~${q.waiters} queued) p50`, `${fmtUs(q.handoffFirstTenth.p50)} = ${x(q.firstTenthToFullFloor)} of delete+getChildren(${q.waiters} children) ${fmtUs(q.floor.deleteGetChildrenFull.p50)}`, '', ''],
        [`last tenth of the chain (few queued) p50`, `${fmtUs(q.handoffLastTenth.p50)} = ${x(q.lastTenthToFloor)} of delete+getChildren(1 child) ${fmtUs(q.floor.deleteGetChildren.p50)}`, '', ''],
        ['whole chain', `${(q.chainMs / 1000).toFixed(2)} s (${((q.handoffs * 1000) / Math.max(1, q.chainMs)).toFixed(0)} hand-offs/s)`, '', ''],
      ],
      2,
    );
    out += `target: ${q.waiters.toLocaleString('en-US')} waiters hand off in order with no herd — ${verdict(t.met)}\n`;
  }
  out += `\nall targets: ${r.met ? 'met' : 'MISSED'}\n`;
  return out;
}

function describeRequests(requests: Record<string, number>, handoffs: number): string {
  return Object.entries(requests)
    .map(([op, n]) => `${op} ${(n / Math.max(1, handoffs)).toFixed(2)}`)
    .join(', ');
}

/** Part 3 (optional): contended hand-offs with K sessions, cut into segments, side by side for each K. */
export function renderHandoffs(reports: readonly HandoffReport[]): string {
  if (reports.length === 0) return '';
  let out = `\n3. Where a contended hand-off goes (bench lock's loop: K sessions, acquire → release at once → queue again)\n\n`;
  const head = ['figure', ...reports.map((r) => `${r.sessions} sessions${r.requeueDelayMs > 0 ? `, re-queue after ${r.requeueDelayMs} ms` : ''}`)];
  const p50 = (s: LatencyStats): string => (s.count === 0 ? '–' : `${fmtUs(s.p50)} (p90 ${fmtUs(s.p90)})`);
  const rows: string[][] = [
    ['hand-off p50, untraced', ...reports.map((r) => p50(r.handoffUntraced))],
    ['… ÷ floor delete+getChildren', ...reports.map((r) => `${x(r.untracedToFloor)} of ${fmtUs(r.floor.deleteGetChildren.p50)}`)],
    ['floor delete / getChildren p50', ...reports.map((r) => `${fmtUs(r.floor.delete.p50)} / ${fmtUs(r.floor.getChildren.p50)}`)],
    ['hand-off p50, traced', ...reports.map((r) => p50(r.handoffTraced))],
    ...SEGMENTS.map((s) => [`  ${s}`, ...reports.map((r) => p50(r.segments[s]))]),
    ['requests per acquisition', ...reports.map((r) => Object.entries(r.perAcquisition.requests).map(([op, n]) => `${op} ${n.toFixed(2)}`).join(', '))],
    ['notifications per acquisition', ...reports.map((r) => r.perAcquisition.notifications.toFixed(2))],
  ];
  out += renderTable(head, rows);
  return out;
}
