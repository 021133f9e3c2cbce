/**
 * The znodes of a multi-process bench run, all under `/zkwire-bench/run-<id>`, whose data is the run's settings
 * (RunSpec, JSON) for the workers to read:
 *
 *   workers/w-<seq>   ephemeral, one per worker (its host, pid and sessions): its disappearance before a result
 *                     is how the coordinator learns that a worker died
 *   barrier/          a DistributedDoubleBarrier of every worker and the coordinator: all start together
 *   lock              the lock the workers contend on
 *   fence             the fencing counter: the last fencing token written by a holder, with the lock held
 *   results/w-<seq>   persistent, a worker's result (WorkerResult, JSON), written once it is done
 */

import type { LockKind } from '../contenders.js';
import { BenchRunError } from './errors.js';

export const RUNS_ROOT = '/zkwire-bench';

export interface RunPaths {
  run: string;
  workers: string;
  barrier: string;
  lock: string;
  fence: string;
  results: string;
}

export function runPaths(id: string): RunPaths {
  const run = `${RUNS_ROOT}/run-${id}`;
  return { run, workers: `${run}/workers`, barrier: `${run}/barrier`, lock: `${run}/lock`, fence: `${run}/fence`, results: `${run}/results` };
}

/** A run id names a znode: letters, digits, '-' and '_'. */
export function checkRunId(id: string): string {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) throw new RangeError(`a run id is 1 to 64 letters, digits, '-' or '_', got ${JSON.stringify(id)}`);
  return id;
}

/** What the coordinator asks of the run's workers (the run node's data). */
export interface RunSpec {
  version: 1;
  kind: LockKind;
  /** Sessions across all workers; worker i (in arrival order) takes its share (workerShare). */
  clients: number;
  workers: number;
  durationS: number | null;
  /** Acquisitions across all workers, split as the sessions are. */
  iterations: number | null;
  /** Open loop: acquisitions per second across all workers, split as the sessions are. */
  ratePerSec: number | null;
  holdMs: number;
  leases: number;
  /** The workers' session timeout: a dead worker's nodes go this long after it. */
  sessionTimeoutMs: number;
  /** A worker waits this long at the barrier for the others. */
  joinTimeoutMs: number;
  /** Width of the timeline's intervals, so the workers' timelines add up interval by interval. */
  timelineBinMs: number;
}

export function encodeSpec(spec: RunSpec): string {
  return JSON.stringify(spec);
}

export function decodeSpec(data: Uint8Array, path: string): RunSpec {
  let spec: Partial<RunSpec>;
  try {
    spec = JSON.parse(new TextDecoder().decode(data)) as Partial<RunSpec>;
  } catch {
    throw new BenchRunError('BAD_RUN', `${path} does not hold a bench run's settings`);
  }
  if (spec.version !== 1 || typeof spec.clients !== 'number' || typeof spec.workers !== 'number' || typeof spec.kind !== 'string') {
    throw new BenchRunError('BAD_RUN', `${path} does not hold a bench run's settings (version 1)`);
  }
  return spec as RunSpec;
}

/** Sequence number of a `w-<seq>` worker node: the worker's slot, 0 for the first to arrive. */
export function slotOf(name: string): number {
  return Number(name.slice(name.lastIndexOf('-') + 1));
}

/**
 * Worker `slot`'s part of `total` (sessions, acquisitions) when `clients` sessions are spread over `workers`
 * workers as evenly as they go: the parts add up to `total` exactly, and acquisitions follow the sessions.
 */
export function workerShare(total: number, clients: number, workers: number, slot: number): number {
  const sessionsBefore = (w: number): number => Math.floor((clients * w) / workers);
  const upTo = (w: number): number => Math.floor((total * sessionsBefore(w)) / clients);
  return upTo(slot + 1) - upTo(slot);
}
