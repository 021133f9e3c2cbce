/**
 * bench lock: K sessions (K separate ZooKeeper sessions in this process) contend on one lock path, each looping
 * acquire → hold → release until the duration is over or the iterations are used up. K=1 measures the
 * uncontended path. The floors (ping, one create round trip, one delete round trip, delete + getChildren, and the
 * hand-off floor: a delete on one bare session to the watch notification on a second) are measured on bare
 * sockets in the same run, half before and half after the contention, so drift shows up in both.
 *
 * What is timed, per acquisition:
 *   acquire  — acquire() called → resolved (for K>1 this includes waiting for the lock)
 *   release  — release() called → resolved (the lock node deleted)
 *   cycle    — acquire + release (the hold excluded)
 *   handoff  — a holder calls release() → the acquire of a session that was already waiting resolves
 */

import { randomUUID } from 'node:crypto';
import { cpus } from 'node:os';
import type { ZooKeeperClient } from '../../client.js';
import { connectNode } from './connect.js';
import type { ClientOptions } from '../../client/types.js';
import { systemClock } from '../../session/clock.js';
import { makeContender, type LockKind } from './contenders.js';
import { ExclusionChecker, type HolderRole } from './exclusion.js';
import type { Lease } from '../../recipes/locks/lease.js';
import { floorCreateEphemeralSequential, floorHandoff, floorPing, measureFloor, newFloorRecorders, summarizeFloor, type FloorSummaries } from './floor.js';
import { LatencyHistogram, logHistogram, type Bin } from '../shared/histogram.js';
import { RawConnection } from './raw-client.js';
import { LatencyRecorder, roundedSummary } from './recorder.js';
import type { LatencyStats } from '../shared/histogram.js';
import { firstEndpoint, serverInfo, type ServerInfo } from './server-info.js';
import { binTimeline, type Timeline } from './timeline.js';
import type { FailoverReport } from './failover/report.js';
import type { LockRunObserver } from './run-observer.js';
import type { ProcessesReport } from './workers/processes-report.js';

/** How often the floor's second half is measured on fresh connections when a fault dropped them (see below). */
const FLOOR_TRIES_AFTER_FAULTS = 3;

export interface LockBenchOptions {
  connectString: string;
  kind?: LockKind;
  /** Sessions contending. Default 4. */
  clients?: number;
  /** Run this long (seconds) … Default 10 when iterations is not given. */
  durationS?: number;
  /** … or until this many acquisitions in total (across all sessions). */
  iterations?: number;
  /**
   * Open loop: start acquisitions at this fixed rate (per second, across sessions) instead of each session
   * looping as fast as it can. Acquisition i is meant to start at i / rate seconds; a session that is free waits
   * for that moment, one that is late starts at once, and its latency is also counted from the intended start
   * (the correction for coordinated omission). With `durationS` the schedule is durationS × rate acquisitions;
   * with `iterations`, that many.
   */
  ratePerSec?: number;
  /** Time each holder keeps the lock, ms. Default 0. */
  holdMs?: number;
  /** Semaphore leases. Default 2. */
  leases?: number;
  /** Floor samples of each kind (half before, half after). Default 1000. */
  floorSamples?: number;
  /** The lock path; default a fresh one under /zkwire-bench. */
  path?: string;
  /** Called about four times a second while contending. */
  onProgress?: (p: LockProgress) => void;
  /**
   * Stops the run early: the floor phase is cut short, contention ends after the cycles in flight, every
   * session is closed and the lock and floor directories are removed; the report, marked `interrupted`,
   * covers what ran.
   */
  signal?: AbortSignal;
  /** Told each clean-up step before it is waited for (sessions closing, directories removed). */
  onCleanup?: (what: string) => void;
  /** The session timeout the contending sessions ask for, ms (default the client's). */
  sessionTimeoutMs?: number;
  /** A secured server's TLS and SASL, for every session (and TLS for the floor's raw connections). */
  security?: Pick<ClientOptions, 'tls' | 'sasl'>;
  /**
   * Watches the run through faults (run-observer.ts): failures are counted instead of ending the run, a hold ends
   * early when its lease's lock-lost signal fires (as a careful holder's would), and the floor's second half is
   * measured on fresh connections to the member the admin session is on by then.
   */
  observer?: LockRunObserver;
  /** What a bench worker of a multi-process run (src/tools/bench/workers) needs; a single-process run has none. */
  hooks?: LockBenchHooks;
}

/**
 * The places where a bench worker joins in. With hooks, `floorSamples: 0` skips the floor (the coordinator measures
 * it once for all workers).
 */
export interface LockBenchHooks {
  /** The lock path is shared with other processes: leave it for whoever made it. */
  keepPath?: boolean;
  /** Awaited once every session is connected and warm, just before the timed run starts (a worker's barrier). */
  beforeStart?: () => Promise<void>;
  /** Awaited with each lease while it is held, before the hold (a worker writes its fencing token). */
  whileHeld?: (lease: Lease, role: HolderRole) => Promise<void>;
  /** Given the run's samples at its end (a worker serialises them for the coordinator). */
  onSamples?: (samples: LockSamples) => void;
}

/** The raw figures behind a report, for a worker to send on. */
export interface LockSamples {
  acquire: LatencyRecorder;
  release: LatencyRecorder;
  cycle: LatencyRecorder;
  handoff: LatencyRecorder;
  /** Per acquisition, ms since the start, and the latency the timeline shows (µs). */
  acquiredAtMs: readonly number[];
  timelineLatencyUs: readonly number[];
  /** The open-loop histograms, null in a closed loop. */
  openLoop: { corrected: LatencyHistogram; uncorrected: LatencyHistogram; startLag: LatencyHistogram } | null;
}

export interface LockProgress {
  elapsedMs: number;
  acquisitions: number;
  perSec: number;
  overlaps: number;
  phase: 'floor' | 'connecting' | 'contending' | 'done';
}

export interface LockReport {
  benchmark: 'lock';
  /** True when the run was stopped early (its signal fired): the figures cover what ran until then. */
  interrupted: boolean;
  server: ServerInfo;
  environment: { node: string; cpu: string; cpus: number; platform: string };
  settings: { kind: LockKind; clients: number; holdMs: number; leases: number | null; durationS: number | null; iterations: number | null; ratePerSec: number | null; floorSamples: number; path: string };
  elapsedMs: number;
  acquisitions: number;
  throughputPerSec: number;
  overlaps: number;
  fencingViolations: number;
  perClient: number[];
  acquire: LatencyStats;
  release: LatencyStats;
  cycle: LatencyStats;
  handoff: LatencyStats;
  floor: FloorSummaries;
  /**
   * p50 ratios (0 when either side was not measured): acquire and cycle to one create; release to one delete;
   * hand-off to the hand-off floor (delete sent → watch notification on another session), and to delete +
   * getChildren.
   */
  ratios: { acquireToCreate: number; cycleToCreate: number; releaseToDelete: number; handoffToHandoffFloor: number; handoffToDeleteGetChildren: number };
  /** Acquisitions per interval and their acquire latency p50/p99/max (from the intended start in an open loop). */
  timeline: Timeline;
  histogram: { acquire: Bin[]; handoff: Bin[] };
  /** Set by an open-loop run (`ratePerSec`), null for the closed loop. */
  openLoop: OpenLoopReport | null;
  /** Present in a run of several processes (bench lock --processes): its workers, and the cross-process fencing check. */
  processes?: ProcessesReport;
  /** Faults caused or marked during the run, and what they did (failover/run-with-faults.ts); absent when none. */
  failover?: FailoverReport;
}

export interface OpenLoopReport {
  askedPerSec: number;
  /** Acquisitions completed per second of the run (the schedule's length, or longer when the run fell behind). */
  achievedPerSec: number;
  /**
   * Acquisitions the schedule asked for (in an interrupted run, those due before the stop), started, and never
   * started because the run's time was up.
   */
  scheduled: number;
  started: number;
  missed: number;
  /** False when the machine could not keep the rate: some never started, or under 90% of the rate was achieved. */
  held: boolean;
  /** Acquire latency from each acquisition's intended start (corrected for coordinated omission). */
  corrected: LatencyStats;
  /** Acquire latency from the moment acquire() was called (what a closed loop reports). */
  uncorrected: LatencyStats;
  /** How late acquisitions started against the schedule. */
  startLag: LatencyStats;
  /** Both latency sets come from bounded histograms (LatencyHistogram) of this relative precision. */
  precision: number;
}

/** The share of the asked rate below which an open-loop run says it could not hold the rate. */
export const HELD_SHARE = 0.9;
/** After the schedule's last intended start, sessions may still start late acquisitions for this long. */
const LATE_START_GRACE_MS = 250;

/** The report's p50 ratios of the lock's figures to the floors (0 where either side was not measured). */
export function floorRatios(s: Pick<LockReport, 'acquire' | 'release' | 'cycle' | 'handoff'>, f: FloorSummaries): LockReport['ratios'] {
  const ratio = (a: number, b: number): number => (a > 0 && b > 0 ? Math.round((a / b) * 1000) / 1000 : 0);
  return {
    acquireToCreate: ratio(s.acquire.p50, f.create.p50),
    cycleToCreate: ratio(s.cycle.p50, f.create.p50),
    releaseToDelete: ratio(s.release.p50, f.delete.p50),
    handoffToHandoffFloor: ratio(s.handoff.p50, f.handoff.p50),
    handoffToDeleteGetChildren: ratio(s.handoff.p50, f.deleteGetChildren.p50),
  };
}

/** Waits `ms`, or less if `signal` fires first. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted === true) return resolve();
    const done = (): void => {
      systemClock.clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = systemClock.setTimeout(done, ms); // any --hold, also past the runtime timer's limit
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** A signal that aborts when any of `signals` does. */
function anyAbort(...signals: (AbortSignal | undefined)[]): AbortSignal {
  return AbortSignal.any(signals.filter((s): s is AbortSignal => s !== undefined));
}

/** Thrown out of a floor phase cut short by the signal. */
class Stopped extends Error {}

/**
 * Runs one phase unless `signal` fires first; then throws Stopped at once. The abandoned phase fails when the raw
 * connection is closed in clean-up; its rejection is expected and dropped.
 */
async function unlessStopped(signal: AbortSignal | undefined, phase: () => Promise<void>): Promise<void> {
  if (signal === undefined) return phase();
  if (signal.aborted) throw new Stopped();
  const work = phase();
  work.catch(() => {});
  let onAbort = (): void => {};
  const stopped = new Promise<never>((_, reject) => {
    onAbort = () => reject(new Stopped());
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    await Promise.race([work, stopped]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

export async function runLockBench(opts: LockBenchOptions): Promise<LockReport> {
  const kind = opts.kind ?? 'mutex';
  const k = Math.max(1, opts.clients ?? 4);
  const holdMs = opts.holdMs ?? 0;
  const leases = opts.leases ?? 2;
  const iterations = opts.iterations;
  const durationS = iterations === undefined ? (opts.durationS ?? 10) : undefined;
  const floorSamples = opts.floorSamples ?? 1000;
  const run = randomUUID();
  const path = opts.path ?? `/zkwire-bench/lock-${run}`;
  const floorDir = `/zkwire-bench/floor-${run}`;
  const progress = opts.onProgress ?? (() => {});
  const signal = opts.signal;
  const cleanup = opts.onCleanup ?? (() => {});
  const hooks = opts.hooks ?? {};
  const withFloor = floorSamples > 0;
  const observer = opts.observer;
  const sessionOptions = { ...opts.security, ...(opts.sessionTimeoutMs === undefined ? {} : { sessionTimeoutMs: opts.sessionTimeoutMs }) };

  const server = await serverInfo(opts.connectString);
  const { host, port } = firstEndpoint(opts.connectString);
  const floor = newFloorRecorders();
  const acquire = new LatencyRecorder();
  const release = new LatencyRecorder();
  const cycle = new LatencyRecorder();
  const handoff = new LatencyRecorder();
  const checker = new ExclusionChecker(kind === 'semaphore' ? leases : 1);
  const acquiredAt: number[] = [];
  /** Per acquisition, the latency the timeline shows: from the intended start in an open loop, else from the call. */
  const timelineLatency: number[] = [];
  const perClient = new Array<number>(k).fill(0);
  let lastRelease: { at: number; client: number } | undefined;
  let acquisitions = 0;
  let tickets = 0;
  const rate = opts.ratePerSec;
  if (rate !== undefined && !(rate > 0 && Number.isFinite(rate))) throw new RangeError(`ratePerSec must be a positive number, got ${rate}`);
  const intervalMs = rate === undefined ? 0 : 1000 / rate;
  const scheduled = rate === undefined ? 0 : (iterations ?? Math.max(1, Math.floor((durationS ?? 10) * rate)));
  let started = 0;
  const corrected = new LatencyHistogram();
  const uncorrected = new LatencyHistogram();
  const startLag = new LatencyHistogram();

  const admin = await connectNode(opts.connectString, opts.security);
  const clients: ZooKeeperClient[] = [];
  let raw: RawConnection | undefined;
  let rawWatcher: RawConnection | undefined;
  let start = 0;
  let elapsedMs = 0;
  try {
    if (withFloor) {
      await admin.mkdirp(floorDir, { containers: true });
      raw = await RawConnection.open(host, port, undefined, opts.security?.tls);
      rawWatcher = await RawConnection.open(host, port, undefined, opts.security?.tls);
    }
    const r = raw!;
    const w = rawWatcher!;
    progress({ elapsedMs: 0, acquisitions: 0, perSec: 0, overlaps: 0, phase: 'floor' });
    const half = Math.max(1, Math.floor(floorSamples / 2));
    if (withFloor) await unlessStopped(signal, async () => {
      // Warm both sides (JIT, server caches) before anything is recorded — the create path too: a floor measured on
      // a cold server is slower than the warm acquires it is compared with, which would flatter the ratio.
      await floorPing(r, 200, undefined);
      await floorCreateEphemeralSequential(r, floorDir, 500, undefined);
      await floorHandoff(r, w, floorDir, 100, undefined, 'hw');
      await measureFloor(r, w, floorDir, half, floor, 'a');
    });

    progress({ elapsedMs: 0, acquisitions: 0, perSec: 0, overlaps: 0, phase: 'connecting' });
    const connecting = Array.from({ length: k }, () => connectNode(opts.connectString, signal === undefined ? sessionOptions : { ...sessionOptions, signal }));
    const opened = await Promise.allSettled(connecting);
    for (const o of opened) if (o.status === 'fulfilled') clients.push(o.value);
    const failed = opened.find((o) => o.status === 'rejected');
    if (failed !== undefined) throw signal?.aborted === true ? new Stopped() : failed.reason;
    observer?.sessionsOpened(clients);
    const contenders = clients.map((c, i) => makeContender(kind, c, path, i, leases));
    // One untimed cycle per session: creates the lock's parents and warms each session's code paths.
    for (const c of contenders) {
      if (signal?.aborted === true) throw new Stopped();
      await (await c.acquire()).release();
    }

    await hooks.beforeStart?.();
    start = performance.now();
    observer?.contending(start);
    const end = durationS === undefined ? Infinity : start + durationS * 1000;
    const lastIntended = start + (scheduled - 1) * intervalMs;
    /** The intended start of the next acquisition, or undefined when the run is over. */
    // Past the duration, an observer may keep the run going (until every session acquired after a fault); once it
    // lets go, every session stops.
    let overtime = true;
    const inTime = (): boolean => {
      const now = performance.now();
      if (now < end) return true;
      if (overtime && observer?.keepRunning?.(now) === true) return true;
      overtime = false;
      return false;
    };
    const claim = (): number | undefined => {
      if (signal?.aborted === true) return undefined;
      if (rate === undefined) return (iterations === undefined ? inTime() : tickets++ < iterations) ? performance.now() : undefined;
      // Open loop: the schedule's next slot, unless the run's time is up (a run that fell behind stops here).
      if (tickets >= scheduled || performance.now() > lastIntended + LATE_START_GRACE_MS) return undefined;
      return start + tickets++ * intervalMs;
    };
    const ticker = setInterval(() => {
      const ms = performance.now() - start;
      progress({ elapsedMs: ms, acquisitions, perSec: ms > 0 ? (acquisitions * 1000) / ms : 0, overlaps: checker.overlaps, phase: 'contending' });
    }, 250);
    try {
      await Promise.all(
        contenders.map(async (c, i) => {
          for (let intended = claim(); intended !== undefined; intended = claim()) {
            if (rate !== undefined) {
              const early = intended - performance.now();
              if (early > 0) await sleep(early, signal);
              // Timers run off the event loop's cached clock and can fire up to a millisecond early; yield (I/O
              // still runs) until the intended moment, so no acquisition starts ahead of its schedule.
              while (performance.now() < intended && signal?.aborted !== true) await new Promise<void>((resolve) => setImmediate(resolve));
              if (signal?.aborted === true) break;
              started++;
            }
            const t0 = performance.now();
            let lease: Lease;
            try {
              lease = await c.acquire();
            } catch (e) {
              if (observer === undefined) throw e;
              await observer.failed(i, performance.now(), 'acquire', e);
              continue;
            }
            const t1 = performance.now();
            observer?.acquired(i, t1, lease, c.role);
            checker.enter(c.role, c.role === 'exclusive' ? lease.fencingToken : undefined);
            acquisitions++;
            perClient[i]!++;
            acquiredAt.push(t1 - start);
            acquire.record((t1 - t0) * 1000);
            timelineLatency.push((t1 - (rate === undefined ? t0 : intended)) * 1000);
            if (rate !== undefined) {
              corrected.record((t1 - intended) * 1000);
              uncorrected.record((t1 - t0) * 1000);
              startLag.record(Math.max(0, t0 - intended) * 1000);
            }
            if (lastRelease !== undefined && lastRelease.client !== i && t0 < lastRelease.at) {
              handoff.record((t1 - lastRelease.at) * 1000);
              lastRelease = undefined;
            }
            if (hooks.whileHeld !== undefined) await hooks.whileHeld(lease, c.role);
            if (holdMs > 0) await sleep(holdMs, observer === undefined ? signal : anyAbort(signal, lease.signal));
            checker.exit(c.role);
            const t2 = performance.now();
            observer?.releasing(i, t2, lease);
            lastRelease = { at: t2, client: i };
            try {
              await lease.release();
            } catch (e) {
              if (observer === undefined) throw e;
              await observer.failed(i, performance.now(), 'release', e);
              continue;
            }
            const t3 = performance.now();
            release.record((t3 - t2) * 1000);
            cycle.record((t1 - t0 + (t3 - t2)) * 1000);
          }
        }),
      );
    } finally {
      clearInterval(ticker);
      elapsedMs = performance.now() - start;
    }
    progress({ elapsedMs, acquisitions, perSec: (acquisitions * 1000) / elapsedMs, overlaps: checker.overlaps, phase: 'floor' });
    // A fault may have taken the floor's member (or its connections) away: the second half measures on new ones.
    const reconnectFloor = async (): Promise<void> => {
      await admin.waitConnected(signal === undefined ? {} : { signal });
      const at = firstEndpoint(admin.connectedServer ?? opts.connectString);
      await Promise.allSettled([raw?.close(), rawWatcher?.close()]);
      raw = await RawConnection.open(at.host, at.port, undefined, opts.security?.tls);
      rawWatcher = await RawConnection.open(at.host, at.port, undefined, opts.security?.tls);
    };
    if (observer !== undefined) {
      await observer.contentionEnded();
      await unlessStopped(signal, reconnectFloor);
    }
    if (withFloor) {
      await unlessStopped(signal, async () => {
        // After a fault the member those connections reach may still drop them (a restarted member closes
        // connections until it has rejoined, and the admin client may not have noticed it went away): measure again
        // on fresh connections, a few times at most. A round trip that completed before the drop is a good sample.
        for (let tries = 1; ; tries++) {
          try {
            return await measureFloor(raw!, rawWatcher!, floorDir, half, floor, 'b');
          } catch (e) {
            if (observer === undefined || tries === FLOOR_TRIES_AFTER_FAULTS || !(raw!.lost || rawWatcher!.lost)) throw e;
            await reconnectFloor();
          }
        }
      });
    }
  } catch (e) {
    if (!(e instanceof Stopped)) throw e;
  } finally {
    if (signal?.aborted === true) cleanup(`the floor connections and ${clients.length + 1} session(s) to close, ${path} and ${floorDir} to be removed`);
    await raw?.close().catch(() => {});
    await rawWatcher?.close().catch(() => {});
    await Promise.allSettled(clients.map((c) => c.close()));
    if (hooks.keepPath !== true) await admin.deleteRecursive(path).catch(() => {});
    if (withFloor) await admin.deleteRecursive(floorDir).catch(() => {});
    await admin.close();
  }
  progress({ elapsedMs, acquisitions, perSec: (acquisitions * 1000) / elapsedMs, overlaps: checker.overlaps, phase: 'done' });
  hooks.onSamples?.({ acquire, release, cycle, handoff, acquiredAtMs: acquiredAt, timelineLatencyUs: timelineLatency, openLoop: rate === undefined ? null : { corrected, uncorrected, startLag } });

  const s = {
    acquire: roundedSummary(acquire),
    release: roundedSummary(release),
    cycle: roundedSummary(cycle),
    handoff: roundedSummary(handoff),
  };
  const f = summarizeFloor(floor);
  return {
    benchmark: 'lock',
    interrupted: signal?.aborted === true,
    server,
    environment: { node: process.version, cpu: cpus()[0]?.model ?? 'unknown', cpus: cpus().length, platform: `${process.platform}-${process.arch}` },
    settings: {
      kind,
      clients: k,
      holdMs,
      leases: kind === 'semaphore' ? leases : null,
      durationS: durationS ?? null,
      iterations: iterations ?? null,
      ratePerSec: rate ?? null,
      floorSamples: f.ping.count,
      path,
    },
    elapsedMs: Math.round(elapsedMs),
    acquisitions,
    throughputPerSec: Math.round((acquisitions * 1000 * 10) / Math.max(1, elapsedMs)) / 10,
    overlaps: checker.overlaps,
    fencingViolations: checker.fencingViolations,
    perClient,
    ...s,
    floor: f,
    ratios: floorRatios(s, f),
    timeline: binTimeline(acquiredAt, elapsedMs, 50, 100, timelineLatency),
    histogram: { acquire: logHistogram(acquire.values(), 24), handoff: logHistogram(handoff.values(), 24) },
    openLoop: rate === undefined ? null : openLoopReport(),
  };

  function openLoopReport(): OpenLoopReport {
    const asked = rate!;
    // A run stopped by its signal is judged on the slots that fell due before the stop (and, for the ones it
    // must have started, before the stop less the grace), not on the whole schedule.
    const slotsBefore = (ms: number): number => Math.min(scheduled, Math.max(0, Math.ceil(ms / intervalMs)));
    const interrupted = signal?.aborted === true;
    const due = interrupted ? slotsBefore(elapsedMs) : scheduled;
    const missed = interrupted ? Math.max(0, slotsBefore(elapsedMs - LATE_START_GRACE_MS) - started) : scheduled - started;
    // Over the schedule's length at least: a run that kept up finishes it, one that fell behind takes longer.
    const achieved = (acquisitions * 1000) / Math.max(elapsedMs, due * intervalMs, 1);
    const round = (v: number): number => Math.round(v * 10) / 10;
    const summary = (h: LatencyHistogram): LatencyStats => {
      const x = h.summary();
      return { count: x.count, p50: round(x.p50), p90: round(x.p90), p99: round(x.p99), p999: round(x.p999), max: round(x.max), min: round(x.min), mean: round(x.mean) };
    };
    return {
      askedPerSec: asked,
      achievedPerSec: round(achieved),
      scheduled: due,
      started,
      missed,
      held: missed === 0 && achieved >= HELD_SHARE * asked,
      corrected: summary(corrected),
      uncorrected: summary(uncorrected),
      startLag: summary(startLag),
      precision: corrected.precision,
    };
  }
}
