/**
 * Floor measurements over a RawConnection: the same operations the client benchmarks run, with nothing of the
 * client in the way. Each function appends to the recorders it is given so callers can interleave floor and
 * client rounds (interleaving keeps a drifting machine — JIT, GC, the server's own warm-up — from favouring
 * whichever side ran second).
 */

import { CreateFlags, OpCode } from '../../protocol/index.js';
import { RawConnection } from './raw-client.js';
import { randomUUID } from 'node:crypto';
import { LatencyRecorder, roundedSummary } from './recorder.js';
import type { LatencyStats } from '../shared/histogram.js';

/** Runs `op` n times one after another, timing each call from just before it to its settled result. */
export async function timedLoop(n: number, rec: LatencyRecorder | undefined, op: (i: number) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await op(i);
    rec?.since(t);
  }
}

/** One error code check: the floor must measure successful round trips, not fast refusals. */
function ok(err: number, what: string): void {
  if (err !== 0) throw new Error(`floor ${what} failed with server error ${err}`);
}

export async function floorPing(conn: RawConnection, n: number, rec: LatencyRecorder | undefined): Promise<void> {
  const ping = RawConnection.pingTemplate();
  await timedLoop(n, rec, async () => ok(await conn.roundTrip(ping), 'ping'));
}

export async function floorGetData(conn: RawConnection, path: string, n: number, rec: LatencyRecorder | undefined): Promise<void> {
  const frame = RawConnection.getDataTemplate(path);
  await timedLoop(n, rec, async () => ok(await conn.roundTrip(frame), 'getData'));
}

export interface CreateDeleteRecorders {
  create?: LatencyRecorder | undefined;
  delete?: LatencyRecorder | undefined;
  /** Create then delete, one sample per pair. */
  pair?: LatencyRecorder | undefined;
}

/** Creates and deletes `${dir}/f-<i>` n times (persistent nodes, so the delete is a real write). */
export async function floorCreateDelete(conn: RawConnection, dir: string, n: number, recs: CreateDeleteRecorders, tag = 'f'): Promise<void> {
  for (let i = 0; i < n; i++) {
    const path = `${dir}/${tag}-${i}`;
    const t0 = performance.now();
    ok(await conn.create(path), 'create');
    const t1 = performance.now();
    ok(await conn.delete(path), 'delete');
    const t2 = performance.now();
    recs.create?.record((t1 - t0) * 1000);
    recs.delete?.record((t2 - t1) * 1000);
    recs.pair?.record((t2 - t0) * 1000);
  }
}

/**
 * Ephemeral-sequential creates under `dir`: the node a lock acquire makes. They vanish when the raw session
 * closes, so nothing needs deleting.
 */
export async function floorCreateEphemeralSequential(conn: RawConnection, dir: string, n: number, rec: LatencyRecorder | undefined): Promise<void> {
  await timedLoop(n, rec, async () => ok(await conn.create(`${dir}/floor-`, CreateFlags.ephemeralSequential), 'create'));
}

/** Pipelined getData: `total` requests with up to `window` in flight; returns requests per second. */
export async function floorPipelinedGetData(conn: RawConnection, path: string, total: number, window: number): Promise<number> {
  const { elapsedMs, errors } = await conn.pipeline(RawConnection.getDataTemplate(path), total, window);
  if (errors > 0) throw new Error(`floor pipelined getData: ${errors} error replies`);
  return total / (elapsedMs / 1000);
}

/** Pipelined pings: the server's cheapest request, so the most round trips this link and server can turn. */
export async function floorPipelinedPing(conn: RawConnection, total: number, window: number): Promise<number> {
  const { elapsedMs } = await conn.pipeline(RawConnection.pingTemplate(), total, window);
  return total / (elapsedMs / 1000);
}

/**
 * Delete round trips of ephemeral nodes under `dir` (what a lock release deletes), each node created untimed
 * just before.
 */
export async function floorDeleteEphemeral(conn: RawConnection, dir: string, n: number, rec: LatencyRecorder | undefined, tag = 'd'): Promise<void> {
  for (let i = 0; i < n; i++) {
    const path = `${dir}/${tag}-${i}`;
    ok(await conn.create(path, CreateFlags.ephemeral), 'create');
    const t = performance.now();
    ok(await conn.delete(path), 'delete');
    rec?.since(t);
  }
}

/**
 * The hand-off floor: `watcher` sets a data watch on an ephemeral node of `deleter` (a getData with watch, as a
 * lock waiter watches its predecessor); the time is from `deleter` sending the delete to the notification's
 * arrival on `watcher`'s socket — one delete commit plus one notification, the least a lock hand-off can take.
 */
export async function floorHandoff(deleter: RawConnection, watcher: RawConnection, dir: string, n: number, rec: LatencyRecorder | undefined, tag = 'h'): Promise<void> {
  for (let i = 0; i < n; i++) {
    const path = `${dir}/${tag}-${i}`;
    ok(await deleter.create(path, CreateFlags.ephemeral), 'create');
    ok(await watcher.request(OpCode.getData, { path, watch: true }), 'getData with watch');
    const notified = watcher.nextNotification();
    const t = performance.now();
    const deleted = deleter.delete(path);
    const at = await notified;
    ok(await deleted, 'delete');
    rec?.record((at - t) * 1000);
  }
}

/** The floors every lock run reports, as summaries. */
export interface FloorSummaries {
  ping: LatencyStats;
  /** One ephemeral-sequential create: what an acquire writes. */
  create: LatencyStats;
  /** One delete of an ephemeral node: what a release does. */
  delete: LatencyStats;
  deleteGetChildren: LatencyStats;
  /** From a delete's send on one session to the watch notification's arrival on a second. */
  handoff: LatencyStats;
}

export type FloorRecorders = { [K in keyof FloorSummaries]: LatencyRecorder };

export function newFloorRecorders(): FloorRecorders {
  return { ping: new LatencyRecorder(), create: new LatencyRecorder(), delete: new LatencyRecorder(), deleteGetChildren: new LatencyRecorder(), handoff: new LatencyRecorder() };
}

export function summarizeFloor(r: FloorRecorders): FloorSummaries {
  return { ping: roundedSummary(r.ping), create: roundedSummary(r.create), delete: roundedSummary(r.delete), deleteGetChildren: roundedSummary(r.deleteGetChildren), handoff: roundedSummary(r.handoff) };
}

/**
 * Floor: ping, ephemeral-sequential create (what an acquire writes), delete (what a release does), delete +
 * getChildren (a hand-off's trips) and the hand-off floor over a second bare session. `round` keeps node names
 * of the two halves apart.
 */
export async function measureFloor(conn: RawConnection, watcher: RawConnection, dir: string, n: number, recs: FloorRecorders, round: string): Promise<void> {
  await floorPing(conn, n, recs.ping);
  await floorCreateEphemeralSequential(conn, dir, n, recs.create);
  await floorDeleteEphemeral(conn, dir, n, recs.delete, `d${round}`);
  await floorHandoff(conn, watcher, dir, n, recs.handoff, `h${round}`);
  const children = RawConnection.template(OpCode.getChildren, { path: dir, watch: false });
  for (let i = 0; i < n; i++) {
    const path = `${dir}/dg-${randomUUID()}`;
    await conn.create(path, 1 /* ephemeral */);
    const t = performance.now();
    await conn.delete(path);
    await conn.roundTrip(children);
    recs.deleteGetChildren.since(t);
  }
}
