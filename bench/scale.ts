/**
 * bench/scale: how the mutex hand-off grows with the depth of the queue, and what many sessions in one process
 * cost.
 *
 * Hand-off at depth N: a holder, then a chain of real waiters (each its own session), then N minus that chain of
 * filler nodes (plain ephemeral sequential lock nodes from a helper session) so the directory holds N + 1 nodes.
 * The holder releases, and each waiter in turn releases as soon as it holds; each hand-off is timed from the
 * release() call to the next acquire resolving. The first eight waiters watch every node ahead of them and hold
 * on the last NodeDeleted; the ones behind them watch only the nearest node ahead and cross the nodes ahead off
 * as they go (see src/recipes/locks/internals.ts), so the table shows both.
 *
 * Sessions: S idle sessions opened in batches in a fresh process (src/tools/bench/idle-sessions.ts): RSS per
 * session and sessions connected per second.
 *
 *   node .build/bench/scale.js [--server HOST:PORT] [--depths 1,100,1000,10000] [--sessions 10000] [--skip-sessions]
 */

import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { ZooKeeperClient } from '../src/node.js';
import { InterProcessMutex, type Lease } from '../src/index.js';
import { measureIdleSessionsIsolated } from '../src/tools/bench/idle-sessions.js';
import { LatencyRecorder } from '../src/tools/bench/recorder.js';
import { fmtMB, fmtUs, renderTable } from '../src/tools/shared/table.js';
import { withServer } from '../src/testing/local-server/index.js';

const CHAIN = 16;
/** Waiters that watch every node ahead of them (MAX_WATCHED_BLOCKERS in src/recipes/locks/internals.ts). */
const WATCH_ALL = 8;

async function until(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((r) => setTimeout(r, 20));
}

/** One queue of depth `depth`: returns the chain's hand-offs, split by how the waiter decided. */
async function chainAt(clients: ZooKeeperClient[], filler: ZooKeeperClient, depth: number, watchAll: LatencyRecorder, deeper: LatencyRecorder): Promise<void> {
  const path = `/zkwire-bench/depth-${randomUUID()}`;
  const chain = Math.min(depth, CHAIN);
  const holder = await new InterProcessMutex(clients[0] as ZooKeeperClient, path).acquire();
  const pending: Promise<Lease>[] = [];
  for (let i = 1; i <= chain; i++) {
    pending.push(new InterProcessMutex(clients[i] as ZooKeeperClient, path).acquire());
    await until(async () => (await filler.getChildren(path)).length === i + 1);
  }
  // fillers behind the chain, pipelined (one write per tick)
  const fillers: Promise<string>[] = [];
  for (let i = 0; i < depth - chain; i++) {
    fillers.push(filler.create(`${path}/_c_${randomUUID()}-lock-`, null, { mode: 'ephemeral-sequential' }));
  }
  await Promise.all(fillers);
  await new Promise((r) => setTimeout(r, 200)); // let the chain's watches settle
  let releasedAt = performance.now();
  void holder.release();
  for (const [i, p] of pending.entries()) {
    const lease = await p;
    const now = performance.now();
    (i < WATCH_ALL ? watchAll : deeper).record((now - releasedAt) * 1000);
    releasedAt = performance.now();
    void lease.release();
  }
  await filler.deleteRecursive(path);
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const opt = (name: string): string | undefined => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const depths = (opt('--depths') ?? '1,100,1000,10000').split(',').map(Number);
  const sessions = Number(opt('--sessions') ?? 10_000);
  const server = opt('--server');
  const io = { err: (t: string): void => void process.stderr.write(t) };
  await withServer(server === undefined ? {} : { server }, io, async ({ connectString }) => {
    const clients = await Promise.all(Array.from({ length: CHAIN + 1 }, () => ZooKeeperClient.connect(connectString)));
    const filler = await ZooKeeperClient.connect(connectString);
    const rows: string[][] = [];
    let base = 0;
    try {
      await chainAt(clients, filler, 20, new LatencyRecorder(), new LatencyRecorder()); // warm-up
      for (const depth of depths) {
        const watchAll = new LatencyRecorder();
        const deeper = new LatencyRecorder();
        const reps = depth === 1 ? 60 : depth <= 100 ? 10 : depth <= 1000 ? 4 : 2;
        for (let r = 0; r < reps; r++) await chainAt(clients, filler, depth, watchAll, deeper);
        const all = new LatencyRecorder();
        all.merge(watchAll);
        all.merge(deeper);
        const w = watchAll.summary();
        const l = deeper.summary();
        base ||= w.p50;
        rows.push([
          String(depth),
          String(all.count),
          fmtUs(w.p50),
          fmtUs(w.p99),
          l.count === 0 ? '–' : fmtUs(l.p50),
          l.count === 0 ? '–' : fmtUs(l.p99),
          `${(w.p50 / base).toFixed(2)}×`,
          l.count === 0 ? '–' : `${(l.p50 / base).toFixed(2)}×`,
        ]);
        process.stderr.write(`  depth ${depth}: done\n`);
      }
    } finally {
      await Promise.allSettled([...clients, filler].map((c) => c.close()));
    }
    process.stdout.write(`\nmutex hand-off by queue depth (ZooKeeper at ${connectString}; load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')})\n`);
    process.stdout.write(
      renderTable(
        ['waiters', 'hand-offs', 'first 8 p50', 'first 8 p99', 'deeper p50', 'deeper p99', 'first 8 / depth 1', 'deeper / depth 1'],
        rows,
      ),
    );
    if (args.includes('--skip-sessions')) return;
    process.stderr.write(`  opening ${sessions} sessions …\n`);
    const s = await measureIdleSessionsIsolated({
      connectString,
      sessions,
      batch: 200,
      holdMs: 2000,
      onProgress: (n) => {
        if (n % 2000 === 0) process.stderr.write(`  … ${n}\n`);
      },
    });
    process.stdout.write(`\n${sessions} idle sessions in one process${s.isolated ? ' (fresh process)' : ''}\n`);
    process.stdout.write(
      renderTable(
        ['sessions', 'RSS before', 'RSS with all open', 'heap used', 'RSS per session', 'connect rate', 'close all'],
        [[String(s.sessions), fmtMB(s.rssBefore), fmtMB(s.rssWith), fmtMB(s.heapUsedWith), `${(s.perSession / 1024).toFixed(1)} KiB`, `${Math.round((s.sessions * 1000) / s.openMs)}/s`, `${Math.round(s.closeMs)} ms`]],
      ),
    );
  });
}

main().catch((e: unknown) => {
  process.stderr.write(`bench scale: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exitCode = 1;
});
