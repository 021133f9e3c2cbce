/**
 * bench/lock: the uncontended lock path — acquire, release and cycle latency with one
 * session — and contended throughput with K sessions on one lock, each next to its floor measured in the same run
 * (one create round trip for acquires, one delete for releases, the hand-off floor — a delete on one session to
 * the watch event on another — for hand-offs). Without --server it starts a throwaway local
 * ZooKeeper (and says so).
 *
 *   npm run bench:lock -- [--server HOST:PORT] [--kind mutex|read-write|semaphore] [--clients K]
 *                         [--duration s] [--hold ms] [--rounds N] [--json FILE]
 *
 * It runs N rounds (default 3) of the uncontended and the contended run and prints the median of each ratio.
 */

import { writeFileSync } from 'node:fs';
import type { LockKind } from '../src/tools/bench/contenders.js';
import { runLockBench, type LockReport } from '../src/tools/bench/lock-bench.js';
import { renderLockReport } from '../src/tools/bench/lock-render.js';
import { fmtRate, fmtUs, renderTable } from '../src/tools/shared/table.js';
import { withServer } from '../src/testing/local-server/index.js';

interface Round {
  uncontended: LockReport;
  contended: LockReport;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? 0;
};

/**
 * The summary: each figure beside its floor, per round and as the median of the rounds' ratios (each ratio is
 * taken within its round, so a machine that drifts between rounds moves figure and floor together).
 */
function summary(rounds: readonly Round[]): string {
  const ratio = (a: number, b: number): number => (a > 0 && b > 0 ? a / b : Number.NaN);
  const fmt = (r: number): string => (Number.isFinite(r) ? `${r.toFixed(2)}×` : '–');
  const figures: { label: string; target: string; of: (r: Round) => [number, number]; floor: string }[] = [
    { label: 'uncontended acquire', floor: 'create', target: '≤ 1.15×', of: (r) => [r.uncontended.acquire.p50, r.uncontended.floor.create.p50] },
    { label: 'uncontended release', floor: 'delete', target: '', of: (r) => [r.uncontended.release.p50, r.uncontended.floor.delete.p50] },
    { label: 'uncontended cycle', floor: 'create', target: '', of: (r) => [r.uncontended.cycle.p50, r.uncontended.floor.create.p50] },
    {
      label: `hand-off, ${rounds[0]?.contended.settings.clients ?? 0} sessions`,
      floor: 'hand-off floor',
      target: '≤ 1.25×',
      of: (r) => [r.contended.handoff.p50, r.contended.floor.handoff.p50],
    },
  ];
  const last = rounds[rounds.length - 1] as Round;
  let out = `\nSummary — ZooKeeper ${last.uncontended.server.version} at ${last.uncontended.server.connectString}, ${rounds.length} round(s), p50 over floor p50 within each round\n`;
  out += renderTable(
    ['figure', 'floor', ...rounds.map((_, i) => `round ${i + 1}`), 'median', 'target'],
    figures.map((f) => {
      const ratios = rounds.map((r) => ratio(...f.of(r)));
      return [f.label, f.floor, ...ratios.map(fmt), fmt(median(ratios)), f.target];
    }),
  );
  out += `last round: acquire p50 ${fmtUs(last.uncontended.acquire.p50)} (create ${fmtUs(last.uncontended.floor.create.p50)}), hand-off p50 ${fmtUs(last.contended.handoff.p50)} (floor ${fmtUs(last.contended.floor.handoff.p50)}); `;
  out += `contended throughput ${fmtRate(last.contended.throughputPerSec)} (${last.contended.acquisitions} acquisitions), uncontended ${fmtRate(last.uncontended.throughputPerSec)}\n`;
  out += 'where a hand-off\'s time goes: npm run bench:handoff\n';
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
  const roundCount = Math.max(1, Number(opt('--rounds') ?? 3));
  const io = { err: (t: string): void => void process.stderr.write(t) };
  await withServer(server === undefined ? {} : { server }, io, async ({ connectString }) => {
    const progress = (label: string) => (p: { phase: string; acquisitions: number }) => {
      if (p.phase !== 'contending') process.stderr.write(`  … ${label}: ${p.phase} (${p.acquisitions} acquisitions)\n`);
    };
    const rounds: Round[] = [];
    for (let i = 1; i <= roundCount; i++) {
      const tag = roundCount > 1 ? `round ${i}, ` : '';
      const uncontended = await runLockBench({ connectString, kind, clients: 1, durationS, holdMs, onProgress: progress(`${tag}1 session`) });
      const contended = await runLockBench({ connectString, kind, clients, durationS, holdMs, onProgress: progress(`${tag}${clients} sessions`) });
      rounds.push({ uncontended, contended });
    }
    // The full reports of the last round; the summary has every round.
    const last = rounds[rounds.length - 1] as Round;
    process.stdout.write(renderLockReport(last.uncontended) + '\n');
    process.stdout.write(renderLockReport(last.contended));
    process.stdout.write(summary(rounds));
    const json = opt('--json');
    if (json !== undefined) {
      writeFileSync(json, `${JSON.stringify({ benchmark: 'lock', rounds }, null, 2)}\n`);
      process.stdout.write(`figures written to ${json}\n`);
    }
    if (rounds.some((r) => r.uncontended.overlaps + r.contended.overlaps > 0)) process.exitCode = 1;
  });
}

main().catch((e: unknown) => {
  process.stderr.write(`bench lock: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exitCode = 1;
});
