/**
 * bench/lock-scale: does a lock cost more while the process holds many others, and do 1 000
 * waiters on one lock hand off in order with no herd? Without --server it starts a throwaway local ZooKeeper
 * (and says so).
 *
 *   npm run bench:lock-scale -- [--server HOST:PORT] [--levels 0,100,1000,5000] [--samples N] [--others K]
 *                               [--waiters W] [--sessions S] [--handoff K,K…] [--handoff-rounds N]
 *                               [--handoff-requeue-delay ms] [--json FILE]
 *
 * --levels '' skips the held-locks part, --waiters 0 the queue part. --handoff 4,8 adds part 3: bench lock's
 * contended loop with K sessions, each hand-off cut into segments from the frame traces (6 rounds of 3 s, traced
 * and untraced alternating); --handoff-requeue-delay keeps each releaser off the server for that long. Exit 1 when a target is missed.
 */

import { writeFileSync } from 'node:fs';
import { runLockScale } from './lock-scale/run.js';
import { runHandoffAnalysis, type HandoffReport } from './lock-scale/handoff.js';
import { renderHandoffs, renderLockScale } from './lock-scale/render.js';
import { withServer } from '../src/testing/local-server/index.js';

function usage(message: string): never {
  process.stderr.write(`bench lock-scale: ${message}\n`);
  process.exit(2);
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const known = new Set(['--server', '--levels', '--samples', '--others', '--waiters', '--sessions', '--handoff', '--handoff-rounds', '--handoff-requeue-delay', '--json']);
  for (let i = 0; i < args.length; i += 2) {
    if (!known.has(args[i]!)) usage(`unknown option ${args[i]} (known: ${[...known].join(' ')})`);
    if (args[i + 1] === undefined) usage(`${args[i]} needs a value`);
  }
  const opt = (name: string): string | undefined => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const int = (name: string, fallback: number): number => {
    const v = opt(name);
    if (v === undefined) return fallback;
    const n = Number(v);
    if (!Number.isInteger(n) || n < 0) usage(`${name} must be a whole number ≥ 0`);
    return n;
  };
  const levelsText = opt('--levels');
  const levels =
    levelsText === undefined ? [0, 100, 1000, 5000] : levelsText.trim() === '' ? [] : levelsText.split(',').map((s) => Number(s.trim()));
  if (levels.some((n) => !Number.isInteger(n) || n < 0)) usage('--levels must be whole numbers ≥ 0, comma-separated');
  const handoffText = opt('--handoff');
  const handoffSessions = handoffText === undefined ? [] : handoffText.split(',').map((s) => Number(s.trim()));
  if (handoffSessions.some((n) => !Number.isInteger(n) || n < 2)) usage('--handoff must be session counts ≥ 2, comma-separated');
  const server = opt('--server');
  const io = { err: (t: string): void => void process.stderr.write(t) };
  await withServer(server === undefined ? {} : { server }, io, async ({ connectString }) => {
    const report = await runLockScale({
      connectString,
      levels,
      samples: int('--samples', 1000),
      otherClients: int('--others', 3),
      waiters: int('--waiters', 1000),
      sessions: int('--sessions', 50),
      onProgress: (line) => void process.stderr.write(`  … ${line}\n`),
    });
    process.stdout.write(renderLockScale(report));
    const handoffs: HandoffReport[] = [];
    for (const k of handoffSessions) {
      process.stderr.write(`  … part 3: contended hand-offs with ${k} sessions\n`);
      handoffs.push(await runHandoffAnalysis({ connectString, sessions: k, roundS: 3, rounds: int('--handoff-rounds', 6), floorSamples: 1000, requeueDelayMs: int('--handoff-requeue-delay', 0) }));
    }
    process.stdout.write(renderHandoffs(handoffs));
    const json = opt('--json');
    if (json !== undefined) {
      writeFileSync(json, `${JSON.stringify(handoffs.length === 0 ? report : { ...report, handoffs }, null, 2)}\n`);
      process.stdout.write(`figures written to ${json}\n`);
    }
    if (!report.met) process.exitCode = 1;
  });
}

main().catch((e: unknown) => {
  process.stderr.write(`bench lock-scale: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exitCode = 1;
});
