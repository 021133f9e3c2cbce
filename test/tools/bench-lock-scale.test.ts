/**
 * bench lock-scale against a real ZooKeeper, at small sizes: the queue part must find the hand-off in order with
 * one notification per hand-off, and both parts' figures must add up (and survive a JSON round trip). Nothing
 * here asserts how fast anything is.
 */

import { beforeAll, describe, expect, it } from 'vitest';
import { runLockScale, type LockScaleReport } from '../../bench/lock-scale/run.js';
import { renderLockScale } from '../../bench/lock-scale/render.js';
import { runHandoffAnalysis, SEGMENTS } from '../../bench/lock-scale/handoff.js';
import { countOutOfOrder, sequenceOf } from '../../bench/lock-scale/queue.js';
import type { LatencyStats } from '../../src/tools/shared/histogram.js';
import { sharedServer } from '../harness/zookeeper.js';

let connectString: string;

beforeAll(async () => {
  connectString = (await sharedServer()).connectString;
});

function expectOrdered(name: string, s: LatencyStats, count: number): void {
  expect(s.count, name).toBe(count);
  const chain = [s.min, s.p50, s.p90, s.p99, s.p999, s.max];
  for (let i = 1; i < chain.length; i++) expect(chain[i]!, `${name}: ${chain.join(' ≤ ')}`).toBeGreaterThanOrEqual(chain[i - 1]!);
  expect(s.min, name).toBeGreaterThan(0);
}

describe('the order checks', () => {
  it('count acquisitions out of sequence order, and read the sequence off a node path', () => {
    expect(countOutOfOrder([3, 4, 5, 6])).toBe(0);
    expect(countOutOfOrder([3, 5, 4, 6])).toBe(2);
    expect(countOutOfOrder([6, 3, 4, 5])).toBe(4);
    expect(sequenceOf('/l/_c_0b7f6a52-0f7e-4a3c-9d7b-1c2d3e4f5a6b-lock-0000000042')).toBe(42);
    expect(() => sequenceOf('/l/not-sequential')).toThrow();
  });
});

describe('bench lock-scale on a real server', () => {
  let report: LockScaleReport;

  beforeAll(async () => {
    report = await runLockScale({ connectString, levels: [5, 20], samples: 20, warmup: 20, otherClients: 2, waiters: 50, sessions: 10, floorSamples: 10 });
  }, 60_000);

  it('50 waiters over 10 sessions hand off in sequence order, with no listing and no herd beyond the 8 nearest', () => {
    const q = report.queue!;
    expect(q).not.toBeNull();
    expect(q.acquired).toBe(50);
    expect(q.handoffs).toBe(50);
    expect(q.outOfOrder).toBe(0);
    // queueOrderGaps is not asserted: the bench marks a waiter queued on the first getData reply after starting it,
    // and a waiter now reads several nodes (its blockers and its own), so the bench may start the next waiter before
    // the last one's create is applied. What the lock guarantees, acquisitions in sequence order, is outOfOrder.
    // Only NodeDeleted, and each deletion is heard by at most the 8 waiters that watch their nearest blockers plus
    // the node's owner (every waiter watches its own node; see src/recipes/locks/internals.ts): a bounded herd, in
    // exchange for hand-offs that need no listing.
    expect(Object.keys(q.frames.notifications)).toStrictEqual(['NodeDeleted']);
    expect(q.frames.maxNotificationsPerPath).toBeLessThanOrEqual(9);
    expect(q.perHandoff.notifications).toBeLessThanOrEqual(9);
    expect(q.perHandoff.getChildren).toBeLessThanOrEqual(1);
    // Every release is a delete: the holder's and the 50 waiters'.
    expect(q.frames.requests['delete']).toBe(51);
    expect(q.targets).toMatchObject({ inOrder: true, noHerd: true, getChildrenMet: true, met: true });
    expectOrdered('handoff', q.handoff, 50);
    expectOrdered('first tenth', q.handoffFirstTenth, 5);
    expectOrdered('last tenth', q.handoffLastTenth, 5);
    expectOrdered('floor', q.floor.deleteGetChildren, 10);
    expectOrdered('floor full', q.floor.deleteGetChildrenFull, 10);
    expect(q.chainMs).toBeGreaterThan(0);
  });

  it('the held-locks part measures every level, 0 before and after, with holds spread over the clients', () => {
    const h = report.held!;
    expect(h).not.toBeNull();
    expect(h.levels.map((l) => [l.held, l.phase])).toStrictEqual([
      [0, 'before'],
      [5, 'before'],
      [20, 'before'],
      [0, 'after'],
    ]);
    for (const l of h.levels) {
      expect(l.heldViaMeasuringClient + l.heldViaOtherClients).toBe(l.held);
      for (const [name, s] of Object.entries({ acquire: l.acquire, release: l.release, cycle: l.cycle, floorCreate: l.floorCreate })) {
        expectOrdered(`${l.held} ${name}`, s, 20);
      }
      expect(l.cycle.max).toBeLessThanOrEqual(l.acquire.max + l.release.max + 0.2);
      expect(l.acquireToCreate).toBeCloseTo(l.acquire.p50 / l.floorCreate.p50, 2);
      expect(l.normalizedToZero).toBeCloseTo(l.acquireToCreate / h.levels[0]!.acquireToCreate, 1);
    }
    expect(h.levels[2]!.heldViaMeasuringClient).toBe(10);
    expect(h.levels[2]!.heldViaOtherClients).toBe(10);
    expect(h.levels[0]!.ratioToZero.acquireP50).toBe(1);
    expect(h.worstNormalized).toBe(Math.max(...h.levels.map((l) => l.normalizedToZero)));
    expect(h.target.met).toBe(h.worstNormalized <= h.target.normalizedAtMost);
  });

  it('the report is plain JSON and the table states every target with its verdict', () => {
    expect(JSON.parse(JSON.stringify(report))).toStrictEqual(report);
    expect(report.settings).toMatchObject({ levels: [0, 5, 20], waiters: 50, sessions: 10, otherClients: 2 });
    expect(report.met).toBe(report.held!.target.met && report.queue!.targets.met);
    expect(report.server.version).toMatch(/^\d+\.\d+\.\d+/);
    const text = renderLockScale(report);
    expect(text).toMatch(/out-of-order acquisitions\s+\|\s+0\s+\|\s+0\s+\|\s+met/);
    expect(text).toMatch(/notifications per hand-off\s+\|\s+\d+\.\d\d\s+\|/);
    expect(text).toMatch(/target: no per-acquire cost that grows with the locks held .* — (met|MISSED)/);
    expect(text).toMatch(/target: 50 waiters hand off in order with no herd — met/);
  });
});

describe('bench lock-scale --handoff on a real server', () => {
  it('cuts traced hand-offs into segments and counts the requests of every acquisition', async () => {
    const r = await runHandoffAnalysis({ connectString, sessions: 3, roundS: 0.4, rounds: 2, floorSamples: 10 });
    expect(r.sessions).toBe(3);
    expect(r.handoffTraced.count).toBeGreaterThan(0);
    expect(r.handoffUntraced.count).toBeGreaterThan(0);
    expect(r.perAcquisition.acquisitions).toBeGreaterThan(0);
    // Each acquisition creates one node and deletes it (a create retried after the server removed the idle
    // container between rounds may add one); a deletion is heard by the (at most 2) other waiters and its owner.
    expect(r.perAcquisition.requests['create2']).toBeGreaterThanOrEqual(1);
    expect(r.perAcquisition.requests['create2']).toBeLessThanOrEqual(1.05);
    expect(r.perAcquisition.requests['delete']).toBe(1);
    expect(r.perAcquisition.notifications).toBeLessThanOrEqual(3);
    // The segments cut a hand-off of two round trips (NodeDeleted → getChildren → acquired). With 3 sessions every
    // waiter watches all its blockers and holds on the last NodeDeleted: no hand-off has a listing in it to cut.
    for (const s of SEGMENTS) expect(r.segments[s].count, s).toBe(0);
    expectOrdered('floor', r.floor.deleteGetChildren, 10);
  });
});
