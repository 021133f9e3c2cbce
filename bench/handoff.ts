/**
 * bench/handoff: where a lock hand-off's time goes, next to the hand-off floor measured in the same run.
 *
 * A hand-off is timed as `bench lock` times it: from the holder's release() call to the resolution of the acquire
 * of a session that was already waiting. Each one is cut in three at the frames the two sessions exchange with the
 * server (read from the client's `onFrame` hook, stamped with performance.now()):
 *   client, before — release() called → the delete frame written on the holder's socket;
 *   server         — the delete written → the NodeDeleted notification read on the waiter's socket;
 *   client, after  — the notification read → the waiter's acquire() resolved.
 * The floor is the same middle part on two bare sockets (src/tools/bench/floor.ts: floorHandoff).
 *
 * Two ways to hand off:
 *   idle   — the waiter is queued and its watches are armed before the holder releases: the server has nothing
 *            else to do when the delete arrives, as in the floor;
 *   loop   — K sessions (--sessions, default 2) loop acquire → release with no hold, as `npm run bench:lock` does
 *            with 8: the old holder's next acquire (a create, a listing, the reads that arm its watches) reaches the
 *            server around the same time as the new holder's delete, and every waiter that watches the deleted node
 *            is notified too.
 * Rounds alternate floor, idle and loop, so a drifting machine shows in all three.
 *
 * And the client's own JavaScript per hand-off, with no socket and no event-loop wake-up: the same idle hand-off on
 * the in-memory ZooKeeper (zkwire/testing), timed from release() to the delete's write on the in-memory stream, and
 * from the notification's delivery to the acquire's resolution.
 *
 *   npm run bench:handoff -- [--server HOST:PORT] [--rounds N] [--samples N] [--sessions K] [--json FILE]
 *
 * --sessions K (default 2) sets how many sessions the closed loop has; the idle hand-off is always between two.
 */

import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { ZooKeeperClient } from '../src/node.js';
import { OpCode } from '../src/protocol/index.js';
import { InterProcessMutex, type Lease } from '../src/index.js';
import type { FrameTrace } from '../src/session/trace.js';
import { floorHandoff } from '../src/tools/bench/floor.js';
import { RawConnection } from '../src/tools/bench/raw-client.js';
import { LatencyRecorder, roundedSummary } from '../src/tools/bench/recorder.js';
import type { LatencyStats } from '../src/tools/shared/histogram.js';
import { firstEndpoint } from '../src/tools/bench/server-info.js';
import { fmtUs, renderTable } from '../src/tools/shared/table.js';
import { withServer } from '../src/testing/local-server/index.js';
import { InMemoryZooKeeper } from '../src/testing/in-memory/server.js';
import type { ByteStream, ByteStreamHandlers, Transport } from '../src/transport/types.js';

const NOTIFICATION_XID = -1;

const textDecoder = new TextDecoder();

/** The path of the watch notification framed at `offset` (its length prefix) of `view`. */
function notificationPath(view: DataView, offset: number): string {
  // length, then the reply header (xid, zxid, err), then WatcherEvent { type, state, path }
  const at = offset + 4 + 16 + 8;
  const length = view.getInt32(at);
  return textDecoder.decode(new Uint8Array(view.buffer, view.byteOffset + at + 4, Math.max(0, length)));
}

/**
 * Per session: the first delete written since the last reset, and when each node's deletion was notified. By path,
 * because with more than two sessions a waiter hears of other deletions too (a blocker it crossed off, its own node
 * after its own release), and only the notification of the node that was handed off belongs to the hand-off.
 */
class FrameMarks {
  deleteOut: number | undefined;
  readonly notified = new Map<string, number>();
  /** getData requests written (a waiter arming its watches). */
  reads = 0;

  /** A frame at `offset` of `view` was written (c2s) or read (s2c) at `now`. */
  seen(dir: 'c2s' | 's2c', view: DataView, offset: number, now: number): void {
    if (dir === 'c2s') {
      const op = view.getInt32(offset + 8);
      if (op === OpCode.delete) this.deleteOut ??= now;
      else if (op === OpCode.getData) this.reads++;
    } else if (view.getInt32(offset + 4) === NOTIFICATION_XID) {
      const path = notificationPath(view, offset);
      if (!this.notified.has(path)) this.notified.set(path, now);
    }
  }

  readonly listener = (t: FrameTrace): void => {
    if (t.bytes.length >= 12) this.seen(t.dir, new DataView(t.bytes.buffer, t.bytes.byteOffset, t.bytes.byteLength), 0, performance.now());
  };

  reset(): void {
    this.deleteOut = undefined;
    this.notified.clear();
  }
}

interface Parts {
  before: LatencyRecorder;
  server: LatencyRecorder;
  after: LatencyRecorder;
  total: LatencyRecorder;
}

const parts = (): Parts => ({ before: new LatencyRecorder(), server: new LatencyRecorder(), after: new LatencyRecorder(), total: new LatencyRecorder() });

/**
 * Records one hand-off of `node` from its four instants (ms); skipped when a frame was not seen (a waiter that was
 * still making its node when the holder released learns from its listing, with no notification).
 */
function recordHandoff(into: Parts, node: string, releasedAt: number, holder: FrameMarks, waiter: FrameMarks, acquiredAt: number): void {
  const out = holder.deleteOut;
  const notified = waiter.notified.get(node);
  if (out === undefined || notified === undefined) return;
  into.before.record((out - releasedAt) * 1000);
  into.server.record((notified - out) * 1000);
  into.after.record((acquiredAt - notified) * 1000);
  into.total.record((acquiredAt - releasedAt) * 1000);
}

interface Side {
  readonly client: ZooKeeperClient;
  readonly mutex: InterProcessMutex;
  readonly marks: FrameMarks;
}

async function openSide(connectString: string, path: string): Promise<Side> {
  const marks = new FrameMarks();
  const client = await ZooKeeperClient.connect(connectString, { onFrame: marks.listener });
  return { client, mutex: new InterProcessMutex(client, path), marks };
}

/**
 * Idle hand-offs: the waiter queues and arms its watch (its getData is written, and a later request of its session
 * answered, so the watch is in place on the server), then the holder releases.
 */
async function idleHandoffs(sides: readonly [Side, Side], n: number, into: Parts): Promise<void> {
  let holder = 0;
  let lease: Lease = await sides[0].mutex.acquire();
  for (let i = 0; i < n; i++) {
    const h = sides[holder] as Side;
    const w = sides[1 - holder] as Side;
    const readsBefore = w.marks.reads;
    const waiting = w.mutex.acquire();
    while (w.marks.reads === readsBefore) await w.client.exists('/');
    await w.client.exists('/');
    h.marks.reset();
    w.marks.reset();
    const node = lease.node;
    const releasedAt = performance.now();
    const released = lease.release();
    lease = await waiting;
    const acquiredAt = performance.now();
    await released;
    recordHandoff(into, node, releasedAt, h.marks, w.marks, acquiredAt);
    holder = 1 - holder;
  }
  await lease.release();
}

/**
 * Closed-loop hand-offs: every session loops acquire → release with no hold until n hand-offs were seen. A
 * hand-off is a release to the acquire of a session that was already waiting (as bench lock counts them).
 */
async function loopHandoffs(sides: readonly Side[], n: number, into: Parts): Promise<void> {
  let seen = 0;
  let lastRelease: { at: number; by: number; node: string } | undefined;
  await Promise.all(
    sides.map(async (side, i) => {
      while (seen < n) {
        const t0 = performance.now();
        const lease = await side.mutex.acquire();
        const acquiredAt = performance.now();
        if (lastRelease !== undefined && lastRelease.by !== i && t0 < lastRelease.at) {
          recordHandoff(into, lastRelease.node, lastRelease.at, (sides[lastRelease.by] as Side).marks, side.marks, acquiredAt);
          seen++;
        }
        for (const s of sides) s.marks.reset();
        lastRelease = { at: performance.now(), by: i, node: lease.node };
        await lease.release();
      }
    }),
  );
}

/**
 * Frames of a chunk (length-prefixed), for the in-memory transport's taps: `at` gets each frame's offset. A frame
 * cut across chunks is not seen, which costs a sample (never a wrong one).
 */
function eachFrame(chunk: Uint8Array, at: (view: DataView, offset: number) => void): void {
  const view = new DataView(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  for (let off = 0; off + 12 <= chunk.length; off += 4 + view.getInt32(off)) at(view, off);
}

/** A transport over the in-memory server's that stamps, per session, the frames FrameMarks looks for. */
function tappedTransport(inner: Transport, marks: FrameMarks): Transport {
  return {
    async connect(endpoint, handlers: ByteStreamHandlers, options): Promise<ByteStream> {
      const stream = await inner.connect(
        endpoint,
        {
          onData: (chunk) => {
            const now = performance.now();
            eachFrame(chunk, (v, off) => marks.seen('s2c', v, off, now));
            handlers.onData(chunk);
          },
          onClose: (error) => handlers.onClose(error),
        },
        options,
      );
      return {
        write: (chunk) => {
          const now = performance.now();
          eachFrame(chunk, (v, off) => marks.seen('c2s', v, off, now));
          stream.write(chunk);
        },
        close: () => stream.close(),
      };
    },
  };
}

/** Idle hand-offs on the in-memory server: what the client's JavaScript costs, with no socket in the way. */
async function jsHandoffs(n: number, into: Parts): Promise<void> {
  await using server = new InMemoryZooKeeper();
  const sides: Side[] = [];
  for (let i = 0; i < 2; i++) {
    const marks = new FrameMarks();
    const client = await ZooKeeperClient.connect(server.connectString, { transport: tappedTransport(server.transport, marks) });
    sides.push({ client, mutex: new InterProcessMutex(client, '/lock'), marks });
  }
  try {
    await idleHandoffs([sides[0]!, sides[1]!], n, into);
  } finally {
    for (const s of sides) await s.client.close();
  }
}

interface HandoffReport {
  server: string;
  rounds: number;
  samplesPerRound: number;
  loopSessions: number;
  floor: LatencyStats;
  idle: Record<keyof Parts, LatencyStats>;
  loop: Record<keyof Parts, LatencyStats>;
  /** The idle hand-off on the in-memory server: the client's JavaScript alone. */
  js: Record<keyof Parts, LatencyStats>;
}

function summarize(p: Parts): Record<keyof Parts, LatencyStats> {
  return { before: roundedSummary(p.before), server: roundedSummary(p.server), after: roundedSummary(p.after), total: roundedSummary(p.total) };
}

function render(r: HandoffReport): string {
  const f = r.floor.p50;
  const ratio = (us: number): string => `${(us / f).toFixed(2)}×`;
  const row = (label: string, idle: LatencyStats, loop: LatencyStats, withRatio: boolean): string[] => [
    label,
    fmtUs(idle.p50),
    fmtUs(idle.p90),
    withRatio ? ratio(idle.p50) : '',
    fmtUs(loop.p50),
    fmtUs(loop.p90),
    withRatio ? ratio(loop.p50) : '',
  ];
  let out = `Hand-off: idle between 2 sessions, loop among ${r.loopSessions}; ${r.rounds} rounds × ${r.samplesPerRound} of each, ZooKeeper at ${r.server}\n`;
  out += renderTable(
    ['part', 'idle p50', 'idle p90', 'idle / floor', 'loop p50', 'loop p90', 'loop / floor'],
    [
      row('client, before: release() → delete written', r.idle.before, r.loop.before, false),
      row('server: delete written → notification read', r.idle.server, r.loop.server, true),
      row('client, after: notification → acquired', r.idle.after, r.loop.after, false),
      row('hand-off: release() → acquired', r.idle.total, r.loop.total, true),
      ['floor: delete sent → notification (bare sockets)', fmtUs(r.floor.p50), fmtUs(r.floor.p90), '1.00×', '', '', ''],
    ],
  );
  out += '(the parts are p50s of each part on its own; they need not add up to the p50 of the whole)\n';
  out += `the client's own JavaScript per hand-off (the idle hand-off on the in-memory server, no socket): before ${fmtUs(r.js.before.p50)}, after ${fmtUs(r.js.after.p50)} (p50), ${ratio(r.js.before.p50 + r.js.after.p50)} of the floor\n`;
  return out;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const opt = (name: string): string | undefined => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const rounds = Number(opt('--rounds') ?? 3);
  const samples = Number(opt('--samples') ?? 400);
  const loopSessions = Math.max(2, Number(opt('--sessions') ?? 2));
  const server = opt('--server');
  const io = { err: (t: string): void => void process.stderr.write(t) };
  await withServer(server === undefined ? {} : { server }, io, async ({ connectString }) => {
    const run = randomUUID();
    const dir = `/zkwire-bench/handoff-${run}`;
    const admin = await ZooKeeperClient.connect(connectString);
    const { host, port } = firstEndpoint(connectString);
    const deleter = await RawConnection.open(host, port);
    const watcher = await RawConnection.open(host, port);
    const all: Side[] = [];
    for (let i = 0; i < loopSessions; i++) all.push(await openSide(connectString, `${dir}/lock`));
    const sides = [all[0]!, all[1]!] as const;
    try {
      await admin.mkdirp(`${dir}/floor`, { containers: true });
      // Warm-up: JIT on both sides, the server's code paths for every request involved.
      await floorHandoff(deleter, watcher, `${dir}/floor`, 200, undefined, 'w');
      await idleHandoffs(sides, 100, parts());
      await loopHandoffs(all, 100, parts());
      const floor = new LatencyRecorder();
      const idle = parts();
      const loop = parts();
      const js = parts();
      await jsHandoffs(200, parts());
      for (let round = 0; round < rounds; round++) {
        process.stderr.write(`  … round ${round + 1} of ${rounds}\n`);
        await floorHandoff(deleter, watcher, `${dir}/floor`, samples, floor, `r${round}`);
        await idleHandoffs(sides, samples, idle);
        await loopHandoffs(all, samples, loop);
        await jsHandoffs(samples, js);
      }
      const report: HandoffReport = { server: connectString, rounds, samplesPerRound: samples, loopSessions, floor: roundedSummary(floor), idle: summarize(idle), loop: summarize(loop), js: summarize(js) };
      process.stdout.write(render(report));
      const json = opt('--json');
      if (json !== undefined) {
        writeFileSync(json, `${JSON.stringify({ benchmark: 'handoff', ...report }, null, 2)}\n`);
        process.stdout.write(`figures written to ${json}\n`);
      }
    } finally {
      await deleter.close();
      await watcher.close();
      for (const s of all) await s.client.close();
      await admin.deleteRecursive(dir).catch(() => undefined);
      await admin.close();
    }
  });
}

main().catch((e: unknown) => {
  process.stderr.write(`bench:handoff failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
