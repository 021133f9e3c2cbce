/**
 * bench/rw-trace: our InterProcessReadWriteLock next to a plain hand-written read/write recipe (bench/plain-rw.ts)
 * on the same client and server, 3 reader sessions and 1 writer session looping acquire → release. Rounds
 * alternate between the two; every frame is counted through the client's onFrame trace, so the table says what
 * each acquisition costs on the wire (requests by kind, notifications) next to its throughput.
 *
 *   node .build/bench/rw-trace.js [--server HOST:PORT] [--rounds N] [--seconds S] [--no-trace] [--only zkwire|plain]
 *
 * Tracing costs client CPU (every frame is decoded); --no-trace measures throughput alone.
 */

import { randomUUID } from 'node:crypto';
import { describeFrames, ZooKeeperClient } from '../src/node.js';
import { InterProcessReadWriteLock } from '../src/index.js';
import { FrameCounter, type FrameCounts } from './lock-scale/frames.js';
import { fmtRate, renderTable } from '../src/tools/shared/table.js';
import { withServer } from '../src/testing/local-server/index.js';
import { plainAcquire } from './plain-rw.js';

type Recipe = 'zkwire' | 'plain';
const READERS = 3;

interface RoundResult {
  acquisitions: number;
  perSec: number;
  frames: FrameCounts;
}

async function round(clients: ZooKeeperClient[], counter: FrameCounter, recipe: Recipe, seconds: number): Promise<RoundResult> {
  const dir = `/zkwire-bench/rw-${randomUUID()}`;
  await clients[0]!.mkdirp(dir);
  let acquisitions = 0;
  const end = performance.now() + seconds * 1000;
  counter.start();
  const t0 = performance.now();
  await Promise.all(
    clients.map(async (client, i) => {
      const write = i === READERS;
      const lock = new InterProcessReadWriteLock(client, dir);
      while (performance.now() < end) {
        if (recipe === 'zkwire') {
          const lease = await (write ? lock.writeLock : lock.readLock).acquire();
          acquisitions++;
          await lease.release();
        } else {
          const hold = await plainAcquire(client, dir, write);
          acquisitions++;
          await hold.release();
        }
      }
    }),
  );
  const elapsed = performance.now() - t0;
  const frames = counter.stop();
  await clients[0]!.deleteRecursive(dir);
  return { acquisitions, perSec: (acquisitions * 1000) / elapsed, frames };
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? 0 : s.length % 2 === 1 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const opt = (name: string): string | undefined => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const rounds = Number(opt('--rounds') ?? 5);
  const seconds = Number(opt('--seconds') ?? 3);
  const server = opt('--server');
  const io = { err: (t: string): void => void process.stderr.write(t) };
  await withServer(server === undefined ? {} : { server }, io, async ({ connectString }) => {
    const counter = new FrameCounter();
    // error replies by operation and code, per recipe (FrameCounter counts requests and notifications only)
    const errors = new Map<string, number>();
    let current: Recipe = 'zkwire';
    const onFrame: typeof counter.listener = (t) => {
      counter.listener(t);
      const f = t.frame;
      if (counter.counting && f.kind === 'reply' && f.err !== 0) {
        const key = `${current} ${f.op ?? '?'} err ${f.err}`;
        errors.set(key, (errors.get(key) ?? 0) + 1);
      }
    };
    const trace = !args.includes('--no-trace');
    const only = opt('--only') as Recipe | undefined;
    const clients = await Promise.all(
      Array.from({ length: READERS + 1 }, () => ZooKeeperClient.connect(connectString, trace ? { onFrame: describeFrames(onFrame) } : {})),
    );
    try {
      await round(clients, counter, 'zkwire', 1); // warm both paths
      await round(clients, counter, 'plain', 1);
      const results: Record<Recipe, RoundResult[]> = { zkwire: [], plain: [] };
      for (let r = 0; r < rounds; r++) {
        const order = r % 2 === 0 ? (['zkwire', 'plain'] as const) : (['plain', 'zkwire'] as const);
        for (const recipe of order.filter((x) => only === undefined || x === only)) {
          current = recipe;
          const result = await round(clients, counter, recipe, seconds);
          results[recipe].push(result);
          process.stderr.write(`  round ${r + 1} ${recipe}: ${fmtRate(result.perSec)}\n`);
        }
      }
      const ops = new Set<string>();
      for (const list of Object.values(results)) for (const r of list) for (const op of Object.keys(r.frames.requests)) ops.add(op);
      const perAcq = (recipe: Recipe, pick: (f: FrameCounts) => number): string => {
        const list = results[recipe];
        const total = list.reduce((sum, r) => sum + pick(r.frames), 0);
        const acq = list.reduce((sum, r) => sum + r.acquisitions, 0);
        return acq === 0 ? '–' : (total / acq).toFixed(2);
      };
      const rows: string[][] = [
        ['acquisitions/s (median of rounds)', ...(['zkwire', 'plain'] as const).map((r) => fmtRate(median(results[r].map((x) => x.perSec))))],
        ...[...ops].sort().map((op) => [`${op} requests / acq`, perAcq('zkwire', (f) => f.requests[op] ?? 0), perAcq('plain', (f) => f.requests[op] ?? 0)]),
        ['notifications / acq', perAcq('zkwire', (f) => f.notificationsTotal), perAcq('plain', (f) => f.notificationsTotal)],
        ['frames sent / acq', perAcq('zkwire', (f) => f.framesSent), perAcq('plain', (f) => f.framesSent)],
      ];
      const zk = median(results.zkwire.map((x) => x.perSec));
      const plain = median(results.plain.map((x) => x.perSec));
      process.stdout.write(`\nread/write lock, ${READERS} readers + 1 writer, ${rounds} interleaved rounds of ${seconds} s\n`);
      process.stdout.write(renderTable(['figure', 'InterProcessReadWriteLock', 'plain recipe'], rows));
      process.stdout.write(`ratio zkwire / plain: ${(zk / plain).toFixed(2)}×\n`);
      for (const [key, n] of [...errors].sort()) process.stdout.write(`error replies: ${key}: ${n}\n`);
    } finally {
      await Promise.allSettled(clients.map((c) => c.close()));
    }
  });
}

main().catch((e: unknown) => {
  process.stderr.write(`bench rw-trace: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exitCode = 1;
});
