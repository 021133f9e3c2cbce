/**
 * `zkwire bench lock|raw`: the lock-latency benchmark (issue 5) and the raw round-trip benchmark against a floor,
 * over src/tools/bench. Without --server both run against a throwaway local ZooKeeper, and say so.
 */

import { writeFileSync } from 'node:fs';
import { LOCK_KINDS, type LockKind } from '../../tools/bench/contenders.js';
import { runLockBench, type LockBenchOptions } from '../../tools/bench/lock-bench.js';
import { renderLockReport } from '../../tools/bench/lock-render.js';
import { lockProgressPrinter } from '../../tools/bench/progress.js';
import { runRawBench, type RawBenchOptions } from '../../tools/bench/raw-bench.js';
import { renderRawReport } from '../../tools/bench/raw-render.js';
import { renderLockSvg } from '../../tools/bench/svg.js';
import { withServer } from '../../tools/local-server/index.js';
import { onInterrupt } from '../interrupt.js';
import type { CliIo, Command } from '../types.js';
import { printError } from './node-client.js';

const usage = `Usage: zkwire bench lock [--server S] [--kind mutex|read-write|semaphore] [--clients K]
                         [--duration s | --iterations N] [--hold ms] [--leases N] [--json FILE] [--svg FILE]
       zkwire bench raw  [--server S] [--samples N] [--rounds N] [--pipeline N] [--pipeline-rounds N]
                         [--window N] [--sessions N] [--json FILE]

bench lock: K separate sessions contend on one lock (K=1 measures the uncontended path), each looping
acquire -> hold -> release. A progress line runs on stderr; then a table: acquisitions/s, acquire, release,
cycle and hand-off latency (p50/p90/p99/p99.9/max), the floor measured in the same run on a bare socket
(ping, one create round trip, delete+getChildren) with the ratio to it, the mutual-exclusion check
(overlaps must be 0) and a histogram.
  --kind        mutex (default), read-write (even sessions write, odd ones read), semaphore
  --clients K   sessions contending (default 4)
  --duration s  run this many seconds (default 10) ...
  --iterations N  ... or until N acquisitions in total
  --hold ms     time each holder keeps the lock (default 0)
  --leases N    semaphore leases (default 2)
  --json FILE   every figure as JSON, latencies in microseconds ("-" or no FILE: JSON on stdout, no table)
  --svg FILE    latency distribution and throughput over time as a self-contained SVG

bench raw: sequential getData and create+delete latency and pipelined getData throughput (up to --window
requests in flight) through the client, next to the same operations on a bare socket with hand-built frames
(the floor), alternating in rounds; then --sessions idle sessions in one fresh process and their RSS.

Without --server, a throwaway local ZooKeeper is started for the run and stopped after it.
SIGINT, SIGTERM or SIGHUP stop a run early: bench lock prints its report so far (marked INTERRUPTED), both
close their sessions and remove the nodes they made, saying on stderr what they wait for; a second signal
exits at once.
Exit status: 0, 1 if the benchmark failed or a lock overlap was seen, 2 on usage errors, 128 + signal when
interrupted (130 SIGINT, 143 SIGTERM, 129 SIGHUP).
`;

interface Parsed {
  sub: 'lock' | 'raw';
  json: string | undefined;
  svg: string | undefined;
  lock: Omit<LockBenchOptions, 'connectString'>;
  raw: Omit<RawBenchOptions, 'connectString'>;
}

function positiveInt(name: string, v: string | undefined): number {
  const n = Number(v);
  if (v === undefined || !Number.isInteger(n) || n <= 0) throw new Error(`${name} needs a positive integer, got ${v ?? 'nothing'}`);
  return n;
}

function nonNegative(name: string, v: string | undefined): number {
  const n = Number(v);
  if (v === undefined || !Number.isFinite(n) || n < 0) throw new Error(`${name} needs a number ≥ 0, got ${v ?? 'nothing'}`);
  return n;
}

export function parseBenchArgs(args: readonly string[], globalJson: boolean): Parsed {
  const positional: string[] = [];
  const out: Parsed = { sub: 'lock', json: undefined, svg: undefined, lock: {}, raw: {} };
  let sub: string | undefined;
  let durationGiven = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const eq = a.startsWith('--') ? a.indexOf('=') : -1;
    const name = eq > 0 ? a.slice(0, eq) : a;
    const value = (): string | undefined => (eq > 0 ? a.slice(eq + 1) : args[++i]);
    switch (name) {
      case '--kind': {
        const k = value();
        if (!LOCK_KINDS.includes(k as LockKind)) throw new Error(`--kind must be one of ${LOCK_KINDS.join(', ')}, got ${k ?? 'nothing'}`);
        out.lock.kind = k as LockKind;
        break;
      }
      case '--clients':
        out.lock.clients = positiveInt(name, value());
        break;
      case '--duration': {
        const d = nonNegative(name, value());
        if (d === 0) throw new Error('--duration must be more than 0 seconds');
        out.lock.durationS = d;
        durationGiven = true;
        break;
      }
      case '--iterations':
        out.lock.iterations = positiveInt(name, value());
        break;
      case '--hold':
        out.lock.holdMs = nonNegative(name, value());
        break;
      case '--leases':
        out.lock.leases = positiveInt(name, value());
        break;
      case '--samples':
        out.raw.samples = positiveInt(name, value());
        break;
      case '--rounds':
        out.raw.rounds = positiveInt(name, value());
        break;
      case '--pipeline':
        out.raw.pipelineTotal = positiveInt(name, value());
        break;
      case '--pipeline-rounds':
        out.raw.pipelineRounds = positiveInt(name, value());
        break;
      case '--window':
        out.raw.window = positiveInt(name, value());
        break;
      case '--sessions':
        out.raw.idleSessions = nonNegative(name, value());
        break;
      case '--json':
        // `--json=FILE`; the bare `--json` is a global flag the dispatcher has already taken (see below).
        out.json = value();
        break;
      case '--svg':
        out.svg = value();
        if (out.svg === undefined) throw new Error('--svg needs a FILE');
        break;
      default:
        if (a.startsWith('-') && a !== '-') throw new Error(`unknown option ${a}`);
        positional.push(a);
    }
  }
  for (const p of positional) {
    if (sub === undefined && (p === 'lock' || p === 'raw')) sub = p;
    // The dispatcher reads a bare --json as the global flag, so `--json FILE` leaves FILE here.
    else if (globalJson && out.json === undefined) out.json = p;
    else throw new Error(`unexpected argument ${p}`);
  }
  if (globalJson && out.json === undefined) out.json = '-';
  if (sub === undefined) throw new Error('say which benchmark: lock or raw');
  if (durationGiven && out.lock.iterations !== undefined) throw new Error('give --duration or --iterations, not both');
  out.sub = sub as 'lock' | 'raw';
  return out;
}

function writeOut(io: CliIo, file: string, text: string, what: string): void {
  if (file === '-') io.out(text);
  else {
    writeFileSync(file, text);
    io.err(`${what} written to ${file}\n`);
  }
}

export const benchCommand: Command = {
  name: 'bench',
  summary: 'lock-latency benchmark with a report (bench lock), round trips against a floor (bench raw)',
  usage,
  async run(args: string[], io: CliIo): Promise<number> {
    let parsed: Parsed;
    try {
      parsed = parseBenchArgs(args, io.globals.json);
    } catch (e) {
      io.err(`zkwire bench: ${(e as Error).message}\n\n${usage}`);
      return 2;
    }
    const stderrIsTTY = process.stderr.isTTY === true;
    using interrupt = onInterrupt('bench', io);
    const signal = interrupt.signal;
    const onCleanup = (what: string): void => io.err(`zkwire bench ${parsed.sub}: waiting for ${what}\n`);
    try {
      return await withServer(io.globals, io, async ({ connectString }) => {
        if (parsed.sub === 'raw') {
          const report = await runRawBench({ ...parsed.raw, connectString, signal, onCleanup, onProgress: (l) => io.err(`  … ${l}\n`) });
          if (parsed.json !== '-') io.out(renderRawReport(report));
          if (parsed.json !== undefined) writeOut(io, parsed.json, `${JSON.stringify(report, null, 2)}\n`, 'figures');
          return interrupt.exitCode ?? 0;
        }
        const printer = lockProgressPrinter({ write: io.err, isTTY: stderrIsTTY });
        let report;
        try {
          report = await runLockBench({ ...parsed.lock, connectString, signal, onCleanup, onProgress: (p) => printer.update(p) });
        } finally {
          printer.finish();
        }
        if (parsed.json !== '-') io.out(renderLockReport(report));
        if (parsed.json !== undefined) writeOut(io, parsed.json, `${JSON.stringify(report, null, 2)}\n`, 'figures');
        if (parsed.svg !== undefined) writeOut(io, parsed.svg, renderLockSvg(report), 'SVG');
        if (interrupt.exitCode !== undefined) return interrupt.exitCode;
        return report.overlaps === 0 && report.fencingViolations === 0 ? 0 : 1;
      });
    } catch (e) {
      printError(io, `bench ${parsed.sub}`, e);
      return interrupt.exitCode ?? 1;
    }
  },
};
