/**
 * bench lock --processes and bench worker against a real server of this file's own (so "nothing left" can be checked
 * server-wide): the built CLI in processes of its own, as users run it. Counts and structure only, no timing.
 */

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZooKeeperClient } from '../../src/node.js';
import { parseMntr } from '../../src/protocol/index.js';
import type { LockReport } from '../../src/tools/bench/lock-bench.js';
import { startZooKeeper, type ZkServer } from '../harness/zookeeper.js';
import { zkwire } from './cli-io.js';
import { alive, runCliProcess as run } from './cli-process.js';

let server: ZkServer;
let dir: string;
beforeAll(async () => {
  server = await startZooKeeper();
  dir = mkdtempSync(join(tmpdir(), 'zkwire-bench-processes-'));
});
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** The bench's znodes left on the server, and its ephemeral count, once the ephemerals of dead sessions have gone. */
async function leftovers(): Promise<{ bench: string[]; ephemerals: number }> {
  await using zk = await ZooKeeperClient.connect(server.connectString);
  const bench = await zk.getChildren('/zkwire-bench').catch(() => [] as string[]);
  // a killed worker's sessions end by expiry: wait for that condition (the count only falls), not for a time
  for (;;) {
    const ephemerals = Number(parseMntr(await server.fourLetter('mntr'))['zk_ephemerals_count']);
    if (ephemerals === 0) return { bench, ephemerals };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The pids the coordinator says it started (from its stderr, kept by runTracked). */
async function workerPids(p: ReturnType<typeof run>): Promise<number[]> {
  const re = /started \d+ worker process\(es\): pid ([\d, ]+)\n/;
  await p.until(re);
  return re.exec(stderrSoFar.get(p) ?? '')![1]!.split(', ').map(Number);
}

const stderrSoFar = new WeakMap<ReturnType<typeof run>, string>();

/** runCliProcess, keeping its stderr for workerPids. */
function runTracked(args: readonly string[]): ReturnType<typeof run> {
  const p = run(args);
  let text = '';
  p.child.stderr!.on('data', (d: Buffer) => stderrSoFar.set(p, (text += d.toString())));
  return p;
}

const S = (): string[] => ['--server', server.connectString];

describe('bench lock --processes', () => {
  it('two local processes merge into one report whose counts add up', async () => {
    const json = join(dir, 'two.json');
    const r = await run(['bench', 'lock', ...S(), '--processes', '2', '--clients', '4', '--duration', '1', '--floor-samples', '20', '--json', json]).exit;
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(readFileSync(json, 'utf8')) as LockReport;
    const p = report.processes!;
    expect(p.workers).toHaveLength(2);
    expect(p.workers.map((w) => w.status)).toStrictEqual(['finished', 'finished']);
    expect(p.workers.map((w) => w.sessions)).toStrictEqual([2, 2]);
    expect(p.lost).toBe(0);
    expect(report.acquisitions).toBeGreaterThan(0);
    expect(report.acquisitions).toBe(p.workers.reduce((n, w) => n + w.acquisitions, 0));
    expect(report.perClient).toHaveLength(4);
    expect(report.perClient.reduce((a, b) => a + b, 0)).toBe(report.acquisitions);
    for (const key of ['acquire', 'release', 'cycle'] as const) expect(report[key].count, key).toBe(report.acquisitions);
    expect(report.timeline.counts.reduce((a, b) => a + b, 0)).toBe(report.acquisitions);
    expect(report.histogram.acquire.reduce((a, b) => a + b.count, 0)).toBe(report.acquisitions);
    // every mutex holder wrote its fencing token, none saw another holder
    expect(p.fencing).toStrictEqual({ writes: report.acquisitions, versionConflicts: 0, tokensBackwards: 0 });
    expect([report.overlaps, report.fencingViolations]).toStrictEqual([0, 0]);
    expect(report.floor.create.count).toBe(20);
    expect(report.ratios.acquireToCreate).toBeGreaterThan(0);
    expect(r.stdout).toMatch(/processes: 2 workers \(2 local, 0 remote\)/);
    expect(r.stdout).toMatch(/fencing across processes: \d+ tokens written with the lock held; 0 version conflicts, 0 tokens backwards \(ok\)/);
    expect(await leftovers()).toStrictEqual({ bench: [], ephemerals: 0 });
  });

  it('a worker killed mid-run (SIGKILL) is reported lost; the run finishes with the other and its znodes go', async () => {
    const json = join(dir, 'killed.json');
    const p = runTracked(['bench', 'lock', ...S(), '--session-timeout', '4000', '--processes', '2', '--clients', '2', '--duration', '2', '--floor-samples', '10', '--json', json]);
    const pids = await workerPids(p);
    await p.until(/all 2 workers through the barrier/);
    process.kill(pids[0]!, 'SIGKILL');
    const r = await p.exit;
    expect(r.code, r.stderr).toBe(1); // a lost worker fails the run's exit status, not its report
    expect(r.stderr).toMatch(/w-\d+ LOST: its node is gone and it wrote no result/);
    const report = JSON.parse(readFileSync(json, 'utf8')) as LockReport;
    const w = report.processes!.workers;
    expect(report.processes!.lost).toBe(1);
    expect(w.map((x) => x.status).sort()).toStrictEqual(['finished', 'lost']);
    const lost = w.find((x) => x.status === 'lost')!;
    expect(lost.pid).toBe(pids[0]);
    expect(lost.failure).toContain('SIGKILL');
    expect(report.acquisitions).toBe(w.find((x) => x.status === 'finished')!.acquisitions);
    expect(report.perClient).toHaveLength(1);
    expect(r.stdout).toMatch(/1 LOST/);
    expect(await leftovers()).toStrictEqual({ bench: [], ephemerals: 0 });
  });

  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)('the coordinator on %s: exit %i, its workers stopped, no znode left', async (sig, code) => {
    const p = runTracked(['bench', 'lock', ...S(), '--processes', '2', '--clients', '2', '--duration', '600', '--floor-samples', '10']);
    const pids = await workerPids(p);
    await p.until(/all 2 workers through the barrier/);
    p.child.kill(sig);
    const r = await p.exit;
    expect(r.code, r.stderr).toBe(code);
    expect(r.stderr).toMatch(/worker process\(es\) to stop/);
    expect(r.stderr).toContain('interrupted: no report');
    for (const pid of pids) expect(alive(pid), `worker ${pid}`).toBe(false);
    expect(await leftovers()).toStrictEqual({ bench: [], ephemerals: 0 });
  });

  it('a remote-style worker (bench worker --run ID, started on its own) joins a coordinator run', async () => {
    const id = `joined-${process.pid}`;
    // started first: it waits for the run to appear
    const worker = run(['bench', 'worker', ...S(), '--run', id]);
    const json = join(dir, 'joined.json');
    const coordinator = run(['bench', 'lock', ...S(), '--processes', '1', '--remote', '1', '--run', id, '--clients', '3', '--iterations', '60', '--floor-samples', '10', '--json', json]);
    const [c, w] = await Promise.all([coordinator.exit, worker.exit]);
    expect(c.code, c.stderr).toBe(0);
    expect(w.code, w.stderr).toBe(0);
    expect(w.stderr).toMatch(/w-\d+ done: \d+ acquisitions on [12] session\(s\)/);
    const report = JSON.parse(readFileSync(json, 'utf8')) as LockReport;
    expect(report.processes).toMatchObject({ run: id, local: 1, remote: 1, lost: 0 });
    expect(report.processes!.workers.map((x) => x.sessions).sort()).toStrictEqual([1, 2]);
    expect(report.acquisitions).toBe(60);
    expect(report.perClient.reduce((a, b) => a + b, 0)).toBe(60);
    expect(await leftovers()).toStrictEqual({ bench: [], ephemerals: 0 });
  });

  it('a worker that never arrives: the coordinator fails with WORKERS_MISSING after --join-timeout, nothing left', async () => {
    const r = await run(['bench', 'lock', ...S(), '--processes', '1', '--remote', '1', '--join-timeout', '3', '--clients', '2', '--duration', '1', '--floor-samples', '10']).exit;
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/WORKERS_MISSING: [01] of 2 workers arrived at the barrier within 3 s; the missing ones join with: zkwire bench worker --server S --run /);
    expect(await leftovers()).toStrictEqual({ bench: [], ephemerals: 0 });
  });

  it('bench worker on SIGTERM at the barrier: exit 143, its node removed; the coordinator on SIGINT then leaves nothing', async () => {
    const id = `stopped-${process.pid}`;
    // two remote workers asked for, one started: it stays at the barrier until stopped
    const coordinator = run(['bench', 'lock', ...S(), '--remote', '2', '--run', id, '--join-timeout', '60', '--clients', '2', '--duration', '1', '--floor-samples', '10']);
    const worker = run(['bench', 'worker', ...S(), '--run', id]);
    await worker.until(/waiting at the barrier/);
    worker.child.kill('SIGTERM');
    const w = await worker.exit;
    expect(w.code, w.stderr).toBe(143);
    expect(w.stderr).toMatch(/interrupted: no result written, w-\d+ removed/);
    {
      await using zk = await ZooKeeperClient.connect(server.connectString);
      expect(await zk.getChildren(`/zkwire-bench/run-${id}/workers`)).toStrictEqual([]);
    }
    coordinator.child.kill('SIGINT');
    const c = await coordinator.exit;
    expect(c.code, c.stderr).toBe(130);
    expect(await leftovers()).toStrictEqual({ bench: [], ephemerals: 0 });
  });

  // In-process (runCli, what main.ts calls): the exit status is runCli's, and no process boundary is involved.
  it('usage errors exit 2', async () => {
    for (const args of [
      ['bench', 'worker', ...S()],
      ['bench', 'lock', '--processes', '0'],
      ['bench', 'lock', '--run', 'x'],
      ['bench', 'lock', '--processes', '2', '--run', 'no/slash'],
      ['bench', 'raw', '--processes', '2'],
      ['bench', 'lock', '--vs', 'curator', '--processes', '2'],
    ]) {
      const r = await zkwire(...args);
      expect(r.code, `${args.join(' ')}: ${r.err}`).toBe(2);
    }
  });
});
