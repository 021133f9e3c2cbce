/**
 * One round of one lock workload through zkwire, the same sessions, locks, loop and clocks as the Curator program
 * (curator-lock-bench-source.ts), and the figures both sides report for a round.
 */

import { connectNode } from './connect.js';
import type { Lease } from '../../recipes/locks/lease.js';
import { makeContender } from './contenders.js';
import { LatencyRecorder } from './recorder.js';

/** The workloads `bench lock --vs curator` runs, in the order it runs them. */
export type Workload = 'uncontended' | 'contended' | 'read-write' | 'semaphore';
/** Every Workload, in run order. */
export const WORKLOADS: readonly Workload[] = ['uncontended', 'contended', 'read-write', 'semaphore'];
/** Sessions in every workload but uncontended (which has one). */
export const VS_SESSIONS = 4;
/** Leases of the semaphore workload. */
export const VS_SEMAPHORE_LEASES = 3;

/** Count and nearest-rank percentiles of a round's samples, in microseconds. */
export interface Percentiles {
  count: number;
  p50: number;
  p99: number;
}

/** What one side measured in one round. */
export interface RoundFigures {
  acquisitions: number;
  elapsedMs: number;
  /** acquire() called → resolved. */
  acquire: Percentiles;
  /** acquire + release, the (zero) hold excluded. */
  cycle: Percentiles;
  /** A holder's release() called → the acquire of a session already waiting resolved. */
  handoff: Percentiles;
}

/** One round's settings. */
export interface RoundOptions {
  connectString: string;
  workload: Workload;
  seconds: number;
  lockPath: string;
  /** Ends the round early; the figures cover what ran. */
  signal?: AbortSignal | undefined;
}

function percentiles(r: LatencyRecorder): Percentiles {
  const round = (v: number): number => Math.round(v * 10) / 10;
  return { count: r.count, p50: round(r.percentile(50)), p99: round(r.percentile(99)) };
}

/**
 * The zkwire side of a round. read-write: the last session writes, the others read (makeContender writes on even
 * indexes, so the writer is given index 0 and the readers 1).
 */
export async function zkwireRound(opts: RoundOptions): Promise<RoundFigures> {
  const { workload, signal } = opts;
  const sessions = workload === 'uncontended' ? 1 : VS_SESSIONS;
  const opened = await Promise.allSettled(
    Array.from({ length: sessions }, () => connectNode(opts.connectString, { sessionTimeoutMs: 30_000, ...(signal === undefined ? {} : { signal }) })),
  );
  const clients = opened.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
  const acquire = new LatencyRecorder();
  const cycle = new LatencyRecorder();
  const handoff = new LatencyRecorder();
  let acquisitions = 0;
  let start = performance.now();
  try {
    const failed = opened.find((o) => o.status === 'rejected');
    if (failed !== undefined) {
      if (signal?.aborted === true) return figures();
      throw failed.reason;
    }
    const acquirers = clients.map((client, i): (() => Promise<Lease>) => {
      const kind = workload === 'read-write' ? 'read-write' : workload === 'semaphore' ? 'semaphore' : 'mutex';
      const index = workload === 'read-write' ? (i === sessions - 1 ? 0 : 1) : i;
      const contender = makeContender(kind, client, opts.lockPath, index, VS_SEMAPHORE_LEASES);
      return () => contender.acquire();
    });
    // one untimed cycle each: creates the lock's parents and warms the code paths
    for (const take of acquirers) {
      if (signal?.aborted === true) return figures();
      await (await take()).release();
    }
    let lastRelease: { at: number; by: number } | undefined;
    start = performance.now();
    const end = start + opts.seconds * 1000;
    await Promise.all(
      acquirers.map(async (take, me) => {
        while (signal?.aborted !== true && performance.now() < end) {
          const t0 = performance.now();
          const lease = await take();
          const t1 = performance.now();
          acquire.record((t1 - t0) * 1000);
          acquisitions++;
          if (lastRelease !== undefined && lastRelease.by !== me && t0 < lastRelease.at) {
            handoff.record((t1 - lastRelease.at) * 1000);
            lastRelease = undefined;
          }
          const t2 = performance.now();
          lastRelease = { at: t2, by: me };
          await lease.release();
          cycle.record((t1 - t0 + performance.now() - t2) * 1000);
        }
      }),
    );
    return figures();
  } finally {
    await Promise.allSettled(clients.map((c) => c.close()));
  }

  function figures(): RoundFigures {
    return {
      acquisitions,
      elapsedMs: Math.round((performance.now() - start) * 10) / 10,
      acquire: percentiles(acquire),
      cycle: percentiles(cycle),
      handoff: percentiles(handoff),
    };
  }
}
