/**
 * `zkwire bench worker`: one process of a multi-process lock bench. It finds the run's settings in the run node,
 * registers (an ephemeral node whose sequence number is its slot, and so its share of the sessions), connects and
 * warms its sessions, waits at the run's double barrier for the other workers and the coordinator, runs the lock
 * loop of bench lock (src/tools/bench/lock-bench.ts) on the run's lock with a fencing write in every exclusive hold,
 * and writes its result (counts and mergeable histograms) into a znode for the coordinator. If the run's node is
 * removed meanwhile (the coordinator stopped), it stops too.
 */

import { hostname } from 'node:os';
import type { ZooKeeperClient } from '../../../client.js';
import { connectNode } from '../connect.js';
import { DistributedDoubleBarrier } from '../../../recipes/index.js';
import { isCode, ZooKeeperError } from '../../../errors.js';
import { runLockBench, type LockBenchOptions, type LockSamples } from '../lock-bench.js';
import { BenchRunError } from './errors.js';
import { CrossProcessFence } from './fencing.js';
import { decodeSpec, runPaths, slotOf, workerShare, type RunPaths, type RunSpec } from './run-layout.js';
import { encodeResult, workerResult, type WorkerResult } from './worker-result.js';

export interface BenchWorkerOptions {
  connectString: string;
  runId: string;
  /** How long to wait for the run to be created, ms. Default 30 000. */
  waitForRunMs?: number;
  /** Stops the worker: it writes no result, closes its sessions and removes its nodes. */
  signal?: AbortSignal;
  /** Told what the worker is doing (registered, at the barrier, running, done). */
  onStatus?: (line: string) => void;
}

export interface WorkerOutcome {
  /** Its node under the run's workers/. */
  name: string;
  /** What it wrote into its result znode; undefined when it was stopped by its signal before writing one. */
  result: WorkerResult | undefined;
}

/** Resolves with the run's settings once its node exists; RUN_NOT_FOUND after `waitMs`. */
async function waitForRun(client: ZooKeeperClient, paths: RunPaths, waitMs: number, signal: AbortSignal | undefined): Promise<RunSpec> {
  const deadline = AbortSignal.any([AbortSignal.timeout(waitMs), ...(signal === undefined ? [] : [signal])]);
  for (;;) {
    const { stat, watch } = await client.exists(paths.run, { watch: true });
    if (stat !== null) return decodeSpec((await client.getData(paths.run)).data, paths.run);
    const stopped = new Promise<void>((resolve) => deadline.addEventListener('abort', () => resolve(), { once: true }));
    await Promise.race([watch, stopped]);
    if (signal?.aborted === true) throw signal.reason;
    if (deadline.aborted) throw new BenchRunError('RUN_NOT_FOUND', `no bench run ${paths.run} appeared within ${waitMs / 1000} s`);
  }
}

/** Aborts once the run's node is gone (its coordinator finished or stopped); ends with the session. */
function whenRunRemoved(client: ZooKeeperClient, paths: RunPaths): AbortSignal {
  const removed = new AbortController();
  void (async () => {
    for (;;) {
      const { stat, watch } = await client.exists(paths.run, { watch: true });
      if (stat === null) break;
      await watch;
      if (client.state === 'closed') return;
    }
    removed.abort(new BenchRunError('RUN_REMOVED', `the run ${paths.run} was removed: its coordinator stopped`));
  })().catch(() => {}); // the session closed under it: the worker is ending anyway
  return removed.signal;
}

export async function runBenchWorker(opts: BenchWorkerOptions): Promise<WorkerOutcome> {
  const paths = runPaths(opts.runId);
  const status = opts.onStatus ?? (() => {});
  const connectSignal = opts.signal === undefined ? {} : { signal: opts.signal };
  let spec: RunSpec;
  {
    await using reader = await connectNode(opts.connectString, connectSignal);
    spec = await waitForRun(reader, paths, opts.waitForRunMs ?? 30_000, opts.signal);
  }
  // The worker's own session carries its registration: its timeout is how soon the coordinator sees a dead worker.
  const member = await connectNode(opts.connectString, { ...connectSignal, sessionTimeoutMs: spec.sessionTimeoutMs });
  let name = '';
  try {
    const removed = whenRunRemoved(member, paths);
    const signal = AbortSignal.any([removed, ...(opts.signal === undefined ? [] : [opts.signal])]);
    const who = { host: hostname(), pid: process.pid, sessions: 0 };
    let node: string;
    try {
      node = await member.create(`${paths.workers}/w-`, JSON.stringify(who), { mode: 'ephemeral-sequential' });
    } catch (e) {
      if (isCode(e, 'NONODE')) throw removed.reason ?? new BenchRunError('RUN_REMOVED', `the run ${paths.run} was removed`);
      throw e;
    }
    name = node.slice(node.lastIndexOf('/') + 1);
    const slot = slotOf(name);
    if (slot >= spec.workers) {
      await member.delete(node).catch(() => {});
      throw new BenchRunError('RUN_FULL', `the run ${paths.run} has all of its ${spec.workers} workers`);
    }
    who.sessions = workerShare(spec.clients, spec.clients, spec.workers, slot);
    await member.setData(node, JSON.stringify(who));
    status(`registered as ${name}: ${who.sessions} session(s) of ${spec.clients}`);

    const fence = new CrossProcessFence(member, paths.fence);
    const barrier = new DistributedDoubleBarrier(member, paths.barrier, spec.workers + 1);
    let samples: LockSamples | undefined;
    const lock: LockBenchOptions = {
      connectString: opts.connectString,
      kind: spec.kind,
      clients: who.sessions,
      holdMs: spec.holdMs,
      leases: spec.leases,
      floorSamples: 0,
      path: paths.lock,
      signal,
      sessionTimeoutMs: spec.sessionTimeoutMs,
      hooks: {
        keepPath: true,
        beforeStart: async () => {
          status('connected; waiting at the barrier for the others');
          if (!(await barrier.enter({ timeoutMs: spec.joinTimeoutMs, signal }))) {
            throw new BenchRunError('WORKERS_MISSING', `not every worker arrived at ${paths.barrier} within ${spec.joinTimeoutMs / 1000} s`);
          }
          status('through the barrier: running');
        },
        whileHeld: (lease, role) => (role === 'exclusive' ? fence.write(lease.fencingToken) : Promise.resolve()),
        onSamples: (s) => (samples = s),
      },
    };
    if (spec.durationS !== null) lock.durationS = spec.durationS;
    if (spec.iterations !== null) lock.iterations = workerShare(spec.iterations, spec.clients, spec.workers, slot);
    if (spec.ratePerSec !== null) lock.ratePerSec = (spec.ratePerSec * who.sessions) / spec.clients;
    const report = await runLockBench(lock).catch((e: unknown) => {
      throw removed.aborted ? removed.reason : e;
    });
    if (opts.signal?.aborted === true) return { name, result: undefined };
    if (removed.aborted) throw removed.reason;
    const result = workerResult(who, report, samples!, fence.counts, fence.errors, spec.timelineBinMs);
    try {
      await member.create(`${paths.results}/${name}`, encodeResult(result));
    } catch (e) {
      if (isCode(e, 'NONODE')) throw new BenchRunError('RUN_REMOVED', `the run ${paths.run} was removed before the result was written`);
      throw e;
    }
    status(`result written to ${paths.results}/${name}`);
    return { name, result };
  } catch (e) {
    // Stopped by its own signal: ABORTED from whatever was waiting is the stop, not a failure.
    if (opts.signal?.aborted === true && e instanceof ZooKeeperError && e.code === 'ABORTED') return { name, result: undefined };
    throw e;
  } finally {
    if (name !== '') await member.delete(`${paths.workers}/${name}`).catch(() => {});
    await member.close();
  }
}
