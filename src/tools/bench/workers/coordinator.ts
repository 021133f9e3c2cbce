/**
 * `zkwire bench lock --processes N [--remote M]`: the coordinator of a lock bench spread over several processes and
 * hosts, coordinated through ZooKeeper itself (the znodes are described in run-layout.ts). It writes the run's
 * settings, measures the floor (half before, half after, from this host), starts N local workers, waits at the
 * run's double barrier until all N + M workers have connected and warmed up, then waits for each worker's result
 * or for its ephemeral node to go (a lost worker), merges the results into one LockReport, and removes the run.
 *
 * Latencies are measured inside each worker, on its own clock; nothing here compares clocks of two processes.
 */

import { randomUUID } from 'node:crypto';
import { cpus } from 'node:os';
import type { ZooKeeperClient } from '../../../client.js';
import { connectNode } from '../connect.js';
import { DistributedDoubleBarrier } from '../../../recipes/index.js';
import { isCode } from '../../../errors.js';
import { floorCreateEphemeralSequential, floorHandoff, floorPing } from '../floor.js';
import { measureFloor, newFloorRecorders, summarizeFloor, type FloorSummaries } from '../floor.js';
import type { LockBenchOptions, LockReport } from '../lock-bench.js';
import { RawConnection } from '../raw-client.js';
import { firstEndpoint, serverInfo } from '../server-info.js';
import { BenchRunError } from './errors.js';
import { defaultWorkerCommand, startLocalWorker, type LocalWorker } from './local-workers.js';
import { mergeResults } from './merge.js';
import type { CrossProcessFencing, ProcessesReport, WorkerSummary } from './processes-report.js';
import { checkRunId, encodeSpec, runPaths, RUNS_ROOT, type RunPaths, type RunSpec } from './run-layout.js';
import { decodeResult, type ReadResult } from './worker-result.js';

/** The run's shape, as `bench lock` takes it, for the run as a whole (split between the workers). */
export interface ProcessesBenchOptions
  extends Pick<LockBenchOptions, 'connectString' | 'kind' | 'durationS' | 'iterations' | 'ratePerSec' | 'holdMs' | 'leases' | 'floorSamples'> {
  /** Sessions across all workers (at least one per worker). Default 4. */
  clients?: number;
  /** Workers started on this machine. */
  processes: number;
  /** Workers to wait for that are started elsewhere (`zkwire bench worker --run ID`). Default 0. */
  remote?: number;
  /** The run's id (default a fresh UUID): what remote workers are given. */
  runId?: string;
  /** How long every worker has to arrive at the barrier, ms. Default 30 000. */
  joinTimeoutMs?: number;
  /** The workers' session timeout, ms: a dead worker is seen this long after it died. Default 10 000. */
  sessionTimeoutMs?: number;
  /** Ends the run: local workers are stopped, the run's znodes removed; the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Told what the run is doing: the run id, workers arriving, lost, finished. */
  onStatus?: (line: string) => void;
  onCleanup?: (what: string) => void;
  /** The program and leading arguments that start `zkwire bench worker` (default: node and this package's CLI). */
  workerCommand?: readonly string[];
}

/** Settles with `work`, or rejects with the signal's reason as soon as it fires. */
async function unlessAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) throw signal.reason;
  let onAbort = (): void => {};
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([work, aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

/** The floor of bench lock, measured from this host on bare sockets: half before the workers start, half after. */
class CoordinatorFloor {
  readonly #half: number;
  readonly #dir: string;
  readonly #watcher: RawConnection;
  readonly #conn: RawConnection;
  readonly recorders = newFloorRecorders();
  private constructor(
    conn: RawConnection,
    watcher: RawConnection,
    dir: string,
    half: number,
  ) {
    this.#half = half;
    this.#dir = dir;
    this.#watcher = watcher;
    this.#conn = conn;}

  static async open(connectString: string, dir: string, samples: number): Promise<CoordinatorFloor> {
    const { host, port } = firstEndpoint(connectString);
    const conn = await RawConnection.open(host, port);
    const watcher = await RawConnection.open(host, port).catch(async (e: unknown) => {
      await conn.close();
      throw e;
    });
    return new CoordinatorFloor(conn, watcher, dir, Math.max(1, Math.floor(samples / 2)));
  }

  async first(): Promise<void> {
    // warm both sides first, as bench lock does, so the floor is not measured on a cold server
    await floorPing(this.#conn, 200, undefined);
    await floorCreateEphemeralSequential(this.#conn, this.#dir, 500, undefined);
    await floorHandoff(this.#conn, this.#watcher, this.#dir, 100, undefined, 'hw');
    await measureFloor(this.#conn, this.#watcher, this.#dir, this.#half, this.recorders, 'a');
  }

  second(): Promise<void> {
    return measureFloor(this.#conn, this.#watcher, this.#dir, this.#half, this.recorders, 'b');
  }

  summaries(): FloorSummaries {
    return summarizeFloor(this.recorders);
  }

  async close(): Promise<void> {
    await this.#conn.close().catch(() => {});
    await this.#watcher.close().catch(() => {});
  }
}

export async function runLockBenchProcesses(opts: ProcessesBenchOptions): Promise<LockReport> {
  const local = opts.processes;
  const remote = opts.remote ?? 0;
  const workers = local + remote;
  const clients = opts.clients ?? 4;
  if (!Number.isSafeInteger(local) || local < 0 || !Number.isSafeInteger(remote) || remote < 0 || workers < 1) throw new RangeError(`a run needs at least one worker, got ${local} local and ${remote} remote`);
  if (clients < workers) throw new RangeError(`${clients} sessions cannot be shared by ${workers} workers: give --clients at least ${workers}`);
  const id = checkRunId(opts.runId ?? randomUUID());
  const paths = runPaths(id);
  const status = opts.onStatus ?? (() => {});
  const cleanup = opts.onCleanup ?? (() => {});
  const signal = opts.signal ?? new AbortController().signal;
  const durationS = opts.iterations === undefined ? (opts.durationS ?? 10) : null;
  const spec: RunSpec = {
    version: 1,
    kind: opts.kind ?? 'mutex',
    clients,
    workers,
    durationS,
    iterations: opts.iterations ?? null,
    ratePerSec: opts.ratePerSec ?? null,
    holdMs: opts.holdMs ?? 0,
    leases: opts.leases ?? 2,
    sessionTimeoutMs: opts.sessionTimeoutMs ?? 10_000,
    joinTimeoutMs: opts.joinTimeoutMs ?? 30_000,
    timelineBinMs: durationS === null ? 100 : Math.max(100, Math.ceil((durationS * 1000) / 50)),
  };
  const floorSamples = opts.floorSamples ?? 1000;
  const floorDir = `${RUNS_ROOT}/floor-${id}`;
  const server = await serverInfo(opts.connectString);
  const admin = await connectNode(opts.connectString, { signal });
  const started: LocalWorker[] = [];
  let floor: CoordinatorFloor | undefined;
  let madeRun = false;
  try {
    await admin.mkdirp(RUNS_ROOT, { containers: true });
    try {
      await admin.create(paths.run, encodeSpec(spec));
    } catch (e) {
      if (isCode(e, 'NODEEXISTS')) throw new BenchRunError('RUN_EXISTS', `a bench run ${id} is already under way (${paths.run})`);
      throw e;
    }
    madeRun = true;
    for (const p of [paths.workers, paths.results, paths.barrier]) await admin.create(p, null);
    await admin.create(paths.fence, '0');
    await admin.mkdirp(floorDir);
    status(`run ${id}: ${local} local worker(s)${remote > 0 ? `, waiting for ${remote} started with: zkwire bench worker --server ${opts.connectString} --run ${id}` : ''}`);

    floor = await CoordinatorFloor.open(opts.connectString, floorDir, floorSamples);
    status('measuring the floor');
    await unlessAborted(floor.first(), signal);

    const command = opts.workerCommand ?? defaultWorkerCommand();
    for (let i = 0; i < local; i++) started.push(startLocalWorker(command, ['bench', 'worker', '--server', opts.connectString, '--run', id]));
    status(`started ${local} worker process(es): pid ${started.map((w) => w.pid).join(', ')}`);

    const barrierWaitMs = await meetAtBarrier(admin, paths, spec, started, signal, status);
    const registered = (await admin.getChildren(paths.workers)).sort();
    status(`all ${workers} workers through the barrier: running`);
    const { results, lost } = await awaitResults(admin, paths, registered, signal, status);

    status('measuring the floor again');
    await unlessAborted(floor.second(), signal);

    const byName = new Map(results.map((r) => [r.name, r.result]));
    const summaries: WorkerSummary[] = await Promise.all(
      registered.map(async (name) => {
        const r = byName.get(name);
        if (r !== undefined) return { name, host: r.host, pid: r.pid, sessions: r.sessions, status: 'finished' as const, acquisitions: r.acquisitions, elapsedMs: r.elapsedMs, failure: null };
        const info = lost.get(name) ?? { host: '?', pid: 0, sessions: 0 };
        // a local worker's end tells why: wait for its process (it is gone or going) for its last words
        const mine = started.find((w) => w.pid === info.pid);
        if (mine !== undefined) await Promise.race([mine.exit, new Promise((resolve) => setTimeout(resolve, 2000))]);
        return { name, ...info, status: 'lost' as const, acquisitions: 0, elapsedMs: 0, failure: mine?.describeEnd() ?? null };
      }),
    );
    const fencing: CrossProcessFencing = { writes: 0, versionConflicts: 0, tokensBackwards: 0 };
    const errors: Record<string, number> = {};
    for (const { result: r } of results) {
      fencing.writes += r.fencing.writes;
      fencing.versionConflicts += r.fencing.versionConflicts;
      fencing.tokensBackwards += r.fencing.tokensBackwards;
      for (const [code, n] of Object.entries(r.errors)) errors[code] = (errors[code] ?? 0) + n;
    }
    const processes: ProcessesReport = { run: id, path: paths.run, local, remote, workers: summaries, lost: lost.size, fencing, errors, barrierWaitMs: Math.round(barrierWaitMs) };
    return mergeResults(
      results.map((r) => r.result),
      {
        server,
        environment: { node: process.version, cpu: cpus()[0]?.model ?? 'unknown', cpus: cpus().length, platform: `${process.platform}-${process.arch}` },
        settings: { kind: spec.kind, clients, holdMs: spec.holdMs, leases: spec.kind === 'semaphore' ? spec.leases : null, durationS, iterations: spec.iterations, ratePerSec: spec.ratePerSec, floorSamples: floor.recorders.ping.count, path: paths.lock },
        floor: floor.summaries(),
        processes,
      },
    );
  } finally {
    const running = started.filter((w) => !w.exited);
    if (running.length > 0) cleanup(`${running.length} worker process(es) to stop (pid ${running.map((w) => w.pid).join(', ')})`);
    await Promise.all(running.map((w) => w.stop()));
    if (signal.aborted) cleanup(`the floor connections and the coordinator's session to close, ${paths.run} and ${floorDir} to be removed`);
    await floor?.close();
    // removing the run node also tells remote workers still in it to stop
    if (madeRun) await admin.deleteRecursive(paths.run).catch(() => {});
    await admin.deleteRecursive(floorDir).catch(() => {});
    await admin.close();
  }
}

/**
 * The coordinator is the last member of the run's double barrier: it passes once every worker is connected and
 * warm. WORKERS_MISSING after the join deadline, WORKER_FAILED as soon as a local worker exits before arriving.
 * Resolves with how long it waited, ms.
 */
async function meetAtBarrier(admin: ZooKeeperClient, paths: RunPaths, spec: RunSpec, started: readonly LocalWorker[], signal: AbortSignal, status: (line: string) => void): Promise<number> {
  const t0 = performance.now();
  const earlyExit = new AbortController();
  let failed: LocalWorker | undefined;
  for (const w of started) {
    void w.exit.then(() => {
      failed ??= w;
      earlyExit.abort();
    });
  }
  const barrier = new DistributedDoubleBarrier(admin, paths.barrier, spec.workers + 1);
  status(`waiting at the barrier for ${spec.workers} worker(s), at most ${spec.joinTimeoutMs / 1000} s`);
  let through: boolean;
  try {
    through = await barrier.enter({ timeoutMs: spec.joinTimeoutMs, signal: AbortSignal.any([signal, earlyExit.signal]) });
  } catch (e) {
    if (signal.aborted) throw signal.reason;
    if (failed !== undefined) throw new BenchRunError('WORKER_FAILED', `worker process ${failed.pid} ended before the run started (${failed.describeEnd()})`);
    throw e;
  }
  if (!through) {
    const arrived = (await admin.getChildren(paths.workers)).length;
    throw new BenchRunError('WORKERS_MISSING', `${arrived} of ${spec.workers} workers arrived at the barrier within ${spec.joinTimeoutMs / 1000} s; the missing ones join with: zkwire bench worker --server S --run ${paths.run.slice(paths.run.lastIndexOf('run-') + 4)}`);
  }
  return performance.now() - t0;
}

interface WorkerInfo {
  host: string;
  pid: number;
  sessions: number;
}

/**
 * Waits until each registered worker has either written its result or lost its ephemeral node without one (lost).
 * Reads the live workers before the results: a worker writes its result before its node goes, so a worker seen
 * gone whose result is not there after that is lost indeed.
 */
async function awaitResults(
  admin: ZooKeeperClient,
  paths: RunPaths,
  registered: readonly string[],
  signal: AbortSignal,
  status: (line: string) => void,
): Promise<{ results: { name: string; result: ReadResult }[]; lost: Map<string, WorkerInfo> }> {
  const info = new Map<string, WorkerInfo>();
  await Promise.all(
    registered.map(async (name) => {
      const data = await admin.getData(`${paths.workers}/${name}`).catch(() => undefined);
      try {
        if (data !== undefined) info.set(name, JSON.parse(new TextDecoder().decode(data.data)) as WorkerInfo);
      } catch {
        // not JSON: the report shows '?' for it
      }
    }),
  );
  const lost = new Map<string, WorkerInfo>();
  const done = new Set<string>();
  for (;;) {
    const live = await admin.getChildren(paths.workers, { watch: true });
    const finished = await admin.getChildren(paths.results, { watch: true });
    for (const name of finished.children) if (!done.has(name) && registered.includes(name)) {
      done.add(name);
      status(`${name} finished`);
    }
    for (const name of registered) {
      if (done.has(name) || lost.has(name) || live.children.includes(name)) continue;
      lost.set(name, info.get(name) ?? { host: '?', pid: 0, sessions: 0 });
      status(`${name} LOST: its node is gone and it wrote no result`);
    }
    if (done.size + lost.size === registered.length) break;
    await unlessAborted(Promise.race([live.watch, finished.watch]), signal);
  }
  const results = await Promise.all(
    [...done].sort().map(async (name) => {
      const path = `${paths.results}/${name}`;
      return { name, result: decodeResult((await admin.getData(path)).data, path) };
    }),
  );
  return { results, lost };
}
