import { describe, expect, it } from 'vitest';
import { ZooKeeperClient } from '../../src/node.js';
import { LeaderLatch, type LeaderLatchEvent } from '../../src/recipes/leader/leader-latch.js';
import { READ_ACL_UNSAFE } from '../../src/client/acl.js';
import { sharedServer } from '../harness/zookeeper.js';
import { childrenOf, codeOf, eventually, lockPath, serverWatchesOf, useClients, UUID } from './helpers.js';

/** LeaderLatch against a real server: one leader, in join order, and every misuse a typed error. */
describe('LeaderLatch', () => {
  const z = useClients(3);

  it('the first to join leads; the next takes over when it closes; Curator node names and ids', async () => {
    const path = lockPath('latch');
    await using a = new LeaderLatch(z(0), path, { id: 'a' });
    await using b = new LeaderLatch(z(1), path, { id: 'b' });
    a.start();
    expect(await a.await()).toBe(true);
    b.start();
    await eventually(async () => (await childrenOf(z(2), path)).length === 2, 10_000, 'both joined');
    expect(b.hasLeadership()).toBe(false);
    expect(await b.await({ timeoutMs: 200 })).toBe(false);
    expect(a.ourPath).toMatch(new RegExp(`^${path}/_c_${UUID}-latch-\\d{10}$`));
    expect(await b.getParticipants()).toEqual([
      { id: 'a', isLeader: true },
      { id: 'b', isLeader: false },
    ]);
    expect(await b.getLeader()).toEqual({ id: 'a', isLeader: true });
    const tokenA = a.fencingToken as bigint;
    const signalA = a.leadershipSignal;
    expect(signalA.aborted).toBe(false);
    await a.close();
    expect(signalA.aborted).toBe(true);
    expect(signalA.reason).toMatchObject({ code: 'CLOSED' });
    expect(await b.await({ timeoutMs: 10_000 })).toBe(true);
    expect((b.fencingToken as bigint) > tokenA).toBe(true);
    expect(await childrenOf(z(2), path)).toEqual([(b.ourPath as string).slice(path.length + 1)]);
    expect(await b.getLeader()).toEqual({ id: 'b', isLeader: true });
  });

  it('events come as an async iterable and to listeners; NOTIFY_LEADER tells them on close, SILENT does not', async () => {
    const path = lockPath('latch');
    const notified = new LeaderLatch(z(0), path, { closeMode: 'NOTIFY_LEADER' });
    const seen: string[] = [];
    notified.addListener((e) => seen.push(e.type));
    const iterated: LeaderLatchEvent[] = [];
    const reading = (async () => {
      for await (const e of notified.events()) iterated.push(e);
    })();
    notified.start();
    await notified.await();
    await notified.close();
    await reading; // the iterator ends with the latch
    expect(seen).toEqual(['isLeader', 'notLeader']);
    expect(iterated.map((e) => e.type)).toEqual(['isLeader', 'notLeader']);
    expect(iterated[1]).toMatchObject({ reason: { code: 'CLOSED' } });

    const silent = new LeaderLatch(z(0), path);
    const heard: string[] = [];
    silent.addListener((e) => heard.push(e.type));
    silent.start();
    await silent.await();
    await silent.close();
    expect(heard).toEqual(['isLeader']);
    expect(silent.hasLeadership()).toBe(false);
  });

  it('misuse is a typed error: start twice, await or close before start, close twice; bad options', async () => {
    const path = lockPath('latch');
    const latch = new LeaderLatch(z(0), path);
    expect(await codeOf(latch.await())).toBe('ILLEGAL_STATE');
    expect(await codeOf(latch.close())).toBe('ILLEGAL_STATE');
    latch.start();
    await expect(latch.start()).rejects.toMatchObject({ code: 'ILLEGAL_STATE' });
    await latch.close();
    expect(await codeOf(latch.close())).toBe('ILLEGAL_STATE');
    expect(await codeOf(latch.await())).toBe('ILLEGAL_STATE');
    await expect(latch.start()).rejects.toMatchObject({ code: 'ILLEGAL_STATE' });
    await latch[Symbol.asyncDispose](); // disposing a closed latch is fine
    expect(() => new LeaderLatch(z(0), 'relative')).toThrow(expect.objectContaining({ code: 'BAD_ARGUMENT' }));
    expect(() => new LeaderLatch(z(0), path, { leadershipLost: 'never' as 'lost' })).toThrow(expect.objectContaining({ code: 'BAD_ARGUMENT' }));
    expect(await codeOf(new LeaderLatch(z(0), path).await({ timeoutMs: -1 }))).toBe('ILLEGAL_STATE');
    const started = new LeaderLatch(z(1), path);
    started.start();
    expect(await codeOf(started.await({ timeoutMs: -1 }))).toBe('BAD_ARGUMENT');
    await started.close();
    expect(await childrenOf(z(2), path)).toEqual([]);
  });

  it('await: ABORTED on the signal, false on timeout, ILLEGAL_STATE when the latch is closed meanwhile', async () => {
    const path = lockPath('latch');
    await using leader = new LeaderLatch(z(0), path);
    leader.start();
    await leader.await();
    const waiter = new LeaderLatch(z(1), path);
    waiter.start();
    const controller = new AbortController();
    const aborted = codeOf(waiter.await({ signal: controller.signal }));
    controller.abort();
    expect(await aborted).toBe('ABORTED');
    expect(await waiter.await({ timeoutMs: 100 })).toBe(false);
    const closing = codeOf(waiter.await());
    await waiter.close();
    expect(await closing).toBe('ILLEGAL_STATE');
  });

  it('a node deleted under the leader: its signal aborts with NONODE, it joins again with a new node and leads', async () => {
    const path = lockPath('latch');
    await using a = new LeaderLatch(z(0), path);
    a.start();
    await a.await();
    const first = a.ourPath as string;
    const signal = a.leadershipSignal;
    await z(2).delete(first);
    await eventually(() => signal.aborted, 10_000, 'leadership signal');
    expect(signal.reason).toMatchObject({ code: 'NONODE' });
    expect(await a.await({ timeoutMs: 10_000 })).toBe(true);
    expect(a.ourPath).not.toBe(first);
    expect(await childrenOf(z(2), path)).toHaveLength(1);
  });

  it('no reset storm (CURATOR-645): the node ahead vanishing makes a contender look again, never replace its node', async () => {
    const path = lockPath('latch');
    const latches = [0, 1, 2].map((i) => new LeaderLatch(z(i), path, { id: `p${i}` }));
    for (const latch of latches) {
      latch.start();
      await eventually(() => latch.ourPath !== undefined, 10_000, 'joined');
    }
    const [a, b, c] = latches as [LeaderLatch, LeaderLatch, LeaderLatch];
    await a.await();
    const pathsBefore = [b.ourPath, c.ourPath];
    // the middle node goes (as if its owner reset): c must watch a now, and keep its own node
    await z(0).delete(b.ourPath as string);
    await eventually(() => b.ourPath !== pathsBefore[0] && b.ourPath !== undefined, 10_000, 'b joined again');
    await a.close();
    expect(await c.await({ timeoutMs: 10_000 })).toBe(true);
    expect(c.ourPath).toBe(pathsBefore[1]);
    expect(b.hasLeadership()).toBe(false);
    // exactly the nodes of the two live latches: nobody churned
    expect((await childrenOf(z(2), path)).sort()).toEqual([b.ourPath, c.ourPath].map((p) => (p as string).slice(path.length + 1)).sort());
    await Promise.all([b.close(), c.close()]);
    expect(await childrenOf(z(2), path)).toEqual([]);
  });

  it('a waiting latch that is closed takes back its watch on the node ahead', async () => {
    const path = lockPath('latch');
    await using leader = new LeaderLatch(z(0), path);
    leader.start();
    await leader.await();
    const waiter = new LeaderLatch(z(1), path);
    waiter.start();
    const { connectString } = await sharedServer();
    const watched = async (): Promise<string[]> => (await serverWatchesOf(connectString, z(1).sessionIdHex)).filter((p) => p.startsWith(path));
    await eventually(async () => (await watched()).includes(leader.ourPath as string), 10_000, 'waiter watches the leader');
    await waiter.close();
    expect(await watched()).toEqual([]);
  });

  it('closed mid-check or mid-create leaves no node behind (CURATOR-3, CURATOR-18)', async () => {
    const path = lockPath('latch');
    await using leader = new LeaderLatch(z(0), path);
    leader.start();
    await leader.await();
    // close at every point of a contender's first steps: before its create is answered, between create and
    // listing, while it watches the node ahead, and right when the node ahead goes
    for (let i = 0; i < 12; i++) {
      const latch = new LeaderLatch(z(1 + (i % 2)), path);
      latch.start();
      for (let t = 0; t < i; t++) await new Promise((r) => setImmediate(r));
      await latch.close();
    }
    const waiter = new LeaderLatch(z(1), path);
    waiter.start();
    await eventually(() => waiter.ourPath !== undefined, 10_000, 'waiter joined');
    await Promise.all([leader.close(), waiter.close()]);
    expect(await childrenOf(z(2), path)).toEqual([]);
  });

  it('a latch whose directory cannot be made (NOAUTH) reports it, backs off instead of spinning, and closes at once', async () => {
    const parent = lockPath('readonly');
    await z(1).mkdirp(parent.slice(0, parent.lastIndexOf('/')));
    await z(1).create(parent, null, { acl: READ_ACL_UNSAFE }); // nobody may create under it
    const latch = new LeaderLatch(z(0), `${parent}/latch`);
    const errors: unknown[] = [];
    latch.addListener((e) => {
      if (e.type === 'error') errors.push(e.error);
    });
    const started = latch.start();
    await eventually(() => errors.length >= 2, 10_000, 'two reported failures');
    expect(errors[0]).toMatchObject({ code: 'NOAUTH' });
    // Back-off: 100 ms, doubling. Before the fix the protected create looped NONODE -> NOAUTH -> NONODE with no pause
    // (hundreds of thousands of creates in 2 s) and close() never resolved.
    const seen = errors.length;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(errors.length - seen).toBeLessThanOrEqual(2);
    // start() settled with the failure at once rather than waiting for a close (#26 item 5: no recipe hangs)
    expect(await codeOf(started)).toBe('NOAUTH');
    await latch.close();
    expect(latch.state).toBe('CLOSED');
  });


  it('a latch whose client is closed mid-loop ends, and the close completes (no loop going round at once on CLOSED)', async () => {
    // While a client closes it still says connected, but every call fails CLOSED at once: a loop that took that for
    // a broken link and went round without a pause spun on already-settled promises and starved the close.
    await using client = await ZooKeeperClient.connect((await sharedServer()).connectString, { sessionTimeoutMs: 10_000 });
    const latch = new LeaderLatch(client, lockPath('closing'));
    const started = latch.start();
    await client.close();
    expect(['resolved', 'CLOSED']).toContain(await codeOf(started)); // joined before the close, or ended by it
    await expect(latch.await()).rejects.toMatchObject({ code: 'CLOSED' });
    await latch.close();
  });

});
