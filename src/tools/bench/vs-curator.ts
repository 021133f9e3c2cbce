/**
 * `bench lock --vs curator`: the same lock workloads through zkwire and through Apache Curator 5.x (a child JVM),
 * against one ZooKeeper in one run. Each workload runs in interleaved rounds (zkwire, Curator, then Curator, zkwire,
 * …) so drift on a shared machine hits both sides; the report gives every round and, per figure, the median of each
 * side and the ratio zkwire / Curator. Every lock path lives under one root per run, removed at the end.
 */

import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { connectNode } from './connect.js';
import { curatorRound, type CuratorProgram } from './curator-round.js';
import { serverInfo, type ServerInfo } from './server-info.js';
import { vsFigures, roundRate, type SideRounds, type VsFigure } from './vs-figures.js';
import { VS_SEMAPHORE_LEASES, VS_SESSIONS, WORKLOADS, zkwireRound, type RoundFigures, type Workload } from './vs-round.js';

/** A side of the comparison. */
export type Side = 'zkwire' | 'curator';

/** What runLockVsCurator runs against, how long, and whom it tells. */
export interface VsCuratorOptions {
  connectString: string;
  /** From prepareCurator(). */
  program: CuratorProgram;
  /** Rounds per workload and side. Default 3. */
  rounds?: number;
  /** Seconds per round. Default 5. */
  seconds?: number;
  /** Where the lock paths go; default a fresh /zkwire-bench/vs-curator-<uuid>. Removed at the end. */
  root?: string;
  /**
   * Stops the run: the rounds in flight end early (the Curator JVM is told to stop, and killed if it does not),
   * the root is removed, and the report, marked `interrupted`, covers the rounds that measured something.
   */
  signal?: AbortSignal;
  /** One line per round and per step (JVM pids included), for stderr. */
  onProgress?: (line: string) => void;
  /** Told each clean-up step after an interrupt, before it is waited for. */
  onCleanup?: (what: string) => void;
}

/** Everything a run measured: the table's medians and ratios, every round behind them, and where it ran. */
export interface VsCuratorReport {
  benchmark: 'lock-vs-curator';
  interrupted: boolean;
  server: ServerInfo;
  environment: { node: string; cpu: string; cpus: number; platform: string; loadAverage: number[] };
  settings: { rounds: number; seconds: number; sessions: number; semaphoreLeases: number; root: string; curatorClasspath: string };
  /** Medians and ratios, in table order. */
  figures: VsFigure[];
  /** Every round of each side, per workload, in the order run. */
  rounds: Record<Side, SideRounds>;
}

const noRounds = (): SideRounds => ({ uncontended: [], contended: [], 'read-write': [], semaphore: [] });

/** Runs every workload on both sides; see VsCuratorOptions. */
export async function runLockVsCurator(opts: VsCuratorOptions): Promise<VsCuratorReport> {
  const rounds = opts.rounds ?? 3;
  const seconds = opts.seconds ?? 5;
  const root = opts.root ?? `/zkwire-bench/vs-curator-${randomUUID()}`;
  const { signal } = opts;
  const progress = opts.onProgress ?? (() => {});
  const stopped = (): boolean => signal?.aborted === true;
  const results: Record<Side, SideRounds> = { zkwire: noRounds(), curator: noRounds() };
  const server = await serverInfo(opts.connectString);
  const admin = await connectNode(opts.connectString, signal === undefined ? {} : { signal });
  let n = 0;
  const run = (side: Side, workload: Workload, secs: number): Promise<RoundFigures> => {
    const base = { connectString: opts.connectString, workload, seconds: secs, lockPath: `${root}/${side}-${workload}-${++n}`, signal };
    if (side === 'zkwire') return zkwireRound(base);
    return curatorRound(opts.program, { ...base, onStart: (pid) => progress(`${workload} Curator JVM started (pid ${pid})`) });
  };
  try {
    // warm-up: the server, and the JIT on both sides
    const warm = Math.min(1, seconds);
    progress(`warming up (${warm} s each side)`);
    for (const side of ['zkwire', 'curator'] as const) if (!stopped()) await run(side, 'contended', warm);
    for (const workload of WORKLOADS) {
      for (let r = 0; r < rounds && !stopped(); r++) {
        const order: readonly Side[] = r % 2 === 0 ? ['zkwire', 'curator'] : ['curator', 'zkwire'];
        for (const side of order) {
          if (stopped()) break;
          const figures = await run(side, workload, seconds);
          // a round stopped before its first acquisition measured nothing
          if (figures.acquisitions > 0) results[side][workload].push(figures);
          progress(`${workload} round ${r + 1} ${side === 'zkwire' ? 'zkwire' : 'Curator'}: ${Math.round(roundRate(figures))} acquisitions/s${stopped() ? ' (stopped early)' : ''}`);
        }
      }
    }
  } finally {
    if (stopped()) opts.onCleanup?.(`the session to close and ${root} to be removed`);
    await admin.deleteRecursive(root).catch(() => {});
    await admin.close();
  }
  return {
    benchmark: 'lock-vs-curator',
    interrupted: stopped(),
    server,
    environment: {
      node: process.version,
      cpu: os.cpus()[0]?.model ?? 'unknown',
      cpus: os.cpus().length,
      platform: `${process.platform}-${process.arch}`,
      loadAverage: os.loadavg().map((l) => Math.round(l * 100) / 100),
    },
    settings: { rounds, seconds, sessions: VS_SESSIONS, semaphoreLeases: VS_SEMAPHORE_LEASES, root, curatorClasspath: opts.program.classpath },
    figures: vsFigures(results.zkwire, results.curator),
    rounds: results,
  };
}
