/**
 * `zkwire bench lock --vs curator` against a real ZooKeeper and real Curator: the built CLI in its own process (as
 * users run it, and so a signal can stop it), short rounds. What is checked is the report's shape and consistency —
 * every workload row, positive ratios, the JSON holding the table's figures, nothing left behind — never how fast
 * either side is.
 */

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZooKeeperClient } from '../../src/node.js';
import { parseMntr } from '../../src/protocol/index.js';
import { CuratorPeerError } from '../../src/tools/bench/curator-error.js';
import { curatorClasspath, CURATOR_JARS } from '../../src/tools/bench/curator-classpath.js';
import { curatorRound, prepareCurator } from '../../src/tools/bench/curator-round.js';
import { fmtRate, fmtUs } from '../../src/tools/shared/table.js';
import type { VsCuratorReport } from '../../src/tools/bench/vs-curator.js';
import { VS_FIGURES } from '../../src/tools/bench/vs-figures.js';
import { startZooKeeper, type ZkServer } from '../harness/zookeeper.js';
import { zkwire } from './cli-io.js';
import { alive, runCliProcess as run } from './cli-process.js';

/** Four workloads, two sides and a warm-up, each a JVM start: far longer than a unit test. */
const RUN_TIMEOUT_MS = 180_000;

let server: ZkServer;
let dir: string;
beforeAll(async () => {
  server = await startZooKeeper();
  dir = mkdtempSync(join(tmpdir(), 'zkwire-vs-test-'));
});
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** The table's rows as cells, keyed by figure. */
function tableRows(stdout: string): Map<string, string[]> {
  const rows = new Map<string, string[]>();
  for (const line of stdout.split('\n')) {
    if (!line.startsWith('| ') || line.startsWith('| figure') || line.startsWith('| -')) continue;
    const cells = line
      .slice(2, -2)
      .split(' | ')
      .map((c) => c.trim());
    rows.set(cells[0]!, cells.slice(1));
  }
  return rows;
}

/** What the server still holds: the bench root's children and the ephemeral count. */
async function leftovers(): Promise<{ bench: string[]; ephemerals: number }> {
  await using zk = await ZooKeeperClient.connect(server.connectString);
  const bench = await zk.getChildren('/zkwire-bench').catch(() => [] as string[]);
  const mntr = parseMntr(await server.fourLetter('mntr'));
  return { bench, ephemerals: Number(mntr['zk_ephemerals_count']) };
}

describe('bench lock --vs curator on a real server', () => {
  it('prints every workload row with positive ratios, writes the same figures as JSON, leaves nothing', { timeout: RUN_TIMEOUT_MS }, async () => {
    const json = join(dir, 'vs.json');
    const p = run(['bench', 'lock', '--vs', 'curator', '--server', server.connectString, '--rounds', '1', '--duration', '0.5', '--json', json]);
    const r = await p.exit;
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^zkwire vs Apache Curator, one ZooKeeper \S+ at /);
    expect(r.stdout).not.toContain('INTERRUPTED');
    const rows = tableRows(r.stdout);
    expect([...rows.keys()]).toEqual(VS_FIGURES.map((f) => f.figure));
    const report = JSON.parse(readFileSync(json, 'utf8')) as VsCuratorReport;
    expect(report.interrupted).toBe(false);
    expect(report.settings).toMatchObject({ rounds: 1, seconds: 0.5, sessions: 4, semaphoreLeases: 3 });
    for (const side of ['zkwire', 'curator'] as const) {
      for (const [workload, rounds] of Object.entries(report.rounds[side])) {
        expect(rounds, `${side} ${workload}`).toHaveLength(1);
        expect(rounds[0]!.acquisitions, `${side} ${workload}`).toBeGreaterThan(0);
        expect(rounds[0]!.cycle.count, `${side} ${workload}`).toBe(rounds[0]!.acquisitions);
      }
      // a lone session never hands off; four contending sessions do
      expect(report.rounds[side].uncontended[0]!.handoff.count, side).toBe(0);
      expect(report.rounds[side].contended[0]!.handoff.count, side).toBeGreaterThan(0);
    }
    for (const f of report.figures) {
      const [z, c, ratio] = rows.get(f.figure)!;
      expect(f.zkwire, f.figure).toBeGreaterThan(0);
      expect(f.curator, f.figure).toBeGreaterThan(0);
      expect(f.ratio, f.figure).toBeCloseTo(f.zkwire! / f.curator!, 2);
      const fmt = f.unit === 'us' ? fmtUs : fmtRate;
      expect([z, c], f.figure).toEqual([fmt(f.zkwire!), fmt(f.curator!)]);
      expect(ratio, f.figure).toMatch(/^\d+\.\d\d×$/);
      expect(Number(ratio!.slice(0, -1)), f.figure).toBeGreaterThan(0);
      expect(ratio).toBe(`${f.ratio!.toFixed(2)}×`);
    }
    expect(r.stderr).toContain(`figures written to ${json}`);
    expect(await leftovers()).toEqual({ bench: [], ephemerals: 0 });
  });

  it('SIGINT during a Curator round: the JVMs gone, the partial table, exit 130, nothing left on the server', { timeout: RUN_TIMEOUT_MS }, async () => {
    const p = run(['bench', 'lock', '--vs', 'curator', '--server', server.connectString, '--rounds', '1', '--duration', '2']);
    await p.until(/uncontended round 1 Curator/);
    // the contended round's Curator sessions hold and queue on the lock: there are Curator nodes to clean up
    await curatorNodesAppear();
    p.child.kill('SIGINT');
    const r = await p.exit;
    // warm-up, uncontended, contended
    const pids = [...r.stderr.matchAll(/Curator JVM started \(pid (\d+)\)/g)].map((m) => Number(m[1]));
    expect(pids).toHaveLength(3);
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toContain('SIGINT: stopping');
    expect(r.stdout).toContain('INTERRUPTED: partial figures');
    const rows = tableRows(r.stdout);
    expect([...rows.keys()]).toEqual(VS_FIGURES.map((f) => f.figure));
    // the uncontended rounds finished on both sides before the signal
    expect(rows.get('uncontended acquire p50')![2]).toMatch(/^\d+\.\d\d×$/);
    for (const pid of pids) expect(alive(pid), `JVM ${pid}`).toBe(false);
    expect(await leftovers()).toEqual({ bench: [], ephemerals: 0 });
  });
});

/**
 * Resolves once a `curator-contended-*` lock directory of the run holds lock nodes. Called after the warm-up (whose
 * Curator round also locks a `curator-contended-*` path) has released everything, so only the measured round counts.
 */
async function curatorNodesAppear(): Promise<void> {
  await using zk = await ZooKeeperClient.connect(server.connectString);
  for (;;) {
    for (const root of await zk.getChildren('/zkwire-bench').catch(() => [] as string[])) {
      for (const lock of await zk.getChildren(`/zkwire-bench/${root}`).catch(() => [] as string[])) {
        if (!lock.startsWith('curator-contended-')) continue;
        if ((await zk.getChildren(`/zkwire-bench/${root}/${lock}`).catch(() => [] as string[])).length > 0) return;
      }
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('bench lock --vs curator failures', () => {
  it('--vs anything but curator is a usage error, exit 2', async () => {
    const r = await zkwire('bench', 'lock', '--vs', 'nope');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^zkwire bench: --vs compares with curator only, got nope\n/);
  });

  it.each([
    [['bench', 'raw', '--vs', 'curator'], '--vs goes with bench lock'],
    [['bench', 'lock', '--vs', 'curator', '--clients', '2'], '--clients does not apply to --vs curator'],
    [['bench', 'lock', '--curator-classpath', '/x.jar'], '--curator-classpath goes with --vs curator'],
  ])('%j is a usage error, exit 2', async (args, message) => {
    const r = await zkwire(...args);
    expect(r.code).toBe(2);
    expect(r.err).toContain(message);
  });

  it('a --curator-classpath naming missing jars: exit 1, one line saying what to pass or install, no server started', async () => {
    const r = await zkwire('bench', 'lock', '--vs', 'curator', '--curator-classpath', '/nonexistent/curator-recipes.jar');
    expect(r.code).toBe(1);
    expect(r.out).toBe('');
    expect(r.err.split('\n')).toHaveLength(2); // one line and its newline
    expect(r.err).toMatch(/^zkwire bench lock --vs curator: NO_CURATOR: Curator jars not found: --curator-classpath names missing \/nonexistent\/curator-recipes.jar;/);
    expect(r.err).toContain('apt-get install libcurator-recipes-java');
  });

  it('--json reports the failure with its code', async () => {
    const r = await zkwire('--json', 'bench', 'lock', '--vs', 'curator', '--curator-classpath', '/nonexistent/curator-recipes.jar');
    expect(r.code).toBe(1);
    expect(JSON.parse(r.err)).toMatchObject({ error: { code: 'NO_CURATOR' } });
  });

  it('no Curator jars in the Debian directory and no CURATOR_CLASSPATH: NO_CURATOR naming every missing jar', () => {
    const empty = mkdtempSync(join(dir, 'java-'));
    const e = (() => {
      try {
        curatorClasspath({ env: {}, javaDir: empty });
      } catch (err) {
        return err;
      }
      return undefined;
    })();
    expect(e).toBeInstanceOf(CuratorPeerError);
    expect((e as CuratorPeerError).code).toBe('NO_CURATOR');
    for (const jar of CURATOR_JARS) expect((e as Error).message).toContain(jar);
    expect((e as Error).message).toContain('--curator-classpath');
    // CURATOR_CLASSPATH wins over the directory; an explicit class path wins over both
    expect(curatorClasspath({ env: { CURATOR_CLASSPATH: '/usr/share/java/zookeeper.jar' }, javaDir: empty })).toBe('/usr/share/java/zookeeper.jar');
    expect(() => curatorClasspath({ explicit: '/nope.jar', env: { CURATOR_CLASSPATH: '/usr/share/java/zookeeper.jar' } })).toThrow(/--curator-classpath names missing \/nope.jar/);
  });

  it('a class path without Curator: javac fails, exit 1, JAVAC_FAILED with the compiler’s first error', { timeout: 60_000 }, async () => {
    const r = await zkwire('bench', 'lock', '--vs', 'curator', '--curator-classpath', '/usr/share/java/zookeeper.jar');
    expect(r.code).toBe(1);
    expect(r.err.split('\n')).toHaveLength(2);
    expect(r.err).toMatch(/^zkwire bench lock --vs curator: JAVAC_FAILED: javac could not compile CuratorLockBench against \/usr\/share\/java\/zookeeper.jar: .*org\.apache\.curator/);
  });

  it('the Curator program failing: CURATOR_FAILED with its exception', { timeout: 60_000 }, async () => {
    const program = prepareCurator();
    const round = curatorRound(program, { connectString: server.connectString, workload: 'uncontended', seconds: 0.1, lockPath: 'no-leading-slash' });
    await expect(round).rejects.toMatchObject({ code: 'CURATOR_FAILED', message: expect.stringMatching(/uncontended.*exited with code 1: .*IllegalArgumentException/) });
  });
});
