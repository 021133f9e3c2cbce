/**
 * The side-by-side figures of `bench lock --vs curator`: for each figure, the median over the rounds of each side and
 * the ratio zkwire / Curator. Latencies are better below 1×, rates above.
 */

import { VS_SEMAPHORE_LEASES, VS_SESSIONS, type RoundFigures, type Workload } from './vs-round.js';

/** Each side's rounds, per workload, in the order they ran. */
export type SideRounds = Record<Workload, RoundFigures[]>;

/** One row of the comparison. */
export interface VsFigure {
  figure: string;
  workload: Workload;
  /** `us`: a latency in microseconds (lower is better); `per-s`: acquisitions per second (higher is better). */
  unit: 'us' | 'per-s';
  /** Medians over the rounds; null when that side has no round (or the figure had no samples). */
  zkwire: number | null;
  curator: number | null;
  /** zkwire / Curator, 3 decimals; null when either side is missing. */
  ratio: number | null;
}

/** The median, or null for no values. */
export function median(xs: readonly number[]): number | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** Acquisitions per second of a round. */
export function roundRate(r: RoundFigures): number {
  return r.elapsedMs > 0 ? (r.acquisitions * 1000) / r.elapsedMs : 0;
}

interface FigureSpec {
  figure: string;
  workload: Workload;
  unit: 'us' | 'per-s';
  /** The round's value, or undefined when the round has no samples for it. */
  pick: (r: RoundFigures) => number | undefined;
}

const latency =
  (key: 'acquire' | 'cycle' | 'handoff', p: 'p50' | 'p99') =>
  (r: RoundFigures): number | undefined =>
    r[key].count > 0 ? r[key][p] : undefined;
const rate = (r: RoundFigures): number | undefined => (r.acquisitions > 0 ? roundRate(r) : undefined);

/** The figures, in table order. */
export const VS_FIGURES: readonly FigureSpec[] = [
  { figure: 'uncontended acquire p50', workload: 'uncontended', unit: 'us', pick: latency('acquire', 'p50') },
  { figure: 'uncontended cycle p50', workload: 'uncontended', unit: 'us', pick: latency('cycle', 'p50') },
  { figure: 'uncontended cycle p99', workload: 'uncontended', unit: 'us', pick: latency('cycle', 'p99') },
  { figure: `contended acquisitions/s (${VS_SESSIONS} sessions)`, workload: 'contended', unit: 'per-s', pick: rate },
  { figure: `hand-off p50 (${VS_SESSIONS} sessions)`, workload: 'contended', unit: 'us', pick: latency('handoff', 'p50') },
  { figure: `hand-off p99 (${VS_SESSIONS} sessions)`, workload: 'contended', unit: 'us', pick: latency('handoff', 'p99') },
  { figure: `read/write acquisitions/s (${VS_SESSIONS - 1} readers, 1 writer)`, workload: 'read-write', unit: 'per-s', pick: rate },
  {
    figure: `semaphore acquisitions/s (${VS_SESSIONS} sessions, ${VS_SEMAPHORE_LEASES} leases)`,
    workload: 'semaphore',
    unit: 'per-s',
    pick: rate,
  },
];

/** Medians and ratios of every figure over the rounds both sides ran. */
export function vsFigures(zkwire: SideRounds, curator: SideRounds): VsFigure[] {
  return VS_FIGURES.map(({ figure, workload, unit, pick }) => {
    const med = (rounds: readonly RoundFigures[]): number | null => {
      const m = median(rounds.map(pick).filter((v): v is number => v !== undefined));
      return m === null ? null : Math.round(m * 10) / 10;
    };
    const z = med(zkwire[workload]);
    const c = med(curator[workload]);
    const ratio = z !== null && c !== null && c > 0 ? Math.round((z / c) * 1000) / 1000 : null;
    return { figure, workload, unit, zkwire: z, curator: c, ratio };
  });
}
