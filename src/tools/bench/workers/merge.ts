/**
 * The coordinator's half of a multi-process run: the workers' results merged into the one LockReport the
 * single-process bench prints. Counts add up; latencies come from the merged histograms (within their 1%, where
 * the single-process report's are exact); the floors are the coordinator's own.
 */

import { LatencyHistogram, type Bin } from '../../shared/histogram.js';
import type { FloorSummaries } from '../floor.js';
import { floorRatios, HELD_SHARE, type LockReport, type OpenLoopReport } from '../lock-bench.js';
import type { LatencyStats } from '../../shared/histogram.js';
import { BinnedTimeline } from './binned-timeline.js';
import type { ProcessesReport } from './processes-report.js';
import type { ReadResult } from './worker-result.js';

const round = (v: number): number => Math.round(v * 10) / 10;

function summary(h: LatencyHistogram): LatencyStats {
  const x = h.summary();
  return { count: x.count, p50: round(x.p50), p90: round(x.p90), p99: round(x.p99), p999: round(x.p999), max: round(x.max), min: round(x.min), mean: round(x.mean) };
}

function mergeAll(hs: readonly LatencyHistogram[], precision = 0.01): LatencyHistogram {
  const out = new LatencyHistogram(precision);
  for (const h of hs) out.merge(h);
  return out;
}

/** `n` log-spaced bins from the least to the greatest sample, each bucket's count placed at its middle (as logHistogram bins samples). */
export function logBinsOf(h: LatencyHistogram, n: number): Bin[] {
  const s = h.summary();
  if (s.count === 0) return [];
  const lo = Math.log10(Math.max(s.min, 0.1));
  const hi = Math.log10(Math.max(s.max, 0.1));
  const span = hi - lo;
  const bins = span === 0 ? 1 : n;
  const out: Bin[] = Array.from({ length: bins }, (_, i) => ({ lo: 10 ** (lo + (span * i) / bins), hi: 10 ** (lo + (span * (i + 1)) / bins), count: 0 }));
  for (const b of h.bins()) {
    const middle = Math.min(s.max, Math.max(s.min, b.lo === 0 ? s.min : Math.sqrt(b.lo * b.hi)));
    const v = Math.log10(Math.max(middle, 0.1));
    out[span === 0 ? 0 : Math.min(bins - 1, Math.max(0, Math.floor(((v - lo) / span) * bins)))]!.count += b.count;
  }
  return out;
}

export interface MergeContext {
  server: LockReport['server'];
  environment: LockReport['environment'];
  settings: LockReport['settings'];
  floor: FloorSummaries;
  processes: ProcessesReport;
}

export function mergeResults(results: readonly ReadResult[], ctx: MergeContext): LockReport {
  const acquisitions = results.reduce((n, r) => n + r.acquisitions, 0);
  const elapsedMs = Math.max(0, ...results.map((r) => r.elapsedMs));
  const lat = (key: keyof ReadResult['latency']): LatencyHistogram => mergeAll(results.map((r) => r.latency[key]));
  const acquire = lat('acquire');
  const handoff = lat('handoff');
  const s = { acquire: summary(acquire), release: summary(lat('release')), cycle: summary(lat('cycle')), handoff: summary(handoff) };
  const f = ctx.processes.fencing;
  return {
    benchmark: 'lock',
    interrupted: false,
    server: ctx.server,
    environment: ctx.environment,
    settings: ctx.settings,
    elapsedMs: Math.round(elapsedMs),
    acquisitions,
    throughputPerSec: Math.round((acquisitions * 1000 * 10) / Math.max(1, elapsedMs)) / 10,
    overlaps: results.reduce((n, r) => n + r.overlaps, 0),
    fencingViolations: results.reduce((n, r) => n + r.fencingViolations, 0) + f.versionConflicts + f.tokensBackwards,
    perClient: results.flatMap((r) => r.perClient),
    ...s,
    floor: ctx.floor,
    ratios: floorRatios(s, ctx.floor),
    timeline: BinnedTimeline.merge(
      results.map((r) => r.timeline),
      elapsedMs,
    ),
    histogram: { acquire: logBinsOf(acquire, 24), handoff: logBinsOf(handoff, 24) },
    openLoop: ctx.settings.ratePerSec === null ? null : mergeOpenLoop(results, ctx.settings.ratePerSec, acquisitions, elapsedMs),
    processes: ctx.processes,
  };
}

function mergeOpenLoop(results: readonly ReadResult[], asked: number, acquisitions: number, elapsedMs: number): OpenLoopReport {
  const parts = results.flatMap((r) => (r.openLoop === null ? [] : [r.openLoop]));
  const scheduled = parts.reduce((n, o) => n + o.scheduled, 0);
  const started = parts.reduce((n, o) => n + o.started, 0);
  const missed = parts.reduce((n, o) => n + o.missed, 0);
  const achieved = (acquisitions * 1000) / Math.max(elapsedMs, (scheduled * 1000) / asked, 1);
  const corrected = mergeAll(parts.map((o) => o.corrected));
  return {
    askedPerSec: asked,
    achievedPerSec: round(achieved),
    scheduled,
    started,
    missed,
    held: missed === 0 && achieved >= HELD_SHARE * asked,
    corrected: summary(corrected),
    uncorrected: summary(mergeAll(parts.map((o) => o.uncorrected))),
    startLag: summary(mergeAll(parts.map((o) => o.startLag))),
    precision: corrected.precision,
  };
}
