/**
 * `zkwire bench lock --processes N [--remote M]` (the coordinator) and `zkwire bench worker --run ID` (one worker,
 * here or on another host): the CLI side of src/tools/bench/workers. Their options are parsed here so that
 * bench.ts only hands them on.
 */

import type { LockBenchOptions } from '../../tools/bench/lock-bench.js';
import { renderLockReport } from '../../tools/bench/lock-render.js';
import { renderLockSvg } from '../../tools/bench/svg.js';
import { runLockBenchProcesses } from '../../tools/bench/workers/coordinator.js';
import { BenchRunError } from '../../tools/bench/workers/errors.js';
import { checkRunId } from '../../tools/bench/workers/run-layout.js';
import { runBenchWorker } from '../../tools/bench/workers/worker.js';
import type { Interrupt } from '../interrupt.js';
import type { CliIo } from '../types.js';
import { writeOut } from './bench-output.js';
import { printError } from './node-client.js';

/** The options of a run of several processes, or of one worker. */
export interface WorkersArgs {
  processes: number;
  remote: number;
  runId: string | undefined;
  /** --join-timeout, ms: the coordinator's wait at the barrier; a worker's wait for the run to appear. */
  joinTimeoutMs: number | undefined;
}

export const WORKERS_VALUED = ['--processes', '--remote', '--run', '--join-timeout'];

/** The multi-process options of `bench lock` or `bench worker`; undefined for a single-process run. Throws on bad input. */
export function parseWorkersArgs(v: (name: string) => string | undefined, sub: string): WorkersArgs | undefined {
  const count = (name: string, min: number): number | undefined => {
    const raw = v(name);
    if (raw === undefined) return undefined;
    const n = Number(raw);
    if (!Number.isSafeInteger(n) || n < min) throw new Error(`${name} needs an integer ≥ ${min}, got ${raw}`);
    return n;
  };
  const processes = count('--processes', 1);
  const remote = count('--remote', 1);
  const runId = v('--run');
  const join = v('--join-timeout');
  let joinTimeoutMs: number | undefined;
  if (join !== undefined) {
    const s = Number(join);
    if (!(Number.isFinite(s) && s > 0)) throw new Error(`--join-timeout needs a number of seconds > 0, got ${join}`);
    joinTimeoutMs = s * 1000;
  }
  if (runId !== undefined) {
    try {
      checkRunId(runId);
    } catch (e) {
      throw new Error(`--run: ${(e as Error).message}`);
    }
  }
  if (sub === 'worker') {
    if (runId === undefined) throw new Error('bench worker needs --run ID (the id the coordinator printed)');
    if (processes !== undefined || remote !== undefined) throw new Error('--processes and --remote go with bench lock, not bench worker');
    return { processes: 0, remote: 0, runId, joinTimeoutMs };
  }
  if (processes === undefined && remote === undefined) {
    const stray = ['--run', '--join-timeout'].find((name) => v(name) !== undefined);
    if (stray !== undefined) throw new Error(`${stray} goes with --processes or --remote`);
    return undefined;
  }
  if (sub !== 'lock') throw new Error('--processes and --remote go with bench lock');
  return { processes: processes ?? 0, remote: remote ?? 0, runId, joinTimeoutMs };
}

/** bench lock --processes: the coordinator. Prints the merged report as bench lock does; exit 1 on a violation or a lost worker. */
export async function runBenchProcessesCli(
  w: WorkersArgs,
  lock: Omit<LockBenchOptions, 'connectString'>,
  out: { json: string | undefined; svg: string | undefined },
  connectString: string,
  io: CliIo,
  interrupt: Interrupt,
): Promise<number> {
  const { onProgress: _, hooks: __, signal: ___, ...settings } = lock;
  try {
    const report = await runLockBenchProcesses({
      ...settings,
      connectString,
      processes: w.processes,
      remote: w.remote,
      ...(w.runId === undefined ? {} : { runId: w.runId }),
      ...(w.joinTimeoutMs === undefined ? {} : { joinTimeoutMs: w.joinTimeoutMs }),
      ...(io.globals.sessionTimeout === undefined ? {} : { sessionTimeoutMs: io.globals.sessionTimeout }),
      signal: interrupt.signal,
      onStatus: (line) => io.err(`  … ${line}\n`),
      onCleanup: (what) => io.err(`zkwire bench lock: waiting for ${what}\n`),
    });
    if (out.json !== '-') io.out(renderLockReport(report));
    if (out.json !== undefined) writeOut(io, out.json, `${JSON.stringify(report, null, 2)}\n`, 'figures');
    if (out.svg !== undefined) writeOut(io, out.svg, renderLockSvg(report), 'SVG');
    return report.overlaps === 0 && report.fencingViolations === 0 && report.processes?.lost === 0 ? 0 : 1;
  } catch (e) {
    if (interrupt.exitCode !== undefined) {
      io.err('zkwire bench lock: interrupted: no report (the workers were stopped and the run removed)\n');
      return interrupt.exitCode;
    }
    printError(io, 'bench lock', e instanceof BenchRunError ? new Error(`${e.code}: ${e.message}`) : e);
    return 1;
  }
}

/** bench worker --server S --run ID: one worker; exit 0 once its result is written, 128 + signal when stopped. */
export async function runBenchWorkerCli(w: WorkersArgs, io: CliIo, interrupt: Interrupt): Promise<number> {
  const server = io.globals.server;
  if (server === undefined) {
    io.err('zkwire bench worker: needs --server S (the ensemble the coordinator uses)\n');
    return 2;
  }
  try {
    const outcome = await runBenchWorker({
      connectString: server,
      runId: w.runId!,
      ...(w.joinTimeoutMs === undefined ? {} : { waitForRunMs: w.joinTimeoutMs }),
      signal: interrupt.signal,
      onStatus: (line) => io.err(`zkwire bench worker: ${line}\n`),
    });
    if (interrupt.exitCode !== undefined) {
      io.err(`zkwire bench worker: interrupted: no result written, ${outcome.name === '' ? 'nothing registered' : `${outcome.name} removed`}\n`);
      return interrupt.exitCode;
    }
    const r = outcome.result!;
    io.err(`zkwire bench worker: ${outcome.name} done: ${r.acquisitions} acquisitions on ${r.sessions} session(s) in ${(r.elapsedMs / 1000).toFixed(2)} s\n`);
    return 0;
  } catch (e) {
    if (interrupt.exitCode !== undefined) return interrupt.exitCode;
    printError(io, 'bench worker', e instanceof BenchRunError ? new Error(`${e.code}: ${e.message}`) : e);
    return 1;
  }
}
