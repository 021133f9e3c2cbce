/**
 * bench lock-scale, part 1 (target: "no per-acquire cost that grows with the number of locks held in the
 * process"): uncontended acquire/release on a fresh lock path while this process already holds 0, 100, 1 000,
 * 5 000 other locks — each on its own path, half through the measuring client and half through other clients —
 * and once more at 0 after releasing them all, so machine drift over the run shows.
 *
 * The server pays for those holds too (ephemeral nodes, watches), so each level also measures the floor (one
 * ephemeral-sequential create on a bare socket) interleaved with the lock samples. The verdict compares
 * acquire ÷ create at each level with the same ratio at 0 held: the part that grows there is the client's.
 */

import { InterProcessMutex, type Lease } from '../../src/index.js';
import type { ZooKeeperClient } from '../../src/client.js';
import { floorCreateEphemeralSequential } from '../../src/tools/bench/floor.js';
import type { RawConnection } from '../../src/tools/bench/raw-client.js';
import { LatencyRecorder, roundedSummary } from '../../src/tools/bench/recorder.js';
import type { LatencyStats } from '../../src/tools/shared/histogram.js';

export interface HeldOptions {
  /** The client every measured acquire goes through (it also holds half of the held locks). */
  measuring: ZooKeeperClient;
  /** The other clients of this process that hold the rest. */
  others: readonly ZooKeeperClient[];
  /** Floor connection (bare socket). */
  raw: RawConnection;
  /** Directory for this part's nodes (exists, persistent or container). */
  dir: string;
  /** Held-lock counts, ascending; 0 is added when missing. */
  levels: readonly number[];
  /** Acquire/release cycles per level. */
  samples: number;
  /** Rounds the samples (and floor samples) are split into, alternating lock and floor. */
  rounds: number;
  /** Untimed cycles (and as many floor creates) before the first level: both JITs, ours and the server's. */
  warmup: number;
  /** Held-lock acquisitions in flight at once while building up a level. */
  window: number;
  onProgress?: (line: string) => void;
}

export interface HeldLevel {
  /** Locks held in the process while measuring. */
  held: number;
  /** 'before' for the rising levels, 'after' for the 0 measured after releasing everything. */
  phase: 'before' | 'after';
  heldViaMeasuringClient: number;
  heldViaOtherClients: number;
  /** Wall time to acquire the locks added for this level. */
  buildMs: number;
  acquire: LatencyStats;
  release: LatencyStats;
  cycle: LatencyStats;
  floorCreate: LatencyStats;
  /** p50/p90/p99 of acquire and release at this level ÷ the same figure at 0 held (first level). */
  ratioToZero: { acquireP50: number; acquireP90: number; acquireP99: number; releaseP50: number; floorCreateP50: number };
  /** acquire p50 ÷ floor create p50 at this level. */
  acquireToCreate: number;
  /** acquireToCreate ÷ acquireToCreate at 0 held: the client's own growth, server and drift factored out. */
  normalizedToZero: number;
}

export interface HeldReport {
  samplesPerLevel: number;
  otherClients: number;
  levels: HeldLevel[];
  /** The largest normalizedToZero over all levels (the verdict's figure). */
  worstNormalized: number;
  /** The largest raw acquire p50 ratio to 0 held. */
  worstAcquireP50Ratio: number;
  target: { normalizedAtMost: number; met: boolean };
}

export const HELD_TARGET = 1.2;

const ratio = (a: number, b: number): number => (a > 0 && b > 0 ? Math.round((a / b) * 1000) / 1000 : 0);

export async function runHeldLocks(opts: HeldOptions): Promise<HeldReport> {
  const levels = [...new Set([0, ...opts.levels])].sort((a, b) => a - b);
  const say = opts.onProgress ?? (() => {});
  const held: { lease: Lease; viaMeasuring: boolean }[] = [];
  const out: HeldLevel[] = [];

  // The measured acquires go to one probe path per level (fresh: nobody else ever queued there).
  const probe = async (label: string, phase: HeldLevel['phase'], buildMs: number): Promise<void> => {
    const mutex = new InterProcessMutex(opts.measuring, `${opts.dir}/probe-${label}`);
    await (await mutex.acquire()).release(); // creates the lock directory, untimed
    const acquire = new LatencyRecorder();
    const release = new LatencyRecorder();
    const cycle = new LatencyRecorder();
    const floor = new LatencyRecorder();
    const perRound = Math.max(1, Math.ceil(opts.samples / opts.rounds));
    for (let done = 0; done < opts.samples; ) {
      const n = Math.min(perRound, opts.samples - done);
      for (let i = 0; i < n; i++) {
        const t0 = performance.now();
        const lease = await mutex.acquire();
        const t1 = performance.now();
        await lease.release();
        const t2 = performance.now();
        acquire.record((t1 - t0) * 1000);
        release.record((t2 - t1) * 1000);
        cycle.record((t2 - t0) * 1000);
      }
      await floorCreateEphemeralSequential(opts.raw, opts.dir, n, floor);
      done += n;
    }
    const viaMeasuring = held.filter((h) => h.viaMeasuring).length;
    const level: Omit<HeldLevel, 'buildMs'> = {
      held: held.length,
      phase,
      heldViaMeasuringClient: viaMeasuring,
      heldViaOtherClients: held.length - viaMeasuring,
      acquire: roundedSummary(acquire),
      release: roundedSummary(release),
      cycle: roundedSummary(cycle),
      floorCreate: roundedSummary(floor),
      ratioToZero: { acquireP50: 0, acquireP90: 0, acquireP99: 0, releaseP50: 0, floorCreateP50: 0 },
      acquireToCreate: 0,
      normalizedToZero: 0,
    };
    out.push({ ...level, buildMs });
    say(`held ${held.length}: acquire p50 ${level.acquire.p50} µs, create floor p50 ${level.floorCreate.p50} µs`);
  };

  // Warm the JIT and the server's caches on a path of its own before anything is recorded.
  const warm = new InterProcessMutex(opts.measuring, `${opts.dir}/warmup`);
  for (let i = 0; i < opts.warmup; i++) await (await warm.acquire()).release();
  await floorCreateEphemeralSequential(opts.raw, opts.dir, opts.warmup, undefined);

  let next = 0; // index of the next held lock
  for (const level of levels) {
    const t = performance.now();
    const adding: Promise<void>[] = [];
    // Even locks through the measuring client, odd ones spread over the others (all of them when there are none).
    const take = async (): Promise<void> => {
      while (next < level) {
        const i = next++;
        const viaMeasuring = opts.others.length === 0 || i % 2 === 0;
        const client = viaMeasuring ? opts.measuring : opts.others[(i >> 1) % opts.others.length]!;
        const lease = await new InterProcessMutex(client, `${opts.dir}/held/h-${i}`).acquire();
        held.push({ lease, viaMeasuring });
      }
    };
    for (let w = 0; w < opts.window; w++) adding.push(take());
    await Promise.all(adding);
    await probe(String(level), 'before', Math.round(performance.now() - t));
  }

  // Release everything (also through the window), then measure 0 held again: drift shows as a gap to the first 0.
  if (held.length > 0) {
    const t = performance.now();
    const queue = held.splice(0);
    const drop = async (): Promise<void> => {
      for (let h = queue.pop(); h !== undefined; h = queue.pop()) await h.lease.release();
    };
    await Promise.all(Array.from({ length: opts.window }, drop));
    await probe('0-after', 'after', Math.round(performance.now() - t));
  }

  const zero = out[0]!;
  const zeroRatio = ratio(zero.acquire.p50, zero.floorCreate.p50);
  for (const l of out) {
    l.ratioToZero = {
      acquireP50: ratio(l.acquire.p50, zero.acquire.p50),
      acquireP90: ratio(l.acquire.p90, zero.acquire.p90),
      acquireP99: ratio(l.acquire.p99, zero.acquire.p99),
      releaseP50: ratio(l.release.p50, zero.release.p50),
      floorCreateP50: ratio(l.floorCreate.p50, zero.floorCreate.p50),
    };
    l.acquireToCreate = ratio(l.acquire.p50, l.floorCreate.p50);
    l.normalizedToZero = ratio(l.acquireToCreate, zeroRatio);
  }
  const worstNormalized = Math.max(...out.map((l) => l.normalizedToZero));
  return {
    samplesPerLevel: opts.samples,
    otherClients: opts.others.length,
    levels: out,
    worstNormalized,
    worstAcquireP50Ratio: Math.max(...out.map((l) => l.ratioToZero.acquireP50)),
    target: { normalizedAtMost: HELD_TARGET, met: worstNormalized <= HELD_TARGET },
  };
}
