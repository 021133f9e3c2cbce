/**
 * The long fuzz run: the same targets as test/fuzz, for as long as you like, from one seed.
 *
 *   npm run fuzz -- --seconds 300 --seed 1 [--target decoders,session] [--exclude silent] [--json FILE]
 *   npm run fuzz -- --seed 1 --replay session:1234      (one input again, with its failure in full)
 *
 * --seconds is the whole budget, shared evenly by the targets. Prints inputs tried and failures per target, and the
 * process's memory before and after (it must not grow with the number of inputs). Exits 1 if anything failed.
 */

import { writeFileSync } from 'node:fs';
import { CODEC_TARGETS } from '../test/fuzz/engine/codec-targets.js';
import { loadCorpus } from '../test/fuzz/engine/corpus.js';
import { replayInput, runFuzz, type FuzzTarget, type TargetReport } from '../test/fuzz/engine/engine.js';
import { sessionTarget } from '../test/fuzz/engine/session-target.js';

interface Args {
  seconds: number;
  seed: number;
  targets: string[] | undefined;
  exclude: string[];
  json: string | undefined;
  replay: string | undefined;
}

function parse(argv: string[]): Args {
  const out: Args = { seconds: 60, seed: 1, targets: undefined, exclude: [], json: undefined, replay: undefined };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--seconds') out.seconds = Number(value());
    else if (a === '--seed') out.seed = Number(value());
    else if (a === '--target') out.targets = value().split(',');
    else if (a === '--exclude') out.exclude = value().split(',');
    else if (a === '--json') out.json = value();
    else if (a === '--replay') out.replay = value();
    else throw new Error(`unknown option ${a}`);
  }
  if (!(out.seconds > 0)) throw new Error('--seconds must be positive');
  if (!Number.isInteger(out.seed)) throw new Error('--seed must be an integer');
  return out;
}

const mb = (n: number): string => `${(n / 2 ** 20).toFixed(1)} MB`;

async function main(): Promise<number> {
  const args = parse(process.argv.slice(2));
  const crashes: string[] = [];
  process.on('uncaughtException', (e) => void crashes.push(`uncaught exception: ${String(e)}`));
  process.on('unhandledRejection', (e) => void crashes.push(`unhandled rejection: ${String(e)}`));

  const corpus = loadCorpus();
  const all: FuzzTarget[] = [...CODEC_TARGETS, sessionTarget({ exclude: args.exclude })];
  const targets = args.targets === undefined ? all : all.filter((t) => args.targets!.includes(t.name));
  if (targets.length === 0) throw new Error(`no such target; targets: ${all.map((t) => t.name).join(', ')}`);

  if (args.replay !== undefined) {
    const [name, index] = args.replay.split(':');
    const target = all.find((t) => t.name === name);
    if (target === undefined || index === undefined) throw new Error('--replay TARGET:INDEX');
    const failure = await replayInput(target, corpus, args.seed, Number(index));
    console.log(failure === undefined ? 'passed' : JSON.stringify(failure, null, 2));
    return failure === undefined ? 0 : 1;
  }

  // With --expose-gc the figures are live memory, not garbage not yet collected.
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const before = process.memoryUsage();
  console.log(`fuzzing ${targets.map((t) => t.name).join(', ')} for ${args.seconds} s from seed ${args.seed} (${corpus.frames.length} golden frames)`);
  const reports: TargetReport[] = await runFuzz({
    seed: args.seed,
    corpus,
    targets,
    seconds: args.seconds / targets.length,
    maxFailures: 20,
    onProgress: (r) => console.log(`  ${r.target}: ${r.inputs} inputs, ${r.failures.length} failure(s)`),
  });
  gc?.();
  const after = process.memoryUsage();

  const rows = reports.map((r) => [r.target, String(r.inputs), String(Math.round((r.inputs * 1000) / Math.max(1, r.ms))), String(r.failures.length)]);
  const header = ['target', 'inputs', 'inputs/s', 'failures'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]): string => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(`\n${line(header)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}`);
  for (const r of rows) console.log(line(r));
  console.log(`\nheap ${mb(before.heapUsed)} -> ${mb(after.heapUsed)}, rss ${mb(before.rss)} -> ${mb(after.rss)}${gc === undefined ? ' (run with --expose-gc for live figures)' : ' (after gc)'}`);
  for (const r of reports) {
    for (const f of r.failures) {
      console.log(`\nFAIL ${f.target} seed ${f.seed} input ${f.index}: ${f.message}\n  replay: node .build/bench/fuzz.js --seed ${f.seed} --replay ${f.target}:${f.index}`);
      if (f.input !== undefined) console.log(`  input: ${f.input.slice(0, 2000)}`);
    }
  }
  for (const c of crashes) console.log(`\nCRASH ${c}`);
  if (args.json !== undefined) {
    const summary = {
      seed: args.seed,
      seconds: args.seconds,
      targets: reports.map((r) => ({ target: r.target, inputs: r.inputs, ms: r.ms, failures: r.failures })),
      crashes,
      memory: { before, after },
    };
    writeFileSync(args.json, `${JSON.stringify(summary, null, 2)}\n`);
  }
  const failed = reports.some((r) => r.failures.length > 0) || crashes.length > 0;
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(`fuzz: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(2);
  },
);
