import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZooKeeperClient } from '../../src/node.js';
import { LeaderLatch } from '../../src/recipes/leader/leader-latch.js';
import { watchLeader } from '../../src/recipes/leader/watch-leader.js';
import { GroupMember } from '../../src/recipes/nodes/group-member.js';
import { PersistentNode } from '../../src/recipes/nodes/persistent-node.js';
import { expireSession } from '../harness/expire-session.js';
import { startFaultProxy, type FaultProxy } from '../harness/fault-proxy.js';
import { sharedServer } from '../harness/zookeeper.js';
import { childrenOf, connectClient, eventually, lockPath, untilNoChildren } from '../recipes/helpers.js';
import { startCuratorPeer, type CuratorPeer } from './curator-peer.js';

/** A zkwire LeaderLatch and Apache Curator 5.4's LeaderLatch on one path elect one leader between them. */
describe('interop with Apache Curator LeaderLatch', () => {
  let connectString: string;
  let zk: ZooKeeperClient;
  let curator: CuratorPeer;

  beforeAll(async () => {
    ({ connectString } = await sharedServer());
    [zk, curator] = await Promise.all([connectClient(connectString), startCuratorPeer(connectString)]);
  });
  afterAll(async () => {
    await Promise.all([zk?.close(), curator?.close()]);
  });

  it('Curator leads first: zkwire waits, both list the same participants; when Curator closes, zkwire leads', async () => {
    const path = lockPath('latch');
    const n = await curator.latchStart(path, 'curator');
    expect(await curator.latchAwait(n, 10_000)).toBe(true);
    await using latch = new LeaderLatch(zk, path, { id: 'zkwire' });
    latch.start();
    await eventually(async () => (await childrenOf(zk, path)).length === 2, 10_000, 'zkwire joined');
    expect(await latch.await({ timeoutMs: 300 })).toBe(false);
    const expected = [
      { id: 'curator', isLeader: true },
      { id: 'zkwire', isLeader: false },
    ];
    expect(await latch.getParticipants()).toEqual(expected);
    expect(await curator.latchParticipants(n)).toEqual(expected);
    expect(await latch.getLeader()).toEqual({ id: 'curator', isLeader: true });
    await curator.latchClose(n);
    expect(await latch.await({ timeoutMs: 10_000 })).toBe(true);
    expect(await latch.getParticipants()).toEqual([{ id: 'zkwire', isLeader: true }]);
  });

  it('watchLeader follows a mixed election: Curator leads, then zkwire when Curator closes, as Curator sees it', async () => {
    const path = lockPath('latch');
    const n = await curator.latchStart(path, 'curator');
    expect(await curator.latchAwait(n, 10_000)).toBe(true);
    await using latch = new LeaderLatch(zk, path, { id: 'zkwire' });
    latch.start();
    await eventually(async () => (await childrenOf(zk, path)).length === 2, 10_000, 'zkwire joined');
    const seen = watchLeader(zk, path)[Symbol.asyncIterator]();
    const first = await seen.next();
    expect(first.value).toMatchObject({ leader: { id: 'curator', isLeader: true }, node: await curator.latchOurPath(n) });
    expect(first.value?.participants).toEqual(await curator.latchParticipants(n));
    await curator.latchClose(n);
    const second = await seen.next();
    expect(second.value).toMatchObject({ leader: { id: 'zkwire', isLeader: true }, node: latch.ourPath });
    await seen.return?.();
  });

  it('zkwire leads first: Curator waits; when zkwire closes, Curator leads; one leader at every step', async () => {
    const path = lockPath('latch');
    const latch = new LeaderLatch(zk, path, { id: 'zkwire' });
    latch.start();
    await latch.await();
    const n = await curator.latchStart(path, 'curator');
    await eventually(async () => (await curator.latchOurPath(n)) !== undefined, 10_000, 'Curator joined');
    expect(await curator.latchAwait(n, 300)).toBe(false);
    expect(await curator.latchHasLeadership(n)).toBe(false);
    const expected = [
      { id: 'zkwire', isLeader: true },
      { id: 'curator', isLeader: false },
    ];
    expect(await curator.latchParticipants(n)).toEqual(expected);
    expect(await latch.getParticipants()).toEqual(expected);
    // Curator's node is named as ours are, so both sort the same way
    expect((await curator.latchOurPath(n))?.slice(0, path.length + 4)).toBe(`${path}/_c_`);
    await latch.close();
    expect(await curator.latchAwait(n, 10_000)).toBe(true);
    expect(latch.hasLeadership()).toBe(false);
    await curator.waitForEvent(new RegExp(`^latch n=${n} isLeader$`));
    await curator.latchClose(n);
    // Curator's close() deletes its node in the background, after returning: wait for the delete, not for time.
    await untilNoChildren(zk, path);
    expect(await childrenOf(zk, path)).toEqual([]);
  });

  it("the Curator leader's session expires (its JVM killed): zkwire takes over", async () => {
    const path = lockPath('latch');
    const doomed = await startCuratorPeer(connectString, { sessionTimeoutMs: 4000 });
    try {
      const n = await doomed.latchStart(path, 'doomed');
      expect(await doomed.latchAwait(n, 10_000)).toBe(true);
      await using latch = new LeaderLatch(zk, path, { id: 'zkwire' });
      latch.start();
      await eventually(async () => (await childrenOf(zk, path)).length === 2, 10_000, 'zkwire joined');
      expect(latch.hasLeadership()).toBe(false);
      await doomed.kill();
      expect(await latch.await({ timeoutMs: 20_000 })).toBe(true);
      expect(await latch.getParticipants()).toEqual([{ id: 'zkwire', isLeader: true }]);
    } finally {
      await doomed.kill();
    }
  });

  it("the zkwire leader's session expires: it steps down first, Curator takes over, zkwire rejoins and leads after Curator leaves", async () => {
    const [host, port] = connectString.split(':');
    const proxy: FaultProxy = await startFaultProxy({ host: host as string, port: Number(port) });
    try {
      const path = lockPath('latch');
      await using client = await ZooKeeperClient.connect(proxy.connectString, { sessionTimeoutMs: 4000 });
      await using latch = new LeaderLatch(client, path, { id: 'zkwire' });
      latch.start();
      await latch.await();
      const n = await curator.latchStart(path, 'curator');
      await eventually(async () => (await curator.latchOurPath(n)) !== undefined, 10_000, 'Curator joined');
      const signal = latch.leadershipSignal;
      proxy.pause();
      expect(await curator.latchAwait(n, 20_000)).toBe(true);
      expect(signal.aborted).toBe(true); // zkwire stopped leading before Curator could start
      proxy.pass();
      await eventually(async () => (await curator.latchParticipants(n)).length === 2, 20_000, 'zkwire rejoined on its new session');
      expect(latch.hasLeadership()).toBe(false);
      expect(await curator.latchParticipants(n)).toEqual([
        { id: 'curator', isLeader: true },
        { id: 'zkwire', isLeader: false },
      ]);
      await curator.latchClose(n);
      expect(await latch.await({ timeoutMs: 10_000 })).toBe(true);
    } finally {
      await proxy.close();
    }
  });

  it("a Curator cache sees zkwire's group member and persistent node again after zkwire's session expires", async () => {
    const [host, port] = connectString.split(':');
    const proxy: FaultProxy = await startFaultProxy({ host: host as string, port: Number(port) });
    try {
      const root = lockPath('group');
      await zk.mkdirp(root);
      const n = await curator.cacheStart(root);
      await using client = await ZooKeeperClient.connect(proxy.connectString, { sessionTimeoutMs: 4000 });
      await using member = new GroupMember(client, root, 'member', 'm');
      await member.start();
      await using node = new PersistentNode(client, `${root}/node`, 'p');
      node.start();
      await node.waitForInitialCreate();
      // Curator's dump gives czxid/mzxid/data-in-hex for each node: the paths and the data are what must come back.
      const seen = async (): Promise<string> =>
        [...(await curator.cacheDump(n)).entries()]
          .filter(([p]) => p !== root)
          .map(([p, v]) => `${p}=${v.slice(v.lastIndexOf('/') + 1)}`)
          .sort()
          .join(' ');
      const both = `${root}/member=6d ${root}/node=70`; // 'm', 'p'
      await eventually(async () => (await seen()) === both, 10_000, 'Curator sees both');
      const memberCzxid = async (): Promise<string | undefined> => (await curator.cacheDump(n)).get(`${root}/member`)?.split('/')[0];
      const before = await memberCzxid();
      await expireSession(client, proxy, connectString);
      await eventually(async () => (await childrenOf(zk, root)).length === 2 && (await zk.exists(`${root}/member`))?.ephemeralOwner === client.sessionId, 20_000, 'both back on the new session');
      await eventually(async () => (await seen()) === both && (await memberCzxid()) !== before, 10_000, 'Curator sees both again, the member as a new node');
      await curator.cacheClose(n);
    } finally {
      await proxy.close();
    }
  });
});
