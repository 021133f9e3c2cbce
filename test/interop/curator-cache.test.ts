import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Op, type ZooKeeperClient } from '../../src/node.js';
import { CuratorCache } from '../../src/recipes/cache/curator-cache.js';
import { sharedServer } from '../harness/zookeeper.js';
import { cacheTree, serverTree, treeDiff } from '../recipes/cache-helpers.js';
import { closeAll, connectClients, eventually, lockPath } from '../recipes/helpers.js';
import { startCuratorPeer, type CuratorPeer } from './curator-peer.js';

/** Apache Curator 5.4's CuratorCache and ours on one tree converge on the same nodes, stats and data. */
describe('interop with Apache Curator CuratorCache', () => {
  let zk: ZooKeeperClient[];
  let curator: CuratorPeer;

  beforeAll(async () => {
    const { connectString } = await sharedServer();
    [zk, curator] = await Promise.all([connectClients(2, connectString), startCuratorPeer(connectString)]);
  });
  afterAll(async () => {
    await Promise.all([closeAll(zk ?? []), curator?.close()]);
  });

  it('both caches load the same tree and follow the same changes to the same result', async () => {
    const writer = zk[1] as ZooKeeperClient;
    const root = lockPath('cache');
    await writer.mkdirp(`${root}/a/b`, { data: 'b' });
    await writer.create(`${root}/c`, 'c');
    const n = await curator.cacheStart(root);
    await using ours = new CuratorCache(zk[0] as ZooKeeperClient, root);
    await ours.start();
    await curator.waitForEvent(new RegExp(`^cache n=${n} initialized$`));
    const same = async (): Promise<boolean> => {
      const truth = await serverTree(writer, root);
      return treeDiff(truth, cacheTree(ours)).length === 0 && treeDiff(truth, await curator.cacheDump(n)).length === 0;
    };
    await eventually(same, 10_000, 'same tree after the load');

    await writer.setData(`${root}/a`, 'a1');
    await writer.multi([Op.delete(`${root}/c`, -1), Op.create(`${root}/c`, 'c')]);
    await writer.create(`${root}/a/b/d`, new Uint8Array([0, 255, 7]));
    await writer.delete(`${root}/a/b/d`);
    await writer.create(`${root}/e`, 'e');
    await eventually(same, 10_000, 'same tree after the changes');
    expect(await curator.cacheDump(n)).toEqual(cacheTree(ours));
    await curator.cacheClose(n);
  });
});
