/**
 * bench/lock: the uncontended lock path — acquire, release and cycle latency with one
 * session — and contended throughput with K sessions on one lock, each next to its floor measured in the same run
 * (one create round trip for acquires, one delete for releases, the hand-off floor — a delete on one session to
 * the watch event on another — for hand-offs). Without --server it starts a throwaway local
 * ZooKeeper (and says so).
 *
 *   npm run bench:lock -- [--server HOST:PORT] [--kind mutex|read-write|semaphore] [--clients K]
 *                         [--duration s] [--hold ms] [--json FILE]
 */

import { writeFileSync } from 'node:fs';
import type { LockKind } from '../src/tools/bench/contenders.js';
import { runLockBench, type LockReport } from '../src/tools/bench/lock-bench.js';
import { renderLockReport } from '../src/tools/bench/lock-render.js';
import { fmtRate, fmtUs, renderTable } from '../src/tools/bench/table.js';
import { withServer } from '../src/tools/local-server/index.js';

function summary(uncontended: LockReport, contended: LockReport): string {
  const u = uncontended;
  const c = contended;
  const ratio = (a: number, b: number): string => (a > 0 && b > 0 ? `${(a / b).toFixed(2)}×` : '–');
  let out = `\nSummary — ZooKeeper ${u.server.version} at ${u.server.connectString}\n`;
  out += renderTable(
    ['figure', 'p50', 'p99', 'max', 'floor p50', 'ratio', 'target'],
    [
      ['uncontended acquire', fmtUs(u.acquire.p50), fmtUs(u.acquire.p99), fmtUs(u.acquire.max), `create ${fmtUs(u.floor.create.p50)}`, ratio(u.acquire.p50, u.floor.create.p50), '≤ 1.15×'],
      ['uncontended release', fmtUs(u.release.p50), fmtUs(u.release.p99), fmtUs(u.release.max), `delete ${fmtUs(u.floor.delete.p50)}`, ratio(u.release.p50, u.floor.delete.p50), ''],
      ['uncontended cycle', fmtUs(u.cycle.p50), fmtUs(u.cycle.p99), fmtUs(u.cycle.max), `create ${fmtUs(u.floor.create.p50)}`, ratio(u.cycle.p50, u.floor.create.p50), ''],
      [`hand-off, ${c.settings.clients} sessions`, fmtUs(c.handoff.p50), fmtUs(c.handoff.p99), fmtUs(c.handoff.max), `hand-off floor ${fmtUs(c.floor.handoff.p50)}`, ratio(c.handoff.p50, c.floor.handoff.p50), '≤ 1.25×'],
    ],
  );
  out += `contended throughput, ${c.settings.clients} sessions: ${fmtRate(c.throughputPerSec)} (${c.acquisitions} acquisitions, overlaps ${c.overlaps}); uncontended: ${fmtRate(u.throughputPerSec)}\n`;
  return out;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const opt = (name: string): string | undefined => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const kind = (opt('--kind') ?? 'mutex') as LockKind;
  const clients = Number(opt('--clients') ?? 8);
  const durationS = Number(opt('--duration') ?? 10);
  const holdMs = Number(opt('--hold') ?? 0);
  const server = opt('--server');
  const io = { err: (t: string): void => void process.stderr.write(t) };
  await withServer(server === undefined ? {} : { server }, io, async ({ connectString }) => {
    const progress = (label: string) => (p: { phase: string; acquisitions: number }) => {
      if (p.phase !== 'contending') process.stderr.write(`  … ${label}: ${p.phase} (${p.acquisitions} acquisitions)\n`);
    };
    const uncontended = await runLockBench({ connectString, kind, clients: 1, durationS, holdMs, onProgress: progress('1 session') });
    process.stdout.write(renderLockReport(uncontended) + '\n');
    const contended = await runLockBench({ connectString, kind, clients, durationS, holdMs, onProgress: progress(`${clients} sessions`) });
    process.stdout.write(renderLockReport(contended));
    process.stdout.write(summary(uncontended, contended));
    const json = opt('--json');
    if (json !== undefined) {
      writeFileSync(json, `${JSON.stringify({ benchmark: 'lock', uncontended, contended }, null, 2)}\n`);
      process.stdout.write(`figures written to ${json}\n`);
    }
    if (uncontended.overlaps + contended.overlaps > 0) process.exitCode = 1;
  });
}

main().catch((e: unknown) => {
  process.stderr.write(`bench lock: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exitCode = 1;
});
