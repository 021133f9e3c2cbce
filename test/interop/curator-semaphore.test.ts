import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZooKeeperClient } from '../../src/node.js';
import { InterProcessSemaphoreV2 } from '../../src/recipes/locks/semaphore-v2.js';
import { startFaultProxy, type FaultProxy } from '../harness/fault-proxy.js';
import { sharedServer } from '../harness/zookeeper.js';
import { childrenOf, closeAll, codeOf, connectClients, delay, eventually, lockPath, stillPending } from '../recipes/helpers.js';
import { startCuratorPeer, type CuratorPeer } from './curator-peer.js';

/**
 * zkwire's semaphore creates its lease node without Curator's gate (`locks/`) when nobody is at the gate, and
 * otherwise holds the gate only around the create; either way it then waits by position. Curator's waits
 * holding the gate. Mixed on one path they must still never exceed maxLeases, and
 * every acquirer must be served, also when a session expires in the middle.
 */
describe('semaphore shared by Curator and zkwire', () => {
  let connectString: string;
  let zk: ZooKeeperClient[];
  let peers: CuratorPeer[];

  beforeAll(async () => {
    connectString = (await sharedServer()).connectString;
    [zk, peers] = await Promise.all([connectClients(3, connectString), Promise.all([startCuratorPeer(connectString), startCuratorPeer(connectString)])]);
  });
  afterAll(async () => {
    await Promise.all([closeAll(zk ?? []), ...(peers ?? []).map((p) => p.close())]);
  });

  it('under contention: never more than maxLeases holders, and every acquirer gets all its leases', async () => {
    const path = lockPath('sem');
    const maxLeases = 2;
    let holders = 0;
    let most = 0;
    let served = 0;
    // The counter rises only once a holder knows it holds and falls before it releases: it can only under-count,
    // so a reading above maxLeases is a real violation.
    const hold = async (): Promise<void> => {
      holders++;
      most = Math.max(most, holders);
      served++;
      await delay(5);
      holders--;
    };
    const rounds = 6;
    const curatorLoop = async (peer: CuratorPeer): Promise<void> => {
      for (let i = 0; i < rounds; i++) {
        const r = await peer.semaphoreAcquire(path, maxLeases, 60_000);
        if (!r.acquired) throw new Error('Curator did not get a lease');
        await hold();
        await peer.release(r.id);
      }
    };
    const zkLoop = async (client: ZooKeeperClient): Promise<void> => {
      const sem = new InterProcessSemaphoreV2(client, path, maxLeases);
      for (let i = 0; i < rounds; i++) {
        const lease = await sem.acquireOne();
        await hold();
        await lease.release();
      }
    };
    await Promise.all([...peers.map(curatorLoop), ...zk.map(zkLoop)]);
    expect(most).toBeLessThanOrEqual(maxLeases);
    expect(served).toBe((peers.length + zk.length) * rounds);
    expect(await childrenOf(zk[0] as ZooKeeperClient, `${path}/leases`)).toEqual([]);
  });

  it('a Curator waiter (holding the gate) queued behind zkwire waiters is served once they are', async () => {
    const path = lockPath('sem');
    const [z0, z1, z2] = zk as [ZooKeeperClient, ZooKeeperClient, ZooKeeperClient];
    const holder = await new InterProcessSemaphoreV2(z0, path, 1).acquireOne();
    // a zkwire waiter ahead, holding nothing while it waits
    const zkWaiter = new InterProcessSemaphoreV2(z1, path, 1).acquireOne();
    await eventually(async () => (await childrenOf(z0, `${path}/leases`)).length === 2, 10_000, 'zkwire waiter queued');
    // Curator takes the gate and waits holding it
    const curator = (peers[0] as CuratorPeer).semaphoreAcquire(path, 1, 60_000);
    await eventually(async () => (await childrenOf(z0, `${path}/leases`)).length === 3, 10_000, 'Curator queued');
    // a later zkwire acquirer finds the gate held: the lease node it made without the gate is taken back before it
    // queues on the gate behind Curator (the gate's directory then has both gate nodes)
    const late = new InterProcessSemaphoreV2(z2, path, 1).acquireOne();
    await eventually(async () => (await childrenOf(z0, `${path}/locks`)).length === 2, 10_000, 'late acquirer queued on the gate');
    expect(await stillPending(late)).toBe(true);
    expect((await childrenOf(z0, `${path}/leases`)).length).toBe(3);
    await holder.release();
    const second = await zkWaiter;
    expect(await stillPending(curator)).toBe(true);
    await second.release();
    const c = await curator;
    if (!c.acquired) throw new Error('Curator did not get a lease');
    expect(await stillPending(late)).toBe(true);
    await (peers[0] as CuratorPeer).release(c.id);
    await (await late).release();
    expect(await childrenOf(z0, `${path}/leases`)).toEqual([]);
  });

  it('session expiry: a Curator waiter that dies holding the gate, and a zkwire waiter that expires, block no one for good', async () => {
    const path = lockPath('sem');
    const [z0, z1] = zk as [ZooKeeperClient, ZooKeeperClient];
    const [host, port] = connectString.split(':');
    const proxy: FaultProxy = await startFaultProxy({ host: host as string, port: Number(port) });
    const doomedPeer = await startCuratorPeer(connectString, { sessionTimeoutMs: 4000 });
    try {
      // renewSession: false: this test is about what an ended session leaves behind for the others; a waiter that
      // starts over on a new session is tested in test/recipes/lock-expiry.test.ts
      await using expiring = await ZooKeeperClient.connect(proxy.connectString, { sessionTimeoutMs: 4000, renewSession: false });
      const holder = await new InterProcessSemaphoreV2(z0, path, 1).acquireOne();
      // a zkwire waiter whose session will expire
      const expiringWaiter = codeOf(new InterProcessSemaphoreV2(expiring, path, 1).acquireOne());
      await eventually(async () => (await childrenOf(z0, `${path}/leases`)).length === 2, 10_000, 'expiring waiter queued');
      // a Curator waiter that will die holding the gate
      void doomedPeer.semaphoreAcquire(path, 1, 60_000).catch(() => undefined);
      await eventually(async () => (await childrenOf(z0, `${path}/leases`)).length === 3, 10_000, 'Curator queued');
      const doomedNodes = (await childrenOf(z0, `${path}/leases`)).filter((name) => !holder.node.endsWith(name));
      const survivor = new InterProcessSemaphoreV2(z1, path, 1).acquireOne();
      const curator = (peers[1] as CuratorPeer).semaphoreAcquire(path, 1, 60_000);
      proxy.pause();
      await doomedPeer.kill();
      // both sessions expire on the server; their lease nodes and the dead peer's gate node go with them
      await eventually(
        async () => (await childrenOf(z0, `${path}/leases`)).every((name) => !doomedNodes.includes(name)),
        20_000,
        'expired nodes gone',
      );
      proxy.pass();
      expect(await expiringWaiter).toBe('SESSIONEXPIRED');
      await holder.release();
      // the survivor and the live Curator peer are both served, one at a time, in whichever order they queued
      let holders = 0;
      let most = 0;
      const take = async (release: () => Promise<void>): Promise<void> => {
        holders++;
        most = Math.max(most, holders);
        await delay(20);
        holders--;
        await release();
      };
      await Promise.all([
        survivor.then((lease) => take(() => lease.release())),
        curator.then((r) => {
          if (!r.acquired) throw new Error('Curator did not get a lease');
          return take(() => (peers[1] as CuratorPeer).release(r.id));
        }),
      ]);
      expect(most).toBe(1);
      expect(await childrenOf(z0, `${path}/leases`)).toEqual([]);
    } finally {
      await doomedPeer.kill();
      await proxy.close();
    }
  });
});
