/**
 * bench lock-scale, optional part 3: where a contended hand-off's time goes. K sessions loop on one mutex as in
 * bench lock (acquire, release at once, queue again), every session traced through onFrame with the
 * process's high-resolution clock, and each hand-off cut into segments:
 *
 *   release() called → the holder's delete written              (client: release bookkeeping)
 *   delete written   → the successor reads its NodeDeleted       (server: the delete's commit, plus the wire)
 *   NodeDeleted read → the successor's getChildren written       (client: waking the waiter)
 *   getChildren written → its reply read                          (server: the listing, plus the wire)
 *   reply read       → the successor's acquire() resolves         (client: sort, decide, build the lease)
 *
 * with the requests and notifications per acquisition, next to the delete + getChildren floor measured on a bare
 * socket before and after. Tracing decodes every frame, so the untraced hand-off is measured too, in
 * alternating rounds, to show what the tracing itself costs.
 */

import { randomUUID } from 'node:crypto';
import { ZooKeeperClient } from '../../src/node.js';
import { OpCode } from '../../src/protocol/index.js';
import { InterProcessMutex } from '../../src/index.js';
import { describeFrames, type DescribedFrameTrace } from '../../src/session/describe-frames.js';
import { RawConnection } from '../../src/tools/bench/raw-client.js';
import { LatencyRecorder, roundedSummary } from '../../src/tools/bench/recorder.js';
import type { LatencyStats } from '../../src/tools/shared/histogram.js';
import { firstEndpoint } from '../../src/tools/bench/server-info.js';

export interface HandoffOptions {
  connectString: string;
  sessions: number;
  /** Seconds per round; rounds alternate traced and untraced. */
  roundS: number;
  rounds: number;
  floorSamples: number;
  /**
   * Pause after each release before queueing again (default 0, as bench lock). A pause of a few ms keeps the
   * releaser's re-queue (create2 + getChildren, then getData) off the server while the next hand-off runs.
   */
  requeueDelayMs?: number;
}

export const SEGMENTS = ['release→delete sent', 'delete sent→NodeDeleted read', 'NodeDeleted→getChildren sent', 'getChildren round trip', 'reply→acquired'] as const;
export type Segment = (typeof SEGMENTS)[number];

export interface HandoffReport {
  sessions: number;
  requeueDelayMs: number;
  handoffTraced: LatencyStats;
  handoffUntraced: LatencyStats;
  /** p50 of each segment over the traced hand-offs that could be cut (µs). */
  segments: Record<Segment, LatencyStats>;
  /** Traced rounds: requests per acquisition by operation, notifications per acquisition. */
  perAcquisition: { requests: Record<string, number>; notifications: number; acquisitions: number };
  floor: { deleteGetChildren: LatencyStats; getChildren: LatencyStats; delete: LatencyStats };
  /** untraced hand-off p50 ÷ floor delete + getChildren p50. */
  untracedToFloor: number;
}

interface Seen {
  at: number;
  dir: 'c2s' | 's2c';
  kind: string;
  op: string | undefined;
}

/** First index in `log` with `at >= t` (log is in time order). */
function firstAtOrAfter(log: readonly Seen[], t: number): number {
  let lo = 0;
  let hi = log.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (log[mid]!.at < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function find(log: readonly Seen[], from: number, ok: (s: Seen) => boolean): Seen | undefined {
  for (let i = firstAtOrAfter(log, from); i < log.length; i++) if (ok(log[i]!)) return log[i];
  return undefined;
}

export async function runHandoffAnalysis(opts: HandoffOptions): Promise<HandoffReport> {
  const k = Math.max(2, opts.sessions);
  const requeueDelayMs = opts.requeueDelayMs ?? 0;
  const run = randomUUID();
  const path = `/zkwire-bench/handoff-${run}`;
  const floorDir = `/zkwire-bench/handoff-floor-${run}`;
  const { host, port } = firstEndpoint(opts.connectString);
  const logs: Seen[][] = Array.from({ length: k }, () => []);
  let tracing = false;
  const clients = await Promise.all(
    logs.map((log) =>
      ZooKeeperClient.connect(opts.connectString, {
        onFrame: describeFrames((t: DescribedFrameTrace) => {
          if (tracing) log.push({ at: performance.now(), dir: t.dir, kind: t.frame.kind, op: t.frame.op });
        }),
      }),
    ),
  );
  const admin = await ZooKeeperClient.connect(opts.connectString);
  const raw = await RawConnection.open(host, port);
  const floor = { deleteGetChildren: new LatencyRecorder(), getChildren: new LatencyRecorder(), delete: new LatencyRecorder() };
  const traced = new LatencyRecorder();
  const untraced = new LatencyRecorder();
  const segments = Object.fromEntries(SEGMENTS.map((s) => [s, new LatencyRecorder()])) as Record<Segment, LatencyRecorder>;
  const requests = new Map<string, number>();
  let notifications = 0;
  let tracedAcquisitions = 0;

  const measureFloor = async (n: number): Promise<void> => {
    const children = RawConnection.template(OpCode.getChildren, { path: floorDir, watch: false });
    for (let i = 0; i < n; i++) {
      const node = `${floorDir}/dg-${i}`;
      await raw.create(node, 1 /* ephemeral */);
      const t0 = performance.now();
      await raw.delete(node);
      const t1 = performance.now();
      await raw.roundTrip(children);
      const t2 = performance.now();
      floor.delete.record((t1 - t0) * 1000);
      floor.getChildren.record((t2 - t1) * 1000);
      floor.deleteGetChildren.record((t2 - t0) * 1000);
    }
  };

  try {
    await admin.mkdirp(floorDir);
    await measureFloor(Math.max(1, Math.floor(opts.floorSamples / 2)));
    const mutexes = clients.map((c) => new InterProcessMutex(c, path));
    for (const m of mutexes) await (await m.acquire()).release();

    for (let round = 0; round < opts.rounds; round++) {
      tracing = round % 2 === 0;
      for (const log of logs) log.length = 0;
      const rec = tracing ? traced : untraced;
      const cuts: { from: number; holder: number; next: number; acquiredAt: number }[] = [];
      const end = performance.now() + opts.roundS * 1000;
      let lastRelease: { at: number; client: number } | undefined;
      let acquisitions = 0;
      await Promise.all(
        mutexes.map(async (m, i) => {
          while (performance.now() < end) {
            const t0 = performance.now();
            const lease = await m.acquire();
            const t1 = performance.now();
            acquisitions++;
            if (lastRelease !== undefined && lastRelease.client !== i && t0 < lastRelease.at) {
              rec.record((t1 - lastRelease.at) * 1000);
              cuts.push({ from: lastRelease.at, holder: lastRelease.client, next: i, acquiredAt: t1 });
              lastRelease = undefined;
            }
            lastRelease = { at: performance.now(), client: i };
            await lease.release();
            if (requeueDelayMs > 0) await new Promise((r) => setTimeout(r, requeueDelayMs));
          }
        }),
      );
      if (!tracing) continue;
      tracedAcquisitions += acquisitions;
      for (const log of logs) {
        for (const s of log) {
          if (s.dir === 'c2s' && s.kind === 'request' && s.op !== 'ping') requests.set(s.op ?? '?', (requests.get(s.op ?? '?') ?? 0) + 1);
          if (s.kind === 'notification') notifications++;
        }
      }
      for (const c of cuts) {
        const del = find(logs[c.holder]!, c.from, (s) => s.dir === 'c2s' && s.op === 'delete');
        if (del === undefined) continue;
        const note = find(logs[c.next]!, del.at, (s) => s.kind === 'notification');
        if (note === undefined || note.at > c.acquiredAt) continue;
        const gcSent = find(logs[c.next]!, note.at, (s) => s.dir === 'c2s' && s.op === 'getChildren');
        if (gcSent === undefined || gcSent.at > c.acquiredAt) continue;
        const gcReply = find(logs[c.next]!, gcSent.at, (s) => s.dir === 's2c' && s.kind === 'reply' && s.op === 'getChildren');
        if (gcReply === undefined || gcReply.at > c.acquiredAt) continue;
        const us = (a: number, b: number): number => (b - a) * 1000;
        segments['release→delete sent'].record(us(c.from, del.at));
        segments['delete sent→NodeDeleted read'].record(us(del.at, note.at));
        segments['NodeDeleted→getChildren sent'].record(us(note.at, gcSent.at));
        segments['getChildren round trip'].record(us(gcSent.at, gcReply.at));
        segments['reply→acquired'].record(us(gcReply.at, c.acquiredAt));
      }
    }
    await measureFloor(Math.max(1, Math.floor(opts.floorSamples / 2)));
  } finally {
    tracing = false;
    await raw.close().catch(() => {});
    await Promise.allSettled(clients.map((c) => c.close()));
    await admin.deleteRecursive(path).catch(() => {});
    await admin.deleteRecursive(floorDir).catch(() => {});
    await admin.close();
  }

  const per = (n: number): number => Math.round((n / Math.max(1, tracedAcquisitions)) * 100) / 100;
  const f = { deleteGetChildren: roundedSummary(floor.deleteGetChildren), getChildren: roundedSummary(floor.getChildren), delete: roundedSummary(floor.delete) };
  const u = roundedSummary(untraced);
  return {
    sessions: k,
    requeueDelayMs,
    handoffTraced: roundedSummary(traced),
    handoffUntraced: u,
    segments: Object.fromEntries(SEGMENTS.map((s) => [s, roundedSummary(segments[s])])) as Record<Segment, LatencyStats>,
    perAcquisition: {
      requests: Object.fromEntries([...requests].sort(([a], [b]) => a.localeCompare(b)).map(([op, n]) => [op, per(n)])),
      notifications: per(notifications),
      acquisitions: tracedAcquisitions,
    },
    floor: f,
    untracedToFloor: u.p50 > 0 && f.deleteGetChildren.p50 > 0 ? Math.round((u.p50 / f.deleteGetChildren.p50) * 1000) / 1000 : 0,
  };
}
