import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ZooKeeperClient } from '../../src/node.js';
import { InterProcessMutex } from '../../src/recipes/locks/mutex.js';
import { childrenOf, closeAll, connectClients, delay, lockPath, stillPending } from './helpers.js';

/**
 * Ownership without threads: independent flows sharing one mutex object exclude each other; nested code in one
 * flow re-enters by passing its lease (or any owner object).
 */
describe('InterProcessMutex ownership', () => {
  let a: ZooKeeperClient;

  beforeAll(async () => {
    [a] = (await connectClients(1)) as [ZooKeeperClient];
  });
  afterAll(async () => {
    await closeAll([a]);
  });

  it('independent concurrent flows on one mutex object exclude each other', async () => {
    const path = lockPath();
    const mutex = new InterProcessMutex(a, path);
    let inside = 0;
    let maxInside = 0;
    const order: number[] = [];
    const flow = async (id: number): Promise<void> => {
      await using lease = await mutex.acquire();
      inside++;
      maxInside = Math.max(maxInside, inside);
      order.push(id);
      await delay(20);
      inside--;
      expect(lease.acquired).toBe(true);
    };
    await Promise.all([1, 2, 3, 4, 5].map(flow));
    expect(maxInside).toBe(1);
    expect(order.sort()).toEqual([1, 2, 3, 4, 5]);
    expect(await childrenOf(a, path)).toEqual([]);
  });

  it('nested code re-enters with the lease: one node, released when the outer lease is', async () => {
    const path = lockPath();
    const mutex = new InterProcessMutex(a, path);
    const outer = await mutex.acquire();
    const inner = await mutex.acquire({ owner: outer, timeoutMs: 1000 });
    expect(inner.acquired).toBe(true);
    if (!inner.acquired) return;
    expect(inner.node).toBe(outer.node);
    expect(inner.fencingToken).toBe(outer.fencingToken);
    expect((await childrenOf(a, path)).length).toBe(1);
    // a third level, re-entering through the inner lease
    const third = await mutex.acquire({ owner: inner });
    await third.release();
    await inner.release();
    expect(mutex.isHeldBy(outer)).toBe(true);
    expect((await childrenOf(a, path)).length).toBe(1);
    await outer.release();
    expect(mutex.isAcquiredInThisProcess()).toBe(false);
    expect(await childrenOf(a, path)).toEqual([]);
  });

  it('any object can be an owner, and a second flow with another owner still waits', async () => {
    const path = lockPath();
    const mutex = new InterProcessMutex(a, path);
    const request = { id: 'request-1' };
    const first = await mutex.acquire({ owner: request });
    const again = await mutex.acquire({ owner: request });
    expect(again.node).toBe(first.node);
    const stranger = mutex.acquire({ owner: { id: 'request-2' } });
    expect(await stillPending(stranger)).toBe(true);
    await first.release();
    expect(await stillPending(stranger, 100)).toBe(true); // `again` still holds for the same owner
    await again.release();
    const theirs = await stranger;
    expect(theirs.node).not.toBe(first.node);
    await theirs.release();
  });

  it('concurrent acquires by one owner share a single node (no self-deadlock)', async () => {
    const path = lockPath();
    const mutex = new InterProcessMutex(a, path);
    const owner = {};
    const [x, y, z] = await Promise.all([mutex.acquire({ owner }), mutex.acquire({ owner }), mutex.acquire({ owner })]);
    expect(new Set([x.node, y.node, z.node]).size).toBe(1);
    expect((await childrenOf(a, path)).length).toBe(1);
    await Promise.all([x.release(), y.release(), z.release()]);
    expect(await childrenOf(a, path)).toEqual([]);
  });

  it('releasing a lease twice is one release', async () => {
    const path = lockPath();
    const mutex = new InterProcessMutex(a, path);
    const outer = await mutex.acquire();
    const inner = await mutex.acquire({ owner: outer });
    await inner.release();
    await inner.release();
    expect(mutex.isHeldBy(outer)).toBe(true);
    await outer.release();
    expect(mutex.isAcquiredInThisProcess()).toBe(false);
  });

  it('refuses an owner that is not an object', async () => {
    const mutex = new InterProcessMutex(a, lockPath());
    await expect(mutex.acquire({ owner: 'me' as unknown as object })).rejects.toMatchObject({ code: 'BAD_ARGUMENT' });
  });
});
