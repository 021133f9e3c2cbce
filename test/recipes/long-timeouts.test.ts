/**
 * Long acquire timeouts wait as long as asked: Infinity is "no deadline", and 30 days or Number.MAX_SAFE_INTEGER
 * (both past the runtime timer's 2^31−1 ms limit) do not fire after a millisecond. Each waiter is shown queued
 * (its node is on the server), still pending after the holder has done real round trips, then acquiring once the
 * holder releases — no waiting on the wall clock.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ZooKeeperClient } from '../../src/node.js';
import { InterProcessMutex } from '../../src/recipes/locks/mutex.js';
import type { Lease, NotAcquired } from '../../src/index.js';
import type { Clock } from '../../src/session/clock.js';
import { childrenOf, closeAll, codeOf, connectClients, lockPath } from './helpers.js';

let a: ZooKeeperClient;
let b: ZooKeeperClient;

beforeAll(async () => {
  [a, b] = (await connectClients(2)) as [ZooKeeperClient, ZooKeeperClient];
});
afterAll(async () => {
  await closeAll([a, b]);
});

/** Resolves once `path` has `n` children; throws if `early` settles first (the waiter gave up). */
async function queued(path: string, n: number, early: Promise<unknown>): Promise<void> {
  let settled: unknown;
  void early.then((r) => (settled = r ?? 'settled'), (e: unknown) => (settled = e));
  for (;;) {
    if (settled !== undefined) throw new Error(`the waiter settled before queueing: ${JSON.stringify(settled)}`);
    if ((await childrenOf(a, path)).length >= n) return;
  }
}

/**
 * A waits-then-acquires run: `a` holds a lock at `path`, `acquire` (B's acquire with a long timeout) queues behind
 * it and is still pending after the holder has done real round trips, then acquires once the holder releases.
 */
async function waitsThenAcquires(path: string, acquire: () => Promise<Lease | NotAcquired>): Promise<void> {
  const held = await new InterProcessMutex(a, path).acquire();
  let outcome: Lease | NotAcquired | undefined;
  const waiting = acquire();
  void waiting.then((r) => (outcome = r));
  await queued(path, 2, waiting);
  // Real work on the holder's side, each a full round trip after the waiter queued: B's own reads and timers
  // have had every chance to run meanwhile.
  for (let i = 0; i < 20; i++) await a.setData(held.node, `tick ${i}`);
  await b.sync(path);
  expect(outcome).toBeUndefined();
  await held.release();
  const next = await waiting;
  expect(next.acquired).toBe(true);
  await (next as Lease).release();
}

describe('acquire with long timeouts', () => {
  const DAY = 24 * 3600 * 1000;
  it.each([
    ['Infinity', Infinity],
    ['30 days', 30 * DAY],
    ['Number.MAX_SAFE_INTEGER', Number.MAX_SAFE_INTEGER],
  ])('timeoutMs %s waits while another session holds the lock, and acquires when it is released', async (_name, timeoutMs) => {
    const path = lockPath();
    await waitsThenAcquires(path, () => new InterProcessMutex(b, path).acquire({ timeoutMs }));
  });

  it('a 30-day timeout on an application clock built on the runtime timers waits too (zkwire chains its long delays)', async () => {
    const runtimeTimers: Clock = {
      now: () => Date.now(),
      setTimeout: (fn, ms) => setTimeout(fn, ms), // fires a delay over 2^31-1 ms after 1 ms, on its own
      clearTimeout: (h) => clearTimeout(h as Parameters<typeof clearTimeout>[0]),
    };
    const path = lockPath();
    await waitsThenAcquires(path, () => new InterProcessMutex(b, path, { clock: runtimeTimers }).acquire({ timeoutMs: 30 * DAY }));
  });

  it('refuses NaN, negative and non-number timeouts with BAD_ARGUMENT', async () => {
    for (const bad of [Number.NaN, -1, -Infinity, '5' as unknown as number]) {
      expect(await codeOf(new InterProcessMutex(a, lockPath()).acquire({ timeoutMs: bad })), String(bad)).toBe('BAD_ARGUMENT');
    }
  });
});
