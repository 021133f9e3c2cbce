/**
 * The failover pieces of `zkwire bench lock`: the options (--ensemble, --kill-leader, --pause-leader,
 * --partition-leader, --tick-time), the throwaway ensemble a run causes its faults on, and the
 * SIGUSR2 marker by which an operator marks a fault they cause on their own ensemble.
 */

import { BenchEnsemble } from '../../tools/bench/failover/bench-ensemble.js';
import type { FaultObserver } from '../../tools/bench/failover/fault-observer.js';
import { FAULT_KINDS, parseFaultSpec, type FaultSpec } from '../../tools/bench/failover/fault-spec.js';
import { cliCleanup } from '../../testing/local-server/cleanup.js';
import type { CliIo } from '../types.js';

/** What the failover options asked for. */
export interface FailoverArgs {
  /** Members of the throwaway ensemble (--ensemble N), undefined to run on --server or one local server. */
  ensemble: number | undefined;
  tickTime: number | undefined;
  faults: FaultSpec[];
}

/** The failover options that take a value. */
export const FAILOVER_VALUED = ['--ensemble', '--tick-time', ...FAULT_KINDS.map((k) => `--${k}`)];

/**
 * Reads the failover options from `value` (an option's value or undefined). Throws an Error whose message is the
 * usage complaint.
 */
export function parseFailoverArgs(value: (name: string) => string | undefined, run: { durationS: number | undefined; iterations: number | undefined }): FailoverArgs {
  const out: FailoverArgs = { ensemble: undefined, tickTime: undefined, faults: [] };
  const size = value('--ensemble');
  if (size !== undefined) {
    const n = Number(size);
    if (!Number.isInteger(n) || n < 3) throw new Error(`--ensemble needs a number of members, 3 or more (3 or 5 make sense), got ${size}`);
    out.ensemble = n;
  }
  const tick = value('--tick-time');
  if (tick !== undefined) {
    const n = Number(tick);
    if (!Number.isInteger(n) || n <= 0) throw new Error(`--tick-time needs a positive number of ms, got ${tick}`);
    if (out.ensemble === undefined) throw new Error('--tick-time sets the tickTime of the --ensemble the bench starts');
    out.tickTime = n;
  }
  for (const kind of FAULT_KINDS) {
    const v = value(`--${kind}`);
    if (v === undefined) continue;
    try {
      out.faults.push(parseFaultSpec(kind, v));
    } catch (e) {
      throw new Error((e as Error).message);
    }
  }
  if (out.faults.length > 0) {
    if (out.ensemble === undefined) throw new Error(`--${out.faults[0]!.kind} needs --ensemble N (on your own ensemble, cause the fault yourself and mark it with SIGUSR2)`);
    if (run.iterations !== undefined) throw new Error('faults are timed into the run: give --duration, not --iterations');
    const durationMs = (run.durationS ?? 10) * 1000;
    const late = out.faults.find((f) => f.atMs >= durationMs);
    if (late !== undefined) throw new Error(`--${late.kind} at ${late.atMs / 1000} s is not within the run (--duration ${durationMs / 1000} s)`);
  }
  return out;
}

/**
 * Starts the run's throwaway ensemble, says on stderr where it is (members, pids, directory), runs `fn` on it and
 * closes it (its JVMs killed, its directory removed) whatever happens. Its JVMs are registered with the CLI's
 * clean-up registry, which leaves them to the command's own wind-down on SIGINT/SIGTERM/SIGHUP.
 */
export async function withBenchEnsemble<T>(args: FailoverArgs, io: Pick<CliIo, 'err'>, fn: (ensemble: BenchEnsemble) => Promise<T>): Promise<T> {
  const proxied = args.faults.some((f) => f.kind === 'partition-leader');
  io.err(`starting a throwaway ${args.ensemble}-member ZooKeeper ensemble for the run…\n`);
  const ensemble = await BenchEnsemble.start({ size: args.ensemble!, tickTime: args.tickTime, proxied, cleanup: cliCleanup });
  try {
    const leader = await ensemble.leader();
    const members = ensemble.members().map((m, i) => `#${i} ${m.connectString} pid ${m.pid ?? '?'}${i === leader ? ' (leader)' : ''}`);
    io.err(`ensemble: ${members.join(', ')}; directory ${ensemble.directory}${proxied ? '; the bench connects through a fault proxy per member' : ''}\n`);
    return await fn(ensemble);
  } finally {
    await ensemble.close();
  }
}

/**
 * Marks a fault on `observer` each time this process gets SIGUSR2, until disposed; says so on stderr when `hint`.
 * An operator who kills or pauses a member of their own ensemble sends it in the same breath:
 * `kill -USR2 <bench pid>; <cause the fault>`.
 */
export function markFaultsOnSigusr2(observer: FaultObserver, io: Pick<CliIo, 'err'>, hint: boolean): Disposable {
  const onSignal = (): void => {
    observer.mark('mark', 'SIGUSR2');
    io.err(`fault marked (SIGUSR2 #${observer.faults})\n`);
  };
  process.on('SIGUSR2', onSignal);
  if (hint) io.err(`to mark a fault you cause on this ensemble: kill -USR2 ${process.pid}\n`);
  return { [Symbol.dispose]: () => void process.off('SIGUSR2', onSignal) };
}
