/**
 * bench/peers: zkwire's lock recipes and Apache Curator 5.4's, side by side, against the same ZooKeeper server in
 * the same run. Each workload runs in interleaved rounds (zkwire, Curator, Curator, zkwire, …) so drift on a shared
 * machine hits both; the table gives the median of the rounds for each figure and the ratio zkwire / Curator.
 *
 * The Curator side is bench/curator/CuratorLockBench.java, compiled at run time against the Curator jars the
 * interop tests use, doing the same work: every session its own ZooKeeper session, looping acquire → release with
 * no hold, the hand-off timed from a holder's release() call to the acquire of a session already waiting.
 *
 *   npm run bench:peers -- [--server HOST:PORT] [--rounds N] [--seconds S] [--json FILE]
 */

import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ZooKeeperClient } from '../src/node.js';
import { InterProcessMutex, InterProcessReadWriteLock, InterProcessSemaphoreV2, type Lease } from '../src/recipes/index.js';
import { LatencyRecorder } from '../src/tools/bench/recorder.js';
import { fmtRate, fmtUs, renderTable } from '../src/tools/bench/table.js';
import { withServer } from '../src/tools/local-server/index.js';
import { curatorClasspath } from '../test/interop/curator-peer.js';

type Workload = 'uncontended' | 'contended' | 'read-write' | 'semaphore';
const WORKLOADS: readonly Workload[] = ['uncontended', 'contended', 'read-write', 'semaphore'];
const SEMAPHORE_LEASES = 3;

interface Percentiles {
  count: number;
  p50: number;
  p99: number;
}

interface RoundFigures {
  acquisitions: number;
  elapsedMs: number;
  acquire: Percentiles;
  cycle: Percentiles;
  handoff: Percentiles;
}

const JAVA_SOURCE = fileURLToPath(new URL('../../bench/curator/CuratorLockBench.java', import.meta.url));

/** Compiles the Curator program once per source and classpath, into the system temp directory. */
function compileCuratorBench(): string {
  const classpath = curatorClasspath();
  const hash = createHash('sha256').update(fs.readFileSync(JAVA_SOURCE)).update(classpath).digest('hex').slice(0, 16);
  const target = path.join(os.tmpdir(), `zkwire-curator-bench-${hash}`);
  if (!fs.existsSync(path.join(target, 'CuratorLockBench.class'))) {
    const staging = fs.mkdtempSync(path.join(os.tmpdir(), 'zkwire-curator-bench-build-'));
    const result = spawnSync('javac', ['-nowarn', '-cp', classpath, '-d', staging, JAVA_SOURCE], { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`javac failed for ${JAVA_SOURCE}:\n${result.stdout}${result.stderr}`);
    fs.renameSync(staging, target);
  }
  return target;
}

function curatorRound(classes: string, connectString: string, workload: Workload, seconds: number, lockPath: string): Promise<RoundFigures> {
  return new Promise((resolve, reject) => {
    const args = ['-cp', [classes, curatorClasspath()].join(path.delimiter), 'CuratorLockBench', connectString, workload, String(seconds), lockPath];
    const child = spawn('java', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
    child.once('error', reject);
    child.once('exit', (code) => {
      const line = out.trim().split('\n').pop() ?? '';
      if (code !== 0 || !line.startsWith('{')) reject(new Error(`Curator bench ${workload} exited ${code}:\n${out}${err}`));
      else resolve(JSON.parse(line) as RoundFigures);
    });
  });
}

function percentiles(r: LatencyRecorder): Percentiles {
  const s = r.summary();
  return { count: s.count, p50: s.p50, p99: s.p99 };
}

/** The zkwire side: the same sessions, locks and loop as CuratorLockBench.java. */
async function zkwireRound(connectString: string, workload: Workload, seconds: number, lockPath: string): Promise<RoundFigures> {
  const sessions = workload === 'uncontended' ? 1 : 4;
  const clients = await Promise.all(Array.from({ length: sessions }, () => ZooKeeperClient.connect(connectString, { sessionTimeoutMs: 30_000 })));
  try {
    const acquirers = clients.map((client, i): (() => Promise<Lease>) => {
      switch (workload) {
        case 'uncontended':
        case 'contended': {
          const m = new InterProcessMutex(client, lockPath);
          return () => m.acquire();
        }
        case 'read-write': {
          const rw = new InterProcessReadWriteLock(client, lockPath);
          const half = i === 3 ? rw.writeLock : rw.readLock;
          return () => half.acquire();
        }
        case 'semaphore': {
          const s = new InterProcessSemaphoreV2(client, lockPath, SEMAPHORE_LEASES);
          return () => s.acquireOne();
        }
      }
    });
    for (const acquire of acquirers) await (await acquire()).release();
    const acquire = new LatencyRecorder();
    const cycle = new LatencyRecorder();
    const handoff = new LatencyRecorder();
    let acquisitions = 0;
    let lastRelease: { at: number; by: number } | undefined;
    const start = performance.now();
    const end = start + seconds * 1000;
    await Promise.all(
      acquirers.map(async (take, me) => {
        while (performance.now() < end) {
          const t0 = performance.now();
          const lease = await take();
          const t1 = performance.now();
          acquire.record((t1 - t0) * 1000);
          acquisitions++;
          if (lastRelease !== undefined && lastRelease.by !== me && t0 < lastRelease.at) {
            handoff.record((t1 - lastRelease.at) * 1000);
            lastRelease = undefined;
          }
          const t2 = performance.now();
          lastRelease = { at: t2, by: me };
          await lease.release();
          cycle.record((t1 - t0 + performance.now() - t2) * 1000);
        }
      }),
    );
    return {
      acquisitions,
      elapsedMs: performance.now() - start,
      acquire: percentiles(acquire),
      cycle: percentiles(cycle),
      handoff: percentiles(handoff),
    };
  } finally {
    await Promise.allSettled(clients.map((c) => c.close()));
  }
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return 0;
  return s.length % 2 === 1 ? (s[(s.length - 1) / 2] as number) : ((s[s.length / 2 - 1] as number) + (s[s.length / 2] as number)) / 2;
};
const rate = (r: RoundFigures): number => (r.acquisitions * 1000) / r.elapsedMs;

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const opt = (name: string): string | undefined => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const rounds = Number(opt('--rounds') ?? 3);
  const seconds = Number(opt('--seconds') ?? 5);
  const server = opt('--server');
  const classes = compileCuratorBench();
  const io = { err: (t: string): void => void process.stderr.write(t) };
  await withServer(server === undefined ? {} : { server }, io, async ({ connectString }) => {
    const results = new Map<string, RoundFigures[]>();
    const add = (key: string, r: RoundFigures): void => void results.set(key, [...(results.get(key) ?? []), r]);
    const run = (side: 'zkwire' | 'curator', workload: Workload, secs: number): Promise<RoundFigures> => {
      const lockPath = `/zkwire-bench/peers-${randomUUID()}`;
      return side === 'zkwire' ? zkwireRound(connectString, workload, secs, lockPath) : curatorRound(classes, connectString, workload, secs, lockPath);
    };
    // warm-up: the server, the JIT on both sides
    await run('zkwire', 'contended', 1);
    await run('curator', 'contended', 1);
    for (const workload of WORKLOADS) {
      for (let r = 0; r < rounds; r++) {
        const order = r % 2 === 0 ? (['zkwire', 'curator'] as const) : (['curator', 'zkwire'] as const);
        for (const side of order) {
          const figures = await run(side, workload, seconds);
          add(`${side} ${workload}`, figures);
          process.stderr.write(`  ${workload} round ${r + 1} ${side}: ${fmtRate(rate(figures))}\n`);
        }
      }
    }
    const med = (side: string, workload: Workload, pick: (r: RoundFigures) => number): number => median((results.get(`${side} ${workload}`) ?? []).map(pick));
    const row = (label: string, workload: Workload, pick: (r: RoundFigures) => number, fmt: (n: number) => string, target: string): string[] => {
      const z = med('zkwire', workload, pick);
      const c = med('curator', workload, pick);
      return [label, fmt(z), fmt(c), c > 0 ? `${(z / c).toFixed(2)}×` : '–', target];
    };
    const rows = [
      row('uncontended acquire p50', 'uncontended', (r) => r.acquire.p50, fmtUs, ''),
      row('uncontended cycle p50', 'uncontended', (r) => r.cycle.p50, fmtUs, ''),
      row('uncontended cycle p99', 'uncontended', (r) => r.cycle.p99, fmtUs, ''),
      row('contended acquisitions/s (4 sessions)', 'contended', rate, fmtRate, '≥ 1.5×'),
      row('hand-off p50 (4 sessions)', 'contended', (r) => r.handoff.p50, fmtUs, '≤ 0.6×'),
      row('hand-off p99 (4 sessions)', 'contended', (r) => r.handoff.p99, fmtUs, ''),
      row('read/write acquisitions/s (3 readers, 1 writer)', 'read-write', rate, fmtRate, ''),
      row(`semaphore acquisitions/s (4 sessions, ${SEMAPHORE_LEASES} leases)`, 'semaphore', rate, fmtRate, '≥ 3×'),
    ];
    process.stdout.write(`\nzkwire vs Apache Curator 5.4, one ZooKeeper at ${connectString}, median of ${rounds} interleaved rounds of ${seconds} s\n`);
    process.stdout.write(`load average at the end: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')} on ${os.cpus().length} CPUs\n`);
    process.stdout.write(renderTable(['figure', 'zkwire', 'Curator', 'zkwire / Curator', 'target'], rows));
    const json = opt('--json');
    if (json !== undefined) fs.writeFileSync(json, `${JSON.stringify({ benchmark: 'peers', rounds, seconds, results: Object.fromEntries(results) }, null, 2)}\n`);
  });
}

main().catch((e: unknown) => {
  process.stderr.write(`bench peers: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exitCode = 1;
});
