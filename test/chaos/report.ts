/**
 * The chaos run's summary: figures gathered into one JSON-ready object, a verdict over the must-be-zero figures,
 * and the printed table.
 */

import type { FaultEvent, FaultKind, FaultLog } from './faults.js';
import type { ElectionFigures } from './election.js';
import type { GroupFigures } from './group.js';
import type { WorkerProcessFigures } from './paused-process.js';
import type { ResourceFigures } from './fenced-resource.js';
import type { OpCounts, OpTracker } from './op-tracker.js';
import type { WatchdogFigures } from './watchdog.js';

export interface MustBeZero {
  /** Two holders inside a mutex / write lock at once, or a reader with a writer. */
  mutualExclusionViolations: number;
  /** More semaphore holders inside at once than its leases. */
  semaphoreOverAdmissions: number;
  /** Lock and lease nodes owned by sessions still open, once every worker had stopped. */
  lockNodesLeftByOpenSessions: number;
  /** Watches held by sessions still open, once every worker had stopped. */
  watchesLeftByOpenSessions: number;
  /** Lock and lease nodes under the chaos root after every client was closed. */
  lockNodesLeftAfterClose: number;
  /** `wchs` total watches over the members after every client was closed. */
  watchesLeftAfterClose: number;
  /** Tracked promises (lock calls, client requests, one-shot watches) never settled. */
  unsettledPromises: number;
  /** Sessions the watchdog caught hanging past their bound. */
  hungSessions: number;
  /** Rejections that were not a ZooKeeperError (the worker process's own included). */
  untypedErrors: number;
  /** Workers still inside the resource at the end, slots that did not stop, a worker process that did not exit cleanly. */
  workersNotStopped: number;
  /** A LeaderLatch leader entered the election's fenced resource while another leader was inside. */
  twoLeadersAtOnce: number;
  /** Stretches with no leader, while a candidate was connected, past the session timeout (plus allowance). */
  leaderlessPastSessionTimeout: number;
  /** CuratorCaches that did not match a fresh read of the server once writes had stopped. */
  cachesDivergedAtQuiescence: number;
  /**
   * Live group members that, once writes had stopped, had no node under the group owned by their client's current
   * session, or whose view of the group (getCurrentMembers) was not the server's children.
   */
  memberMissingAtQuiescence: number;
}

export interface ChaosReport {
  seed: number;
  durationS: number;
  faultPhaseS: number;
  sessions: number;
  sessionTimeoutMs: number;
  tickTime: number;
  server: string;
  /** Client slots of every kind (lock sessions, candidates, caches, group members); each starts with one client. */
  slots: number;
  /** Client objects the slots made: one per slot unless a client ended (closed, auth failed) and was replaced. */
  clientsOpened: number;
  /** Sessions that expired and were renewed by their client (the sum of `sessionRenewals`). */
  sessionsRenewed: number;
  /** Every session: each client's first one plus the renewals. */
  sessionsOpened: number;
  operations: Record<string, OpCounts>;
  failuresByCode: Record<string, number>;
  faults: Record<FaultKind, number>;
  resource: ResourceFigures;
  election: ElectionFigures;
  group: GroupFigures;
  workerProcess: WorkerProcessFigures;
  watchesPerMemberAfterClose: number[];
  hungOperations: number;
  maxEventLoopLagMs: number;
  mustBeZero: MustBeZero;
  ok: boolean;
  notes: { violations: string[]; election: string[]; group: string[]; workerProcess: string[]; hangs: string[]; unsettled: string[]; untyped: string[]; harness: string[] };
  faultTimeline: FaultEvent[];
}

export interface ReportInput {
  options: { seed: number; durationMs: number; sessions: number; sessionTimeoutMs: number; tickTime: number };
  ranForMs: number;
  tracker: OpTracker;
  watchdog: WatchdogFigures;
  resource: ResourceFigures;
  stillInside: number;
  faults: FaultLog;
  slots: number;
  clientsOpened: number;
  sessionsRenewed: number;
  slotsStopped: boolean;
  liveLeft: { nodes: number; watches: number };
  election: ElectionFigures;
  group: GroupFigures;
  workerProcess: WorkerProcessFigures;
  /** The worker process stopped its loops when asked. */
  workerQuiet: boolean;
  afterClose: { nodes: number; watches: number };
  watchesPerMember: number[];
}

export function buildReport(input: ReportInput): ChaosReport {
  const { tracker, resource, watchdog } = input;
  const now = Date.now();
  const operations = Object.fromEntries([...tracker.ops.entries()].sort(([a], [b]) => opOrder(a) - opOrder(b) || a.localeCompare(b)));
  const mustBeZero: MustBeZero = {
    mutualExclusionViolations: resource.exclusionViolations,
    semaphoreOverAdmissions: resource.overAdmissions,
    lockNodesLeftByOpenSessions: input.liveLeft.nodes,
    watchesLeftByOpenSessions: input.liveLeft.watches,
    lockNodesLeftAfterClose: input.afterClose.nodes,
    watchesLeftAfterClose: input.afterClose.watches,
    unsettledPromises: tracker.pending.size,
    hungSessions: watchdog.hungSessions,
    untypedErrors: tracker.untyped + (input.workerProcess.failures['UNTYPED'] ?? 0),
    workersNotStopped: input.stillInside + (input.slotsStopped ? 0 : 1) + (input.workerQuiet && input.workerProcess.exitedCleanly ? 0 : 1),
    twoLeadersAtOnce: input.election.twoLeadersAtOnce,
    leaderlessPastSessionTimeout: input.election.leaderlessPastSessionTimeout,
    cachesDivergedAtQuiescence: input.election.cachesDiverged,
    memberMissingAtQuiescence: input.group.membersMissing,
  };
  return {
    seed: input.options.seed,
    durationS: input.options.durationMs / 1000,
    faultPhaseS: Math.round(input.ranForMs / 100) / 10,
    sessions: input.options.sessions,
    sessionTimeoutMs: input.options.sessionTimeoutMs,
    tickTime: input.options.tickTime,
    server: 'Apache ZooKeeper 3.8.0, 3-member ensemble on loopback, one fault proxy per member',
    slots: input.slots,
    clientsOpened: input.clientsOpened,
    sessionsRenewed: input.sessionsRenewed,
    sessionsOpened: input.clientsOpened + input.sessionsRenewed,
    operations,
    failuresByCode: tracker.failuresByCode(),
    faults: input.faults.injected,
    resource,
    election: input.election,
    group: input.group,
    workerProcess: input.workerProcess,
    watchesPerMemberAfterClose: input.watchesPerMember,
    hungOperations: watchdog.hungOperations,
    maxEventLoopLagMs: watchdog.maxEventLoopLagMs,
    mustBeZero,
    ok: Object.values(mustBeZero).every((v) => v === 0),
    notes: {
      violations: resource.violationNotes,
      election: input.election.notes,
      group: input.group.notes,
      workerProcess: input.workerProcess.notes,
      hangs: watchdog.notes,
      unsettled: [...tracker.pending.values()].slice(0, 10).map((p) => `${p.session}: ${p.op} pending for ${now - p.startedAt} ms`),
      untyped: tracker.untypedNotes,
      harness: input.faults.errors,
    },
    faultTimeline: input.faults.timeline,
  };
}

/** Lock calls first, then sessions, then the client requests underneath. */
function opOrder(op: string): number {
  if (op.startsWith('acquire')) return 0;
  if (op === 'release' || op === 'guarded write') return 1;
  if (op === 'connect' || op === 'close' || op === 'latch close' || op === 'member close') return 2;
  return 3;
}

export function renderReport(r: ChaosReport): string {
  const lines: string[] = [];
  lines.push(`zkwire chaos run — seed ${r.seed}, ${r.durationS} s of faults (${r.faultPhaseS} s with the last episode), ${r.sessions} session slots`);
  lines.push(`${r.server}; session timeout ${r.sessionTimeoutMs} ms, tickTime ${r.tickTime} ms`);
  lines.push(`sessions ${r.sessionsOpened}: ${r.clientsOpened} clients' first sessions and ${r.sessionsRenewed} renewed after an expiry; worst event-loop lag ${r.maxEventLoopLagMs} ms`);
  lines.push('');
  lines.push(table(['operation', 'attempted', 'completed', 'failed', 'failed by code'], Object.entries(r.operations).map(([op, c]) => {
    const failed = Object.values(c.failed).reduce((a, b) => a + b, 0);
    const codes = Object.entries(c.failed).sort(([, a], [, b]) => b - a).map(([code, n]) => `${code} ${n}`).join(', ');
    return [op, String(c.attempted), String(c.completed), String(failed), codes || '-'];
  })));
  lines.push('');
  lines.push(table(['fault', 'injected'], Object.entries(r.faults).map(([k, n]) => [k, String(n)])));
  lines.push('');
  const res = r.resource;
  lines.push(table(['fenced resource', 'count'], [
    ['critical sections entered', String(res.entries)],
    ['writes accepted', String(res.writes)],
    ['stale holders refused at entry', String(res.staleEntriesRefused)],
    ['stale writes refused', String(res.staleWritesRefused)],
    ['leases lost before entry', String(res.lostBeforeEntry)],
    ['most semaphore holders at once', `${res.maxSemaphoreHolders}`],
  ]));
  lines.push('');
  const el = r.election;
  lines.push(table(['leader election and caches', 'count'], [
    ['leaderships taken', String(el.leaderships)],
    ['longest leaderless stretch with a candidate connected (ms)', String(el.maxLeaderlessWhileConnectedMs)],
    ['caches compared at quiescence', String(el.cachesCompared)],
    ['group members checked at quiescence', String(r.group.membersChecked)],
  ]));
  lines.push('');
  const wp = r.workerProcess;
  const wpFailures = Object.entries(wp.failures).sort(([, a], [, b]) => b - a).map(([code, n]) => `${code} ${n}`).join(', ');
  lines.push(table(['worker process (member, candidate, cache, mutex loop)', 'count'], [
    ['paused (SIGSTOP past its session timeout)', String(wp.pauses)],
    ['sessions renewed', String(wp.renewals)],
    ['locks taken', String(wp.locks)],
    ['leaderships taken', String(wp.leaderships)],
    ['failures by code', wpFailures || '-'],
  ]));
  lines.push('');
  lines.push(table(['must be 0', 'value'], Object.entries(r.mustBeZero).map(([k, v]) => [label(k), String(v)])));
  lines.push('');
  for (const [what, notes] of Object.entries(r.notes)) {
    if (notes.length === 0) continue;
    lines.push(`${what}:`);
    for (const note of notes) lines.push(`  - ${note}`);
  }
  lines.push(r.ok ? 'RESULT: every must-be-0 figure is 0' : 'RESULT: FAILED — a must-be-0 figure is not 0');
  return `${lines.join('\n')}\n`;
}

function label(key: string): string {
  return key.replace(/([A-Z])/g, ' $1').toLowerCase();
}

function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}
