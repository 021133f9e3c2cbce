import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ZooKeeperClient } from '../../src/node.js';
import { DistributedDoubleBarrier } from '../../src/recipes/barriers/double-barrier.js';
import { sharedServer } from '../harness/zookeeper.js';
import { childrenOf, closeAll, connectClients, eventually, lockPath, stillPending } from '../recipes/helpers.js';
import { startCuratorPeer, type CuratorPeer } from './curator-peer.js';

/** Apache Curator 5.4's DistributedDoubleBarrier and zkwire members pass one barrier together. */
describe('interop with Apache Curator DistributedDoubleBarrier', () => {
  let zk: ZooKeeperClient[];
  let curatorA: CuratorPeer;
  let curatorB: CuratorPeer;

  beforeAll(async () => {
    const { connectString } = await sharedServer();
    [zk, curatorA, curatorB] = await Promise.all([connectClients(2, connectString), startCuratorPeer(connectString), startCuratorPeer(connectString)]);
  });
  afterAll(async () => {
    await Promise.all([closeAll(zk ?? []), curatorA?.close(), curatorB?.close()]);
  });

  it('two Curator members and two zkwire members: nobody enters before all four, nobody leaves before all four', async () => {
    const path = lockPath('barrier');
    const z0 = new DistributedDoubleBarrier(zk[0] as ZooKeeperClient, path, 4);
    const z1 = new DistributedDoubleBarrier(zk[1] as ZooKeeperClient, path, 4);
    const enteringA = curatorA.doubleBarrierEnter(path, 4, 30_000);
    const entering0 = z0.enter();
    await eventually(async () => (await childrenOf(zk[0] as ZooKeeperClient, path)).length === 2, 10_000, 'two arrived');
    const enteringB = curatorB.doubleBarrierEnter(path, 4, 30_000);
    await eventually(async () => (await childrenOf(zk[0] as ZooKeeperClient, path)).length === 3, 10_000, 'three arrived');
    expect(await stillPending(Promise.race([enteringA, entering0, enteringB]))).toBe(true);
    const entering1 = z1.enter();
    expect(await Promise.all([enteringA, entering0, enteringB, entering1])).toEqual([true, true, true, true]);

    const leavingA = curatorA.doubleBarrierLeave(path, 30_000);
    const leaving0 = z0.leave();
    const leaving1 = z1.leave();
    expect(await stillPending(Promise.race([leavingA, leaving0, leaving1]))).toBe(true);
    const leavingB = curatorB.doubleBarrierLeave(path, 30_000);
    expect(await Promise.all([leavingA, leaving0, leaving1, leavingB])).toEqual([true, true, true, true]);
    expect(await childrenOf(zk[0] as ZooKeeperClient, path)).toEqual([]);
  });
});
