/**
 * `zkwire bench lock|raw`: the lock-latency benchmark (or, with --vs curator, zkwire's locks beside Apache
 * Curator's) and the raw round-trip benchmark against a floor, over src/tools/bench. Without --server they run
 * against a throwaway local ZooKeeper, and say so.
 */

import { LOCK_KINDS, type LockKind } from '../../tools/bench/contenders.js';
import { securityOptions } from '../connection.js';
import { runLockBenchWithFaults } from '../../tools/bench/failover/run-with-faults.js';
import type { LockBenchOptions, LockReport } from '../../tools/bench/lock-bench.js';
import { renderLockReport } from '../../tools/bench/lock-render.js';
import { lockProgressPrinter } from '../../tools/bench/progress.js';
import { runRawBench, type RawBenchOptions } from '../../tools/bench/raw-bench.js';
import { renderRawReport } from '../../tools/bench/raw-render.js';
import { renderLockSvg } from '../../tools/bench/svg.js';
import { withServer } from '../../testing/local-server/index.js';
import { onInterrupt } from '../interrupt.js';
import type { CliIo, Command } from '../types.js';
import { FAILOVER_VALUED, markFaultsOnSigusr2, parseFailoverArgs, withBenchEnsemble, type FailoverArgs } from './bench-failover.js';
import { writeOut } from './bench-output.js';
import { parseWorkersArgs, runBenchProcessesCli, runBenchWorkerCli, WORKERS_VALUED, type WorkersArgs } from './bench-workers.js';
import { runBenchVsCurator, type VsArgs } from './bench-vs.js';
import { parseCommandArgs, printError } from './node-client.js';

const usage = `Usage: zkwire bench lock [--server S] [--kind mutex|read-write|semaphore] [--clients K]
                         [--duration s | --iterations N] [--hold ms] [--leases N] [--rate N]
                         [--floor-samples N] [--session-timeout MS] [--json FILE]
                         [--svg FILE] [--ensemble N [--tick-time ms] [--kill-leader AT] [--pause-leader AT[:FOR]]
                                       [--partition-leader AT[:FOR]]]
       zkwire bench lock --vs curator [--server S] [--rounds N] [--duration s] [--curator-classpath CP]
                         [--json FILE]
       zkwire bench lock --processes N [--remote M] [--run ID] [--join-timeout s] [--session-timeout ms]
                         [other bench lock options]
       zkwire bench worker --server S --run ID [--join-timeout s]
       zkwire bench raw  [--server S] [--samples N] [--rounds N] [--pipeline N] [--pipeline-rounds N]
                         [--window N] [--sessions N] [--json FILE]

bench lock: K separate sessions contend on one lock (K=1 measures the uncontended path), each looping
acquire -> hold -> release. A progress line runs on stderr; then a table: acquisitions/s, acquire, release,
cycle and hand-off latency (p50/p90/p99/p99.9/max), the floors measured in the same run on bare sockets
(ping, one create, one delete, delete+getChildren, and the hand-off floor: a delete sent on one session to
the watch event on another) with the p50 ratios acquire/create, release/delete, hand-off/hand-off floor,
the mutual-exclusion check (overlaps must be 0), a histogram, and sparklines of throughput and acquire
p50/p99/max per interval (in --json: timeline).
  --kind        mutex (default), read-write (even sessions write, odd ones read), semaphore
  --clients K   sessions contending (default 4)
  --duration s  run this many seconds (default 10) ...
  --iterations N  ... or until N acquisitions in total
  --hold ms     time each holder keeps the lock (default 0)
  --leases N    semaphore leases (default 2)
  --rate N      open loop: start N acquisitions per second across the sessions on a fixed schedule; a
                late acquisition starts at once and its latency counts from its intended start too
                (coordinated-omission correction). The report gives the rate asked and achieved, says
                COULD NOT HOLD THE RATE when the run fell behind (scheduled acquisitions that never
                started, or under 90% of the rate), and acquire percentiles from the intended start and
                from the call
  --floor-samples N  samples of each floor, half before and half after the run (default 1000)
  --json FILE   every figure as JSON, latencies in microseconds ("-" or no FILE: JSON on stdout, no table)
  --svg FILE    latency distribution and throughput over time as a self-contained SVG
  The global --session-timeout MS is the timeout the contending sessions ask for (default 30000).

bench lock failover: how long is the lock unavailable when the ZooKeeper leader fails?
  --ensemble N  run on a throwaway N-member ensemble (3 or 5) started for the run (the testing kit's
                TestingCluster) instead of one server; every session may connect to any member. Its
                members, their pids and its directory are printed on stderr; it is gone when the run ends
  --tick-time ms  the ensemble's tickTime (default 2000; initLimit is 10 ticks, syncLimit 5)
  --kill-leader AT  SIGKILL the leader AT into the contention (5s, 1500ms; a bare number is seconds)
  --pause-leader AT[:FOR]  SIGSTOP the leader at AT, SIGCONT after FOR (default: when contention ends)
  --partition-leader AT[:FOR]  hold every link between the bench's sessions and the leader from AT for
                FOR (a fault proxy in front of each member's client port): the leader is cut off from its
                clients, not from its peers, so it goes on leading and no election happens; the sessions on
                it time out and move to a follower
  The report then gives, per fault: the unavailability window (from the last acquisition completed
  before the fault to the first completed after it) overall and per session with the server each was
  on, the fencing tokens on both sides (a new leader starts a new epoch); failed acquires and releases,
  leases lost while held, errors by code, disconnections, expiries and renewals; the bound a window
  should stay under (session timeout + (initLimit + syncLimit) × tickTime, from the server's conf); and
  whether mutual exclusion and fencing held. The fault is marked under the sparklines (▲, △ where it
  was lifted), as a line in the SVG, and in --json under "failover".
  On your own ensemble (--server): cause the fault yourself and mark it at that moment with
  kill -USR2 <pid> (the bench prints its pid when the run starts); the same report comes out.

bench lock --processes N: the same run spread over N worker processes on this machine (each with its
share of the --clients sessions), and --remote M more started on other hosts with bench worker. The
workers meet at a barrier under the run's znode (/zkwire-bench/run-ID), start together, and write their
counts and histograms into znodes; this coordinator merges them into the report above, with a table of
the workers. Every exclusive holder also advances a fencing counter znode with the lock held (a version
conflict or a token going backwards is an exclusion violation, counted across processes). Latencies are
measured inside each worker; the floors by the coordinator, from this host.
  --processes N worker processes started here (default 0 with --remote)
  --remote M    workers to wait for that run elsewhere: zkwire bench worker --server S --run ID
  --run ID      the run's id (default a fresh UUID, printed on stderr for the remote workers)
  --join-timeout s  every worker must reach the barrier within this (default 30); a worker waits this
                long for the run to appear
  --session-timeout ms  the workers' session timeout (default 10000): a killed worker is reported LOST
                once its ephemeral node goes, this long after it died; the run finishes with the others
bench worker --server S --run ID: one worker of such a run, on any host; exits 0 once its result is
written, 1 if the run fails or is removed under it (its coordinator stopped).

bench lock --vs curator: the same lock workloads through zkwire and through Apache Curator 5.x (a Java
program shipped with zkwire, compiled once with javac), against the same server, in interleaved rounds:
uncontended mutex (1 session), contended mutex (4 sessions), read/write lock (3 readers, 1 writer),
semaphore (4 sessions, 3 leases); every session its own, looping acquire -> release. Then a table of the
medians of each side and the ratio zkwire / Curator: uncontended acquire and cycle, contended acquisitions/s,
hand-off p50/p99, read/write and semaphore acquisitions/s.
  --rounds N    rounds per workload and side (default 3)
  --duration s  seconds per round (default 5)
  --curator-classpath CP  Curator 5.x jars and their dependencies (default: $CURATOR_CLASSPATH, else
                Debian's /usr/share/java from apt-get install libcurator-recipes-java). Needs java and javac
                (a JDK 11+) on JAVA_HOME or PATH.

bench raw: sequential getData and create+delete latency and pipelined getData throughput (up to --window
requests in flight) through the client, next to the same operations on a bare socket with hand-built frames
(the floor), alternating in rounds; then --sessions idle sessions in one fresh process and their RSS.

Without --server, a throwaway local ZooKeeper is started for the run and stopped after it.
SIGINT, SIGTERM or SIGHUP stop a run early: bench lock prints its report so far (marked INTERRUPTED), both
close their sessions and remove the nodes they made, saying on stderr what they wait for; with --vs curator
the Curator JVM is stopped too (killed if it lingers) and the table so far is printed. With --processes
the coordinator stops its worker processes and removes the run's znodes (no report); bench worker removes
its nodes and writes no result. A second signal exits
at once.
Exit status: 0, 1 if the benchmark failed, a lock overlap or a fencing token out of order was seen, or
acquisitions failed with no fault caused or marked (with --processes: also a fencing violation or a lost
worker; with --vs: also when java, javac or the Curator jars are missing, or the Curator side failed), 2 on
usage errors, 128 + signal when interrupted (130 SIGINT, 143 SIGTERM, 129 SIGHUP).
`;

interface Parsed {
  sub: 'lock' | 'raw' | 'worker';
  /** Set by --processes / --remote, and for bench worker. */
  workers: WorkersArgs | undefined;
  json: string | undefined;
  svg: string | undefined;
  lock: Omit<LockBenchOptions, 'connectString'>;
  raw: Omit<RawBenchOptions, 'connectString'>;
  /** Set by --vs curator. */
  vs: VsArgs | undefined;
  failover: FailoverArgs;
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

const VALUED = [...FAILOVER_VALUED, ...WORKERS_VALUED, '--kind', '--clients', '--duration', '--iterations', '--hold', '--leases', '--floor-samples', '--rate', '--samples', '--rounds', '--pipeline', '--pipeline-rounds', '--window', '--sessions', '--json', '--svg', '--vs', '--curator-classpath'];

export function parseBenchArgs(args: readonly string[], globalJson: boolean): Parsed {
  // The dispatcher reads a bare --json as the global flag, so `--json FILE` leaves FILE as a second positional.
  const parsed = parseCommandArgs(args, { valued: VALUED, positionals: ['lock|raw|worker', 'FILE'], required: 0 });
  if (typeof parsed === 'string') throw new Error(parsed);
  const out: Parsed = {
    sub: 'lock',
    json: parsed.values.get('--json'),
    svg: parsed.values.get('--svg'),
    lock: {},
    raw: {},
    vs: undefined,
    workers: undefined,
    failover: { ensemble: undefined, tickTime: undefined, faults: [] },
  };
  const [sub, file] = parsed.positionals;
  if (sub === undefined) throw new Error('say which benchmark: lock or raw');
  if (sub !== 'lock' && sub !== 'raw' && sub !== 'worker') throw new Error(`unexpected argument ${sub}`);
  out.sub = sub;
  if (file !== undefined) {
    if (!globalJson || out.json !== undefined) throw new Error(`unexpected argument ${file}`);
    out.json = file;
  }
  if (globalJson && out.json === undefined) out.json = '-';
  const v = (name: string): string | undefined => parsed.values.get(name);
  const kind = v('--kind');
  if (kind !== undefined) {
    if (!LOCK_KINDS.includes(kind as LockKind)) throw new Error(`--kind must be one of ${LOCK_KINDS.join(', ')}, got ${kind}`);
    out.lock.kind = kind as LockKind;
  }
  const positive = (name: string, set: (n: number) => void): void => {
    if (v(name) !== undefined) set(positiveInt(name, v(name)));
  };
  positive('--clients', (n) => (out.lock.clients = n));
  positive('--iterations', (n) => (out.lock.iterations = n));
  positive('--leases', (n) => (out.lock.leases = n));
  positive('--floor-samples', (n) => (out.lock.floorSamples = n));
  positive('--samples', (n) => (out.raw.samples = n));
  positive('--rounds', (n) => (out.raw.rounds = n));
  positive('--pipeline', (n) => (out.raw.pipelineTotal = n));
  positive('--pipeline-rounds', (n) => (out.raw.pipelineRounds = n));
  positive('--window', (n) => (out.raw.window = n));
  if (v('--rate') !== undefined) {
    const rate = nonNegative('--rate', v('--rate'));
    if (rate === 0) throw new Error('--rate must be more than 0 acquisitions per second');
    out.lock.ratePerSec = rate;
  }
  if (v('--hold') !== undefined) out.lock.holdMs = nonNegative('--hold', v('--hold'));
  if (v('--sessions') !== undefined) out.raw.idleSessions = nonNegative('--sessions', v('--sessions'));
  if (v('--duration') !== undefined) {
    const d = nonNegative('--duration', v('--duration'));
    if (d === 0) throw new Error('--duration must be more than 0 seconds');
    out.lock.durationS = d;
    if (out.lock.iterations !== undefined) throw new Error('give --duration or --iterations, not both');
  }
  out.workers = parseWorkersArgs(v, sub);
  out.failover = parseFailoverArgs(v, { durationS: out.lock.durationS, iterations: out.lock.iterations });
  const failoverGiven = FAILOVER_VALUED.find((name) => v(name) !== undefined);
  if (failoverGiven !== undefined && out.sub !== 'lock') throw new Error(`${failoverGiven} goes with bench lock`);
  // A multi-process run's faults would have to be caused and seen by every worker: not supported (yet).
  if (failoverGiven !== undefined && out.workers !== undefined) throw new Error(`${failoverGiven} does not go with --processes or --remote`);
  const vs = v('--vs');
  if (vs === undefined) {
    if (v('--curator-classpath') !== undefined) throw new Error('--curator-classpath goes with --vs curator');
    return out;
  }
  if (vs !== 'curator') throw new Error(`--vs compares with curator only, got ${vs}`);
  if (out.sub !== 'lock') throw new Error('--vs goes with bench lock');
  const fixed = [...FAILOVER_VALUED, ...WORKERS_VALUED, '--kind', '--clients', '--iterations', '--hold', '--leases', '--floor-samples', '--rate', '--svg', '--samples', '--pipeline', '--pipeline-rounds', '--window', '--sessions'];
  const clash = fixed.find((name) => v(name) !== undefined);
  if (clash !== undefined) throw new Error(`${clash} does not apply to --vs curator, which runs fixed workloads`);
  out.vs = { rounds: out.raw.rounds, seconds: out.lock.durationS, curatorClasspath: v('--curator-classpath') };
  return out;
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
    if (parsed.vs !== undefined) return runBenchVsCurator(parsed.vs, parsed.json, io);
    if (parsed.failover.ensemble !== undefined && io.globals.server !== undefined) {
      io.err(`zkwire bench: --ensemble starts an ensemble of its own; give it or --server, not both\n\n${usage}`);
      return 2;
    }
    const stderrIsTTY = process.stderr.isTTY === true;
    using interrupt = onInterrupt('bench', io);
    const signal = interrupt.signal;
    const onCleanup = (what: string): void => io.err(`zkwire bench ${parsed.sub}: waiting for ${what}\n`);
    if (parsed.sub === 'worker') return await runBenchWorkerCli(parsed.workers!, io, interrupt); // awaited: `using` keeps the signals taken until it ends
    const workers = parsed.workers;
    const lockRun = async (connectString: string, ensemble: Parameters<typeof runLockBenchWithFaults>[0]['ensemble']): Promise<number> => {
      const printer = lockProgressPrinter({ write: io.err, isTTY: stderrIsTTY });
      let marking: Disposable | undefined;
      let report: LockReport;
      try {
        report = await runLockBenchWithFaults({
          ...parsed.lock,
          ...(io.globals.sessionTimeout === undefined ? {} : { sessionTimeoutMs: io.globals.sessionTimeout }),
          security: await securityOptions(io.globals.security),
          connectString,
          signal,
          onCleanup,
          onProgress: (p) => printer.update(p),
          ensemble,
          faults: parsed.failover.faults,
          onFault: (text) => io.err(text),
          onObserver: (o) => (marking = markFaultsOnSigusr2(o, io, io.globals.server !== undefined)),
        });
      } finally {
        marking?.[Symbol.dispose]();
        printer.finish();
      }
      if (parsed.json !== '-') io.out(renderLockReport(report));
      if (parsed.json !== undefined) writeOut(io, parsed.json, `${JSON.stringify(report, null, 2)}\n`, 'figures');
      if (parsed.svg !== undefined) writeOut(io, parsed.svg, renderLockSvg(report), 'SVG');
      if (interrupt.exitCode !== undefined) return interrupt.exitCode;
      // Failures are what a fault causes; without one, a failure means the benchmark itself went wrong.
      const unexplained = report.failover !== undefined && report.failover.faults.length === 0;
      return report.overlaps === 0 && report.fencingViolations === 0 && !unexplained ? 0 : 1;
    };
    try {
      if (parsed.sub === 'lock' && parsed.failover.ensemble !== undefined) {
        return await withBenchEnsemble(parsed.failover, io, (ensemble) => lockRun(ensemble.connectString, ensemble));
      }
      return await withServer(io.globals, io, async ({ connectString }) => {
        if (workers !== undefined) return runBenchProcessesCli(workers, parsed.lock, parsed, connectString, io, interrupt);
        if (parsed.sub === 'raw') {
          const report = await runRawBench({ ...parsed.raw, connectString, signal, onCleanup, onProgress: (l) => io.err(`  … ${l}\n`) });
          if (parsed.json !== '-') io.out(renderRawReport(report));
          if (parsed.json !== undefined) writeOut(io, parsed.json, `${JSON.stringify(report, null, 2)}\n`, 'figures');
          return interrupt.exitCode ?? 0;
        }
        return lockRun(connectString, undefined);
      });
    } catch (e) {
      printError(io, `bench ${parsed.sub}`, e);
      return interrupt.exitCode ?? 1;
    }
  },
};
