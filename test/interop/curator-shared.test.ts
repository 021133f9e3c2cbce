import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ZooKeeperClient } from '../../src/node.js';
import { SharedCount } from '../../src/recipes/shared/shared-count.js';
import { sharedServer } from '../harness/zookeeper.js';
import { connectClient, eventually, lockPath } from '../recipes/helpers.js';
import { startCuratorPeer, type CuratorPeer } from './curator-peer.js';

/** A zkwire SharedCount and Apache Curator 5.4's SharedCount on one node share one count and its versions. */
describe('interop with Apache Curator SharedCount', () => {
  let zk: ZooKeeperClient;
  let curator: CuratorPeer;

  beforeAll(async () => {
    const { connectString } = await sharedServer();
    [zk, curator] = await Promise.all([connectClient(connectString), startCuratorPeer(connectString)]);
  });
  afterAll(async () => {
    await Promise.all([zk?.close(), curator?.close()]);
  });

  it('Curator seeds and writes; zkwire sees the values and versions, and the reverse', async () => {
    const path = lockPath('count');
    const n = await curator.countStart(path, 41);
    await using count = new SharedCount(zk, path, 0);
    await count.start();
    expect(count.getVersionedValue()).toEqual({ version: 0, value: 41 });

    await curator.countSet(n, -7);
    await eventually(() => count.getCount() === -7, 10_000, 'zkwire sees Curator’s write');
    expect(count.getVersionedValue()).toEqual({ version: 1, value: -7 });

    await count.setCount(2 ** 31 - 1);
    await curator.waitForEvent(new RegExp(`^count n=${n} value=${2 ** 31 - 1}$`));
    expect(await curator.countGet(n)).toEqual({ version: 2, value: 2 ** 31 - 1 });
    await curator.countClose(n);
  });

  it('trySetCount across both: each write over a stale version is refused by the server', async () => {
    const path = lockPath('count');
    await using count = new SharedCount(zk, path, 1);
    await count.start();
    const n = await curator.countStart(path, 999);
    expect(await curator.countGet(n)).toEqual({ version: 0, value: 1 });

    // zkwire writes over version 0; Curator's attempt over version 0 must then fail
    expect(await count.trySetCount({ version: 0, value: 1 }, 2)).toBe(true);
    await curator.waitForEvent(new RegExp(`^count n=${n} value=2$`));
    expect(await curator.countTrySet(n, 3, { version: 0, value: 1 })).toBe(false);
    // Curator writes over version 1; zkwire's stale attempt fails, the fresh one succeeds
    expect(await curator.countTrySet(n, 3, { version: 1, value: 2 })).toBe(true);
    const stale = { version: 1, value: 2 };
    await eventually(() => count.getVersionedValue().version === 2, 10_000, 'zkwire sees version 2');
    expect(await count.trySetCount(stale, 4)).toBe(false);
    expect(count.getVersionedValue()).toEqual({ version: 2, value: 3 });
    expect(await count.trySetCount(count.getVersionedValue(), 4)).toBe(true);
    await curator.waitForEvent(new RegExp(`^count n=${n} value=4$`));
    expect(await curator.countGet(n)).toEqual({ version: 3, value: 4 });
    await curator.countClose(n);
  });
});
