/**
 * bench lock-scale, part 2 (target: "1,000 waiters on one lock hand off in order with no herd"): W
 * InterProcessMutex waiters queue on one path behind a holder, spread over S sessions, each waiter its own mutex
 * object. They queue one at a time — the next starts only once the previous one's watch on its predecessor is
 * set (its getData reply seen through onFrame) — so the queue order is known, and the sequence numbers confirm it.
 * Then the holder releases and each waiter releases as soon as it acquires: a chain of W hand-offs.
 *
 * Measured over the chain, from every session's frame trace: watch notifications (no herd means a deletion is heard
 * by a bounded number of sessions, whatever the queue's length: the lock's waiters watch at most their 8 nearest
 * blockers, plus the owner its own node, so at most 9 NodeDeleted per deleted node) and getChildren calls per
 * hand-off, and
 * every request by kind; acquisitions out of sequence order (must be 0; each waiter releases in the same tick it
 * acquires, so overlapping holders cannot be seen from here — bench lock's checker covers exclusion); the
 * hand-off latency (a release called → the next waiter's acquire resolved) and the chain's total time.
 */

import type { ZooKeeperClient } from '../../src/client.js';
import { InterProcessMutex, type Lease } from '../../src/index.js';
import { getChildrenCalls, type FrameCounter, type FrameCounts } from './frames.js';
import { LatencyRecorder, roundedSummary } from '../../src/tools/bench/recorder.js';
import type { LatencyStats } from '../../src/tools/shared/histogram.js';

export interface QueueOptions {
  /** Traced clients (their onFrame is `counter.listener`); waiter i queues through clients[i % length]. */
  clients: readonly ZooKeeperClient[];
  counter: FrameCounter;
  path: string;
  waiters: number;
  /** Give up queueing a waiter whose watch is not set after this long. Default 30 s. */
  queueTimeoutMs?: number;
  onProgress?: (line: string) => void;
}

export interface QueueReport {
  waiters: number;
  sessions: number;
  /** Acquisitions (W when all went through). */
  acquired: number;
  /** One per waiter: the holder's release wakes the first waiter, each waiter's release the next. */
  handoffs: number;
  /** Waiters whose node's sequence is not above the one queued before it (0 when queueing one by one worked). */
  queueOrderGaps: number;
  /** Acquisitions whose node was not the lowest sequence still waiting. Must be 0. */
  outOfOrder: number;
  queueMs: number;
  chainMs: number;
  handoff: LatencyStats;
  /**
   * Hand-offs of the first tenth of the chain (nearly all W still queued: each hand-off lists ~W children) and of
   * the last tenth (a short list): the listing grows with the queue, so the hand-off does too.
   */
  handoffFirstTenth: LatencyStats;
  handoffLastTenth: LatencyStats;
  frames: FrameCounts;
  perHandoff: { notifications: number; getChildren: number; requests: number; framesSent: number; framesReceived: number };
  targets: { inOrder: boolean; notificationsPerHandoffAtMost: number; noHerd: boolean; getChildrenPerHandoffAtMost: number; getChildrenMet: boolean; met: boolean };
}

/** "About one" per hand-off: a stray extra event or look now and then is not a herd; a herd is ~W/2 per hand-off. */
export const PER_HANDOFF_TARGET = 1.05;
/** Most sessions one deletion may notify: the 8 nearest waiters that watch it, and its owner (see the recipe's internals). */
export const HERD_BOUND = 9;

export function sequenceOf(node: string): number {
  const m = /(\d{10})$/.exec(node);
  if (m === null) throw new Error(`not a sequential node: ${node}`);
  return Number(m[1]);
}

/** Positions where the acquisition order differs from ascending sequence order. */
export function countOutOfOrder(sequencesInAcquisitionOrder: readonly number[]): number {
  const sorted = [...sequencesInAcquisitionOrder].sort((a, b) => a - b);
  let n = 0;
  for (let i = 0; i < sorted.length; i++) if (sorted[i] !== sequencesInAcquisitionOrder[i]) n++;
  return n;
}

const round2 = (v: number): number => Math.round(v * 100) / 100;

export async function runQueue(opts: QueueOptions): Promise<QueueReport> {
  const { clients, counter, path, waiters } = opts;
  const say = opts.onProgress ?? (() => {});
  const timeoutMs = opts.queueTimeoutMs ?? 30_000;

  const holder = await new InterProcessMutex(clients[0]!, path).acquire();
  const handoff = new LatencyRecorder();
  const acquiredSeq: number[] = [];
  let lastReleaseAt = 0;
  const done: Promise<void>[] = [];
  const leases: (Lease | undefined)[] = [];

  // Queue one at a time: each waiter's acquire sends create + getChildren, then a watched getData on the node
  // ahead; that getData's reply is the moment it is queued.
  const tQueue = performance.now();
  for (let i = 0; i < waiters; i++) {
    const mutex = new InterProcessMutex(clients[i % clients.length]!, path);
    const queued = opts.counter.untilGetDataReplies(counter.getDataReplies + 1);
    done.push(
      mutex.acquire().then(async (lease) => {
        const now = performance.now();
        handoff.record((now - lastReleaseAt) * 1000);
        acquiredSeq.push(sequenceOf(lease.node));
        leases[i] = lease;
        lastReleaseAt = performance.now();
        await lease.release();
      }),
    );
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`waiter ${i} not queued after ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      await Promise.race([queued, late]);
    } finally {
      clearTimeout(timer);
    }
    if ((i + 1) % 250 === 0) say(`queued ${i + 1}/${waiters} waiters`);
  }
  const queueMs = performance.now() - tQueue;

  counter.start();
  const tChain = performance.now();
  lastReleaseAt = tChain;
  await holder.release();
  await Promise.all(done);
  const chainMs = performance.now() - tChain;
  const frames = counter.stop();

  // Queued one by one, waiter i's node must have a higher sequence than waiter i-1's (and the holder's).
  let queueOrderGaps = 0;
  let before = sequenceOf(holder.node);
  for (const lease of leases) {
    const seq = lease === undefined ? undefined : sequenceOf(lease.node);
    if (seq === undefined || seq <= before) queueOrderGaps++;
    if (seq !== undefined) before = seq;
  }

  const handoffs = waiters;
  const per = (n: number): number => round2(n / Math.max(1, handoffs));
  const perHandoff = {
    notifications: per(frames.notificationsTotal),
    getChildren: per(getChildrenCalls(frames)),
    requests: per(Object.values(frames.requests).reduce((a, b) => a + b, 0)),
    framesSent: per(frames.framesSent),
    framesReceived: per(frames.framesReceived),
  };
  const outOfOrder = countOutOfOrder(acquiredSeq) + (waiters - acquiredSeq.length);
  const inOrder = outOfOrder === 0 && acquiredSeq.length === waiters;
  const noHerd = frames.maxNotificationsPerPath <= HERD_BOUND;
  const getChildrenMet = perHandoff.getChildren <= PER_HANDOFF_TARGET;
  return {
    waiters,
    sessions: clients.length,
    acquired: acquiredSeq.length,
    handoffs,
    queueOrderGaps,
    outOfOrder,
    queueMs: Math.round(queueMs),
    chainMs: Math.round(chainMs),
    handoff: roundedSummary(handoff),
    handoffFirstTenth: roundedSummary(slice(handoff, 0, Math.ceil(handoff.count / 10))),
    handoffLastTenth: roundedSummary(slice(handoff, handoff.count - Math.ceil(handoff.count / 10), handoff.count)),
    frames,
    perHandoff,
    targets: {
      inOrder,
      notificationsPerHandoffAtMost: HERD_BOUND,
      noHerd,
      getChildrenPerHandoffAtMost: PER_HANDOFF_TARGET,
      getChildrenMet,
      met: inOrder && noHerd && getChildrenMet,
    },
  };
}

function slice(rec: LatencyRecorder, from: number, to: number): LatencyRecorder {
  const out = new LatencyRecorder();
  for (const v of rec.values().subarray(Math.max(0, from), Math.max(0, to))) out.record(v);
  return out;
}
