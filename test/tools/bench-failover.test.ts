/**
 * Failover runs of bench lock on a real 3-member ensemble (one per file, tickTime 500 so elections and pauses take
 * seconds, not tens of them): a killed leader, a paused one, a fault an operator causes and marks with SIGUSR2, and
 * `bench lock --ensemble 3` stopped by a signal. Bounds come from each run's own configuration, never from timings.
 */

import { existsSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BenchEnsemble } from '../../src/tools/bench/failover/bench-ensemble.js';
import type { FailoverReport } from '../../src/tools/bench/failover/report.js';
import { runLockBenchWithFaults } from '../../src/tools/bench/failover/run-with-faults.js';
import type { LockReport } from '../../src/tools/bench/lock-bench.js';
import { renderLockReport } from '../../src/tools/bench/lock-render.js';
import { renderLockSvg } from '../../src/tools/bench/svg.js';
import { startEnsemble, type ZkEnsemble } from '../harness/zookeeper.js';
import { checkXml } from './bench-xml.js';
import { alive, runCliProcess } from './cli-process.js';

const TICK_MS = 500;
const SESSION_TIMEOUT_MS = 4000;

let ensemble: ZkEnsemble;

/**
 * Brings a killed member back and waits for the election to settle, so a test starts from three. Run before each
 * test rather than after: the last fault of the file is then never repaired only to be closed.
 */
async function heal(): Promise<void> {
  for (const [i, m] of ensemble.servers.entries()) if (!m.running) await ensemble.restart(i);
  await ensemble.leaderIndex();
}

/**
 * The safety and the window of a run with one fault: exclusion and fencing held, and the window greater than
 * zero and less than the session timeout plus an election on this configuration.
 */
function expectSafeWindow(r: LockReport): FailoverReport {
  expect(r.overlaps).toBe(0);
  expect(r.fencingViolations).toBe(0);
  const f = r.failover!;
  expect(f.exclusionHeld && f.fencingHeld).toBe(true);
  expect(f.faults).toHaveLength(1);
  const conf = r.server.settings;
  const bound = f.sessionTimeoutMs.negotiated + (Number(conf['initLimit']) + Number(conf['syncLimit'])) * Number(conf['tickTime']);
  expect(Number(conf['tickTime'])).toBe(TICK_MS);
  expect(f.boundMs).toBe(bound);
  const w = f.faults[0]!.window;
  expect(w.windowMs, JSON.stringify(f.faults[0])).not.toBeNull();
  expect(w.windowMs!).toBeGreaterThan(0);
  expect(w.windowMs!).toBeLessThan(bound);
  expect(w.stallFromMs!).toBeLessThanOrEqual(f.faults[0]!.atMs + w.windowMs!);
  for (const s of f.faults[0]!.perSession) {
    expect(s.windowMs, `session ${s.session}`).not.toBeNull();
    expect(s.windowMs!).toBeLessThan(bound);
  }
  expect(f.faults[0]!.fencing.increasing).toBe(true);
  // Every acquisition is on the timeline, and the per-session counts add up.
  expect(r.timeline.counts.reduce((a, b) => a + b, 0)).toBe(r.acquisitions);
  expect(r.perClient.reduce((a, b) => a + b, 0)).toBe(r.acquisitions);
  return f;
}

describe('bench lock through a leader failure, on a real ensemble', () => {
  // This describe's own: closed before the interrupted runs below start ensembles of their own.
  beforeAll(async () => {
    ensemble = await startEnsemble(3, { tickTime: TICK_MS });
  });
  afterAll(async () => {
    await ensemble?.close();
  });
  beforeEach(heal);

  it('--kill-leader: a window under the session timeout plus an election, exclusion and fencing held', async () => {
    const leader = await ensemble.leaderIndex();
    const pid = ensemble.servers[leader]!.pid;
    await using bench = await BenchEnsemble.around(ensemble, false);
    const r = await runLockBenchWithFaults({
      connectString: bench.connectString,
      ensemble: bench,
      faults: [{ kind: 'kill-leader', atMs: 1000 }],
      clients: 4,
      durationS: 3,
      floorSamples: 10,
      sessionTimeoutMs: SESSION_TIMEOUT_MS,
    });
    const f = expectSafeWindow(r);
    const fault = f.faults[0]!;
    expect(fault).toMatchObject({ kind: 'kill-leader', member: leader, pid, endedAtMs: null });
    expect(ensemble.servers[leader]!.running).toBe(false);
    // The token that ended the stall is the czxid of a lock node that may have been queued before the kill (in the
    // old epoch): what must hold is that it is later than every token before it.
    expect(BigInt(fault.fencing.after!)).toBeGreaterThan(BigInt(fault.fencing.before!));
    expect(f.ensemble).toMatchObject({ size: 3, proxied: false });
    expect(f.sessionTimeoutMs.asked).toBe(SESSION_TIMEOUT_MS);
    // The fault is marked in the text (its section and the row under the sparklines) and as a line in the SVG.
    const text = renderLockReport(r);
    expect(text).toContain(`fault: kill-leader at ${(fault.atMs / 1000).toFixed(2)} s`);
    expect(text).toMatch(/\n {2}faults +[ ▲]+ {2}▲ kill-leader/);
    const svg = renderLockSvg(r);
    expect(checkXml(svg).problems).toStrictEqual([]);
    expect(svg).toContain(`>kill-leader, unavailable `);
  });

  it('--pause-leader AT:FOR: the member is stopped, then continued; the window closes and nothing overlaps', async () => {
    const leader = await ensemble.leaderIndex();
    await using bench = await BenchEnsemble.around(ensemble, false);
    const r = await runLockBenchWithFaults({
      connectString: bench.connectString,
      ensemble: bench,
      faults: [{ kind: 'pause-leader', atMs: 800, forMs: 800 }],
      clients: 3,
      durationS: 3,
      holdMs: 1,
      floorSamples: 10,
      sessionTimeoutMs: SESSION_TIMEOUT_MS,
    });
    const fault = expectSafeWindow(r).faults[0]!;
    expect(fault).toMatchObject({ kind: 'pause-leader', member: leader });
    expect(fault.endedAtMs!).toBeGreaterThan(fault.atMs);
    expect(ensemble.servers[leader]!.paused).toBe(false);
  });

  it('on a user’s own ensemble: SIGUSR2 marks the fault they cause, and the same report comes out', async () => {
    const p = runCliProcess(['bench', 'lock', '--server', ensemble.connectString, '--session-timeout', String(SESSION_TIMEOUT_MS), '--clients', '3', '--duration', '3', '--floor-samples', '10', '--json']);
    await p.until(new RegExp(`kill -USR2 ${p.child.pid}`));
    await p.until(/ [1-9]\d* acquisitions /);
    const leader = await ensemble.leaderIndex();
    p.child.kill('SIGUSR2');
    await p.until(/fault marked \(SIGUSR2 #1\)/);
    await ensemble.kill(leader);
    const out = await p.exit;
    expect(out.code, out.stderr).toBe(0);
    const r = JSON.parse(out.stdout) as LockReport;
    const f = expectSafeWindow(r);
    expect(f.faults[0]).toMatchObject({ kind: 'mark', label: 'SIGUSR2', member: null, pid: null });
    expect(f.ensemble).toBeNull();
  });
});

describe('bench lock --ensemble 3 interrupted', () => {
  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)('%s after the leader was killed: exit %i, its JVMs gone, its directory removed', async (sig, code) => {
    const p = runCliProcess(['bench', 'lock', '--ensemble', '3', '--tick-time', String(TICK_MS), '--kill-leader', '500ms', '--clients', '2', '--duration', '600', '--floor-samples', '10']);
    await p.until(/ensemble: .*; directory \S+/);
    await p.until(/fault at 0\.50 s: SIGKILL/);
    p.child.kill(sig);
    const r = await p.exit;
    expect(r.code, r.stderr).toBe(code);
    const line = /ensemble: (.*); directory (\S+)/.exec(r.stderr)!;
    const pids = [...line[1]!.matchAll(/pid (\d+)/g)].map((m) => Number(m[1]));
    expect(pids).toHaveLength(3);
    for (const pid of pids) expect(alive(pid), `JVM ${pid}`).toBe(false);
    expect(existsSync(line[2]!)).toBe(false);
    expect(r.stdout).toContain('INTERRUPTED: partial figures');
    expect(r.stdout).toMatch(/fault: kill-leader at 0\.5\d s/);
    expect(r.stdout).toContain('mutual exclusion held, fencing held');
  });
});
