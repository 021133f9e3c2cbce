/**
 * bench/chaos: the chaos suite by command. Starts a 3-member ZooKeeper ensemble behind fault proxies, runs lock
 * cycles on 16 sessions, leader election, caches, group members and a worker process under a seeded fault schedule
 * (test/chaos/engine.ts), prints the summary table, and exits non-zero when any must-be-0 figure is not 0. The same
 * seed replays the same fault schedule and the same worker choices (the interleaving on the wire still depends on
 * timing). The worker process runs on the built package: run `npm run build` first.
 *
 *   npm run chaos -- [--duration SECONDS] [--seed N] [--sessions N] [--session-timeout MS] [--json FILE]
 */

import { writeFileSync } from 'node:fs';
import { runChaos } from '../test/chaos/engine.js';
import { renderReport } from '../test/chaos/report.js';

const DEFAULT_DURATION_S = 180;

function usage(message: string): never {
  process.stderr.write(`chaos: ${message}\nusage: npm run chaos -- [--duration SECONDS] [--seed N] [--sessions N] [--session-timeout MS] [--json FILE]\n`);
  process.exit(2);
}

function parseArgs(argv: readonly string[]): Map<string, string> {
  const known = new Set(['--duration', '--seed', '--sessions', '--session-timeout', '--json']);
  const out = new Map<string, string>();
  for (let i = 0; i < argv.length; i += 2) {
    const name = argv[i] as string;
    const value = argv[i + 1];
    if (!known.has(name)) usage(`unknown option ${name}`);
    if (value === undefined) usage(`${name} needs a value`);
    out.set(name, value);
  }
  return out;
}

function positiveInt(args: Map<string, string>, name: string, fallback: number): number {
  const raw = args.get(name);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) usage(`${name} must be a non-negative integer, got ${raw}`);
  return n;
}

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  // Without --seed a fresh one is drawn and printed first, so any run can be replayed.
  const seed = positiveInt(args, '--seed', Math.floor(Math.random() * 1_000_000));
  const durationS = positiveInt(args, '--duration', DEFAULT_DURATION_S);
  process.stderr.write(`chaos: seed ${seed}, ${durationS} s (replay: npm run chaos -- --duration ${durationS} --seed ${seed})\n`);
  const report = await runChaos({
    seed,
    durationMs: durationS * 1000,
    sessions: positiveInt(args, '--sessions', 16),
    sessionTimeoutMs: positiveInt(args, '--session-timeout', 4000),
    log: (line) => process.stderr.write(`  … ${line}\n`),
  });
  process.stdout.write(renderReport(report));
  const json = args.get('--json');
  if (json !== undefined) {
    writeFileSync(json, `${JSON.stringify(report, null, 2)}\n`);
    process.stdout.write(`summary written to ${json}\n`);
  }
  return report.ok ? 0 : 1;
}

// Exit explicitly: after a run with many reset sockets, Node 20 sometimes spins for ever in its environment
// teardown (node::Environment::CleanupHandles, cf. nodejs/node#47748) once the event loop is already empty.
// Everything is written and every server stopped by then; the harness's exit hook still kills any JVM left.
main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    process.stderr.write(`chaos: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
