/**
 * bench lock-scale: the two lock scaling targets, against one server.
 *   1. held locks — uncontended acquire/release latency while the process holds 0 … 5 000 other locks
 *      (held.ts);
 *   2. a long queue — W waiters on one lock, handed off one to the next, counted through every session's frame
 *      trace for order and herd (queue.ts), next to the delete + getChildren floor.
 * Each part runs on its own sessions and its own directory under /zkwire-bench, removed afterwards.
 */

import { randomUUID } from 'node:crypto';
import { cpus } from 'node:os';
import { describeFrames, ZooKeeperClient, type ClientOptions } from '../../src/node.js';
import { CreateFlags, OpCode } from '../../src/protocol/index.js';
import { runHeldLocks, type HeldReport } from './held.js';
import { FrameCounter } from './frames.js';
import { runQueue, type QueueReport } from './queue.js';
import { RawConnection } from '../../src/tools/bench/raw-client.js';
import { LatencyRecorder, roundedSummary } from '../../src/tools/bench/recorder.js';
import type { LatencyStats } from '../../src/tools/shared/histogram.js';
import { firstEndpoint, serverInfo, type ServerInfo } from '../../src/tools/bench/server-info.js';

export interface LockScaleOptions {
  connectString: string;
  /** Held-lock levels; default 0, 100, 1 000, 5 000. Empty skips part 1. */
  levels?: readonly number[];
  /** Acquire/release cycles per level. Default 1 000. */
  samples?: number;
  /** Clients besides the measuring one that hold locks. Default 3. */
  otherClients?: number;
  /** Waiters in the queue; 0 skips part 2. Default 1 000. */
  waiters?: number;
  /** Sessions the waiters are spread over. Default 50. */
  sessions?: number;
  /** Untimed acquire/release cycles and floor creates before part 1 measures. Default 1 000. */
  warmup?: number;
  /** Floor samples for part 2 (delete + getChildren). Default 500. */
  floorSamples?: number;
  onProgress?: (line: string) => void;
}

export interface QueuePart extends QueueReport {
  /**
   * delete + getChildren on a bare socket, listing a directory of one child (the end of the chain) and of W
   * children (its start: a waiter's getChildren returns the whole queue).
   */
  floor: { deleteGetChildren: LatencyStats; deleteGetChildrenFull: LatencyStats };
  /** p50 ratios (informational): the chain's first tenth to the full-directory floor, its last tenth to the small one. */
  firstTenthToFullFloor: number;
  lastTenthToFloor: number;
}

export interface LockScaleReport {
  benchmark: 'lock-scale';
  server: ServerInfo;
  environment: { node: string; cpu: string; cpus: number; platform: string };
  settings: { levels: number[]; samples: number; otherClients: number; waiters: number; sessions: number; floorSamples: number };
  held: HeldReport | null;
  queue: QueuePart | null;
  /** Every target that ran was met. */
  met: boolean;
}

async function connectAll(connectString: string, n: number, onFrame?: FrameCounter): Promise<ZooKeeperClient[]> {
  // describeFrames follows one session's connections: each client gets its own around the shared counter.
  const opts = (): ClientOptions => (onFrame === undefined ? {} : { onFrame: describeFrames(onFrame.listener) });
  const settled = await Promise.allSettled(Array.from({ length: n }, () => ZooKeeperClient.connect(connectString, opts())));
  const ok = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = settled.find((s) => s.status === 'rejected');
  if (failed !== undefined) {
    await closeAll(ok);
    throw failed.reason;
  }
  return ok;
}

async function closeAll(clients: readonly ZooKeeperClient[]): Promise<void> {
  await Promise.allSettled(clients.map((c) => c.close()));
}

/** delete + getChildren on a bare socket: the two round trips one hand-off needs at least. */
async function floorDeleteGetChildren(raw: RawConnection, dir: string, n: number, rec: LatencyRecorder): Promise<void> {
  const children = RawConnection.template(OpCode.getChildren, { path: dir, watch: false });
  for (let i = 0; i < n; i++) {
    const path = `${dir}/dg-${i}`;
    await raw.create(path, 1 /* ephemeral */);
    const t = performance.now();
    await raw.delete(path);
    await raw.roundTrip(children);
    rec.since(t);
  }
}

export async function runLockScale(opts: LockScaleOptions): Promise<LockScaleReport> {
  const levels = [...(opts.levels ?? [0, 100, 1000, 5000])];
  const samples = opts.samples ?? 1000;
  const otherClients = opts.otherClients ?? 3;
  const waiters = opts.waiters ?? 1000;
  const sessions = Math.max(1, Math.min(opts.sessions ?? 50, Math.max(1, waiters)));
  const floorSamples = opts.floorSamples ?? 500;
  const say = opts.onProgress ?? (() => {});
  const run = randomUUID();
  const base = `/zkwire-bench/scale-${run}`;

  const server = await serverInfo(opts.connectString);
  const { host, port } = firstEndpoint(opts.connectString);
  const admin = await ZooKeeperClient.connect(opts.connectString);
  let held: HeldReport | null = null;
  let queue: QueuePart | null = null;
  try {
    await admin.mkdirp(`${base}/held`, { containers: true });

    if (levels.length > 0) {
      say(`part 1: uncontended acquire while holding ${levels.join(', ')} other locks`);
      const clients = await connectAll(opts.connectString, 1 + otherClients);
      const raw = await RawConnection.open(host, port);
      try {
        held = await runHeldLocks({
          measuring: clients[0]!,
          others: clients.slice(1),
          raw,
          dir: base,
          levels,
          samples,
          rounds: 10,
          warmup: opts.warmup ?? 1000,
          window: 64,
          onProgress: say,
        });
      } finally {
        await raw.close().catch(() => {});
        await closeAll(clients);
      }
    }

    if (waiters > 0) {
      say(`part 2: ${waiters} waiters on one lock over ${sessions} sessions`);
      const counter = new FrameCounter();
      const clients = await connectAll(opts.connectString, sessions, counter);
      const raw = await RawConnection.open(host, port);
      try {
        const floor = new LatencyRecorder();
        const floorFull = new LatencyRecorder();
        const floorDir = `${base}/floor`;
        const fullDir = `${base}/floor-full`;
        await admin.mkdirp(floorDir);
        await admin.mkdirp(fullDir);
        // Fillers named like lock nodes, so the listing is as many bytes as the queue's.
        for (let i = 0; i < waiters; i++) await raw.create(`${fullDir}/_c_${randomUUID()}-lock-`, CreateFlags.ephemeralSequential);
        const half = Math.max(1, Math.floor(floorSamples / 2));
        const measureFloor = async (): Promise<void> => {
          await floorDeleteGetChildren(raw, floorDir, half, floor);
          await floorDeleteGetChildren(raw, fullDir, half, floorFull);
        };
        await measureFloor();
        const q = await runQueue({ clients, counter, path: `${base}/queue`, waiters, onProgress: say });
        await measureFloor();
        const f = roundedSummary(floor);
        const full = roundedSummary(floorFull);
        const r = (a: number, b: number): number => (a > 0 && b > 0 ? Math.round((a / b) * 1000) / 1000 : 0);
        queue = {
          ...q,
          floor: { deleteGetChildren: f, deleteGetChildrenFull: full },
          firstTenthToFullFloor: r(q.handoffFirstTenth.p50, full.p50),
          lastTenthToFloor: r(q.handoffLastTenth.p50, f.p50),
        };
      } finally {
        await raw.close().catch(() => {});
        await closeAll(clients);
      }
    }
  } finally {
    await admin.deleteRecursive(base).catch(() => {});
    await admin.close();
  }

  return {
    benchmark: 'lock-scale',
    server,
    environment: { node: process.version, cpu: cpus()[0]?.model ?? 'unknown', cpus: cpus().length, platform: `${process.platform}-${process.arch}` },
    settings: { levels: held?.levels.filter((l) => l.phase === 'before').map((l) => l.held) ?? [], samples, otherClients, waiters, sessions, floorSamples },
    held,
    queue,
    met: (held?.target.met ?? true) && (queue?.targets.met ?? true),
  };
}
