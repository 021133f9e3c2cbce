import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ZooKeeperClient } from '../../src/node.js';
import { InterProcessMutex } from '../../src/recipes/locks/mutex.js';
import { InterProcessReadWriteLock } from '../../src/recipes/locks/read-write-lock.js';
import { attemptRevoke } from '../../src/recipes/locks/revocation.js';
import { InterProcessSemaphoreMutex } from '../../src/recipes/locks/semaphore-mutex.js';
import { InterProcessSemaphoreV2 } from '../../src/recipes/locks/semaphore-v2.js';
import { sharedServer } from '../harness/zookeeper.js';
import { closeAll, connectClients, delay, eventually, lockPath, stillPending } from '../recipes/helpers.js';
import { startCuratorPeer, type CuratorPeer } from './curator-peer.js';

/** zkwire and Apache Curator 5.4 on the same paths must behave as one set of clients. */
describe('interop with Apache Curator locks', () => {
  let zk: ZooKeeperClient[];
  let curatorA: CuratorPeer;
  let curatorB: CuratorPeer;

  beforeAll(async () => {
    const { connectString } = await sharedServer();
    [zk, curatorA, curatorB] = await Promise.all([
      connectClients(2, connectString),
      startCuratorPeer(connectString),
      startCuratorPeer(connectString),
    ]);
  });
  afterAll(async () => {
    await Promise.all([closeAll(zk ?? []), curatorA?.close(), curatorB?.close()]);
  });
  const z = (i: number): ZooKeeperClient => zk[i] as ZooKeeperClient;

  it('Curator holds a mutex: zkwire times out; after Curator releases, zkwire gets it', async () => {
    const path = lockPath();
    const held = await curatorA.mutexAcquire(path, 10_000);
    expect(held.acquired).toBe(true);
    if (!held.acquired) return;
    const mutex = new InterProcessMutex(z(0), path);
    expect((await mutex.acquire({ timeoutMs: 300 })).acquired).toBe(false);
    // zkwire sorts Curator's node first, the same as Curator does
    expect(await mutex.getParticipantNodes()).toEqual([held.node]);
    const waiting = mutex.acquire();
    expect(await stillPending(waiting)).toBe(true);
    await curatorA.release(held.id);
    const lease = await waiting;
    expect(await curatorA.participants(path)).toEqual([lease.node]);
    await lease.release();
  });

  it('zkwire holds a mutex: Curator times out; after zkwire releases, Curator gets it', async () => {
    const path = lockPath();
    const lease = await new InterProcessMutex(z(0), path).acquire();
    expect(await curatorA.mutexAcquire(path, 300)).toEqual({ acquired: false });
    expect(await curatorA.participants(path)).toEqual([lease.node]);
    const waiting = curatorA.mutexAcquire(path, 20_000);
    expect(await stillPending(waiting)).toBe(true);
    await lease.release();
    const got = await waiting;
    expect(got.acquired).toBe(true);
    if (got.acquired) await curatorA.release(got.id);
  });

  it('queues fairly across both: Curator, zkwire, Curator, zkwire acquire in request order', async () => {
    const path = lockPath();
    const order: string[] = [];
    const first = await curatorA.mutexAcquire(path, 10_000);
    const queued = async (n: number): Promise<void> => {
      await eventually(async () => (await new InterProcessMutex(z(0), path).getParticipantNodes()).length === n, 10_000, `${n} queued`);
    };
    const zk1 = new InterProcessMutex(z(0), path).acquire().then(async (l) => {
      order.push('zkwire-1');
      await l.release();
    });
    await queued(2);
    const cur = curatorB.mutexAcquire(path, 20_000).then(async (r) => {
      order.push('curator-B');
      if (r.acquired) await curatorB.release(r.id);
    });
    await queued(3);
    const zk2 = new InterProcessMutex(z(1), path).acquire().then(async (l) => {
      order.push('zkwire-2');
      await l.release();
    });
    await queued(4);
    if (first.acquired) await curatorA.release(first.id);
    await Promise.all([zk1, cur, zk2]);
    expect(order).toEqual(['zkwire-1', 'curator-B', 'zkwire-2']);
  });

  it('readers share across Curator and zkwire, while a writer on either side excludes', async () => {
    const path = lockPath('rw');
    const curatorRead = await curatorA.readAcquire(path, 10_000);
    expect(curatorRead.acquired).toBe(true);
    const zkRead = await new InterProcessReadWriteLock(z(0), path).readLock.acquire({ timeoutMs: 2000 });
    expect(zkRead.acquired).toBe(true);
    // a writer on either side waits for both readers
    expect((await new InterProcessReadWriteLock(z(1), path).writeLock.acquire({ timeoutMs: 300 })).acquired).toBe(false);
    expect(await curatorB.writeAcquire(path, 300)).toEqual({ acquired: false });
    if (curatorRead.acquired) await curatorA.release(curatorRead.id);
    if (zkRead.acquired) await zkRead.release();

    // zkwire writer holds: Curator's reader and writer wait
    const zkWrite = await new InterProcessReadWriteLock(z(0), path).writeLock.acquire();
    expect(await curatorA.readAcquire(path, 300)).toEqual({ acquired: false });
    expect(await curatorB.writeAcquire(path, 300)).toEqual({ acquired: false });
    await zkWrite.release();

    // Curator writer holds: zkwire's reader and writer wait
    const curatorWrite = await curatorB.writeAcquire(path, 10_000);
    expect(curatorWrite.acquired).toBe(true);
    expect((await new InterProcessReadWriteLock(z(0), path).readLock.acquire({ timeoutMs: 300 })).acquired).toBe(false);
    expect((await new InterProcessReadWriteLock(z(1), path).writeLock.acquire({ timeoutMs: 300 })).acquired).toBe(false);
    if (curatorWrite.acquired) await curatorB.release(curatorWrite.id);
  });

  it('a semaphore of 2 shared by Curator and zkwire never has more than 2 holders', async () => {
    const path = lockPath('sem');
    let holders = 0;
    let most = 0;
    // The counter rises only after a holder knows it holds and falls before it releases, so it can only
    // under-count the true number of holders: a reading above 2 is a real violation.
    const hold = async (): Promise<void> => {
      holders++;
      most = Math.max(most, holders);
      await delay(30);
      holders--;
    };
    const curatorLoop = async (peer: CuratorPeer): Promise<void> => {
      for (let i = 0; i < 4; i++) {
        const r = await peer.semaphoreAcquire(path, 2, 30_000);
        if (!r.acquired) throw new Error('Curator did not get a lease');
        await hold();
        await peer.release(r.id);
      }
    };
    const zkLoop = async (client: ZooKeeperClient): Promise<void> => {
      const sem = new InterProcessSemaphoreV2(client, path, 2);
      for (let i = 0; i < 4; i++) {
        const lease = await sem.acquireOne();
        await hold();
        await lease.release();
      }
    };
    await Promise.all([curatorLoop(curatorA), curatorLoop(curatorB), zkLoop(z(0)), zkLoop(z(1))]);
    expect(most).toBeLessThanOrEqual(2);
    expect(most).toBe(2);
  });

  it('semaphore mutexes exclude each other across both', async () => {
    const path = lockPath();
    const held = await curatorA.semaphoreMutexAcquire(path, 10_000);
    expect(held.acquired).toBe(true);
    expect((await new InterProcessSemaphoreMutex(z(0), path).acquire({ timeoutMs: 300 })).acquired).toBe(false);
    if (held.acquired) await curatorA.release(held.id);
    const lease = await new InterProcessSemaphoreMutex(z(0), path).acquire();
    expect(await curatorA.semaphoreMutexAcquire(path, 300)).toEqual({ acquired: false });
    await lease.release();
  });

  it('revocation works both ways: zkwire asks a Curator holder, Curator asks a zkwire holder', async () => {
    const path = lockPath();
    const held = await curatorA.mutexAcquire(path, 10_000, { revocable: true });
    if (!held.acquired) throw new Error('Curator did not acquire');
    await attemptRevoke(z(0), held.node);
    expect(await curatorA.waitForEvent(new RegExp(`^revoke-requested id=${held.id}$`))).toBeTruthy();
    await curatorA.release(held.id);

    const path2 = lockPath();
    const mutex = new InterProcessMutex(z(0), path2);
    const asked: string[] = [];
    mutex.makeRevocable((node) => asked.push(node));
    const lease = await mutex.acquire();
    await curatorB.revoke(lease.node);
    await eventually(() => asked.length === 1, 10_000, 'revocation request');
    expect(asked).toEqual([lease.node]);
    await lease.release();
  });
});
