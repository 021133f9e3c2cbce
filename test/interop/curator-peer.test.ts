import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedServer } from '../harness/zookeeper.js';
import { startCuratorPeer, type CuratorPeer } from './curator-peer.js';

/**
 * The Curator peer itself: before trusting it as the reference in the interop tests, check that two real Curator
 * clients exclude each other through it and that its nodes are named the way zkwire expects Curator to name them.
 */
describe('Curator peer (the interop reference)', () => {
  let a: CuratorPeer;
  let b: CuratorPeer;

  beforeAll(async () => {
    const { connectString } = await sharedServer();
    [a, b] = await Promise.all([startCuratorPeer(connectString), startCuratorPeer(connectString)]);
  });

  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
  });

  it('runs two separate Curator sessions', () => {
    expect(a.sessionId).toMatch(/^0x[0-9a-f]+$/);
    expect(a.sessionId).not.toBe(b.sessionId);
  });

  it('two Curator clients exclude each other on a mutex, and the waiter gets it after release', async () => {
    const lockPath = `/t-${randomUUID()}/mutex`;
    const first = await a.mutexAcquire(lockPath, 10_000);
    expect(first.acquired).toBe(true);
    if (!first.acquired) return;
    expect(first.node).toMatch(new RegExp(`^${lockPath}/_c_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}-lock-\\d{10}$`));

    expect(await b.mutexAcquire(lockPath, 300)).toEqual({ acquired: false });
    // the timed-out attempt deleted its node: only the holder participates
    expect(await b.participants(lockPath)).toEqual([first.node]);

    const waiting = b.mutexAcquire(lockPath, 20_000);
    await a.release(first.id);
    const second = await waiting;
    expect(second.acquired).toBe(true);
    if (second.acquired) {
      expect(second.node).not.toBe(first.node);
      expect(await a.participants(lockPath)).toEqual([second.node]);
      await b.release(second.id);
    }
  });

  it('names read/write and semaphore nodes as Curator 5 does', async () => {
    const base = `/t-${randomUUID()}`;
    const uuid = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
    const read = await a.readAcquire(`${base}/rw`, 10_000);
    const lease = await b.semaphoreAcquire(`${base}/sem`, 2, 10_000);
    expect(read).toMatchObject({ acquired: true, node: expect.stringMatching(new RegExp(`^${base}/rw/_c_${uuid}-__READ__\\d{10}$`)) });
    expect(lease).toMatchObject({ acquired: true, node: expect.stringMatching(new RegExp(`^${base}/sem/leases/_c_${uuid}-lease-\\d{10}$`)) });
    if (read.acquired) await a.release(read.id);
    if (lease.acquired) await b.release(lease.id);
  });
});
