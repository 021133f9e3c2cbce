/**
 * What a worker writes into its result znode when it is done, and how it is read back: counts as numbers,
 * latencies as serialised LatencyHistograms (bounded, mergeable), the timeline binned (BinnedTimeline). A result is
 * a few tens of KB whatever the run's length; one that would not fit in a znode is refused before it is written.
 */

import { LatencyHistogram, type SerializedHistogram } from '../../shared/histogram.js';
import type { LockReport, LockSamples } from '../lock-bench.js';
import { BinnedTimeline, type SerializedTimeline } from './binned-timeline.js';
import { BenchRunError } from './errors.js';
import type { CrossProcessFencing } from './processes-report.js';

/** Under ZooKeeper's default jute.maxbuffer (1 MB, less the request's own fields). */
export const MAX_RESULT_BYTES = 1_000_000;

type Latencies<T> = { acquire: T; release: T; cycle: T; handoff: T };

export interface WorkerResult {
  version: 1;
  host: string;
  pid: number;
  sessions: number;
  elapsedMs: number;
  acquisitions: number;
  perClient: number[];
  /** The in-process check among this worker's own sessions. */
  overlaps: number;
  fencingViolations: number;
  fencing: CrossProcessFencing;
  errors: Record<string, number>;
  latency: Latencies<SerializedHistogram>;
  openLoop: { scheduled: number; started: number; missed: number; corrected: SerializedHistogram; uncorrected: SerializedHistogram; startLag: SerializedHistogram } | null;
  timeline: SerializedTimeline;
}

/** A recorder's exact samples in a bounded histogram (within 1%), the form that merges across processes. */
function bucketed(values: ArrayLike<number>): LatencyHistogram {
  const h = new LatencyHistogram();
  for (let i = 0; i < values.length; i++) h.record(values[i]!);
  return h;
}

export function workerResult(
  who: { host: string; pid: number; sessions: number },
  report: LockReport,
  samples: LockSamples,
  fencing: CrossProcessFencing,
  errors: Record<string, number>,
  timelineBinMs: number,
): WorkerResult {
  const o = report.openLoop;
  return {
    version: 1,
    ...who,
    elapsedMs: report.elapsedMs,
    acquisitions: report.acquisitions,
    perClient: report.perClient,
    overlaps: report.overlaps,
    fencingViolations: report.fencingViolations,
    fencing,
    errors,
    latency: {
      acquire: bucketed(samples.acquire.values()).serialize(),
      release: bucketed(samples.release.values()).serialize(),
      cycle: bucketed(samples.cycle.values()).serialize(),
      handoff: bucketed(samples.handoff.values()).serialize(),
    },
    openLoop:
      o === null || samples.openLoop === null
        ? null
        : { scheduled: o.scheduled, started: o.started, missed: o.missed, corrected: samples.openLoop.corrected.serialize(), uncorrected: samples.openLoop.uncorrected.serialize(), startLag: samples.openLoop.startLag.serialize() },
    timeline: BinnedTimeline.of(samples.acquiredAtMs, samples.timelineLatencyUs, timelineBinMs).serialize(),
  };
}

export function encodeResult(r: WorkerResult): Uint8Array {
  const bytes = new TextEncoder().encode(JSON.stringify(r));
  if (bytes.length > MAX_RESULT_BYTES) throw new BenchRunError('RESULT_TOO_LARGE', `the worker's result is ${bytes.length} bytes, more than a znode holds (${MAX_RESULT_BYTES})`);
  return bytes;
}

/** A result read back, its histograms ready to merge. */
export interface ReadResult extends Omit<WorkerResult, 'latency' | 'openLoop' | 'timeline'> {
  latency: Latencies<LatencyHistogram>;
  openLoop: { scheduled: number; started: number; missed: number; corrected: LatencyHistogram; uncorrected: LatencyHistogram; startLag: LatencyHistogram } | null;
  timeline: BinnedTimeline;
}

export function decodeResult(data: Uint8Array, path: string): ReadResult {
  try {
    const r = JSON.parse(new TextDecoder().decode(data)) as WorkerResult;
    if (r.version !== 1) throw new Error(`version ${String(r.version)}`);
    const d = LatencyHistogram.deserialize;
    const o = r.openLoop;
    return {
      ...r,
      latency: { acquire: d(r.latency.acquire), release: d(r.latency.release), cycle: d(r.latency.cycle), handoff: d(r.latency.handoff) },
      openLoop: o === null ? null : { ...o, corrected: d(o.corrected), uncorrected: d(o.uncorrected), startLag: d(o.startLag) },
      timeline: BinnedTimeline.deserialize(r.timeline),
    };
  } catch (e) {
    throw new BenchRunError('BAD_RUN', `${path} does not hold a bench worker's result: ${(e as Error).message}`);
  }
}
