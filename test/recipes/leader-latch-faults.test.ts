import { describe, expect, it } from 'vitest';
import { ZooKeeperClient } from '../../src/node.js';
import { OpCode } from '../../src/protocol/opcodes.js';
import { cleanupsSettled } from '../../src/recipes/common/nodes.js';
import { LeaderLatch, type LeaderLatchOptions } from '../../src/recipes/leader/leader-latch.js';
import { childrenOf, codeOf, eventually, lockPath, useProxiedServer } from './helpers.js';
import { expireSession, nextChange } from '../harness/expire-session.js';

/**
 * LeaderLatch when links break and sessions end, each case one of Curator's LeaderLatch failures, driven through a
 * frame-aware proxy in front of a real server. Proxied sessions use the smallest timeout the server allows (4 s).
 */
describe('LeaderLatch under faults', () => {
  const fx = useProxiedServer();

  const viaProxy = (): Promise<ZooKeeperClient> => ZooKeeperClient.connect(fx.proxy.connectString, { sessionTimeoutMs: 4000 });

  /** Fails the test if two latches ever both claim leadership: checked whenever either gains it. */
  function neverTwoLeaders(latches: readonly LeaderLatch[]): { overlaps: number } {
    const record = { overlaps: 0 };
    for (const latch of latches) {
      latch.addListener((event) => {
        if (event.type !== 'isLeader') return;
        if (latches.some((other) => other !== latch && other.hasLeadership())) record.overlaps++;
      });
    }
    return record;
  }

  async function roundTrip(client: ZooKeeperClient): Promise<boolean> {
    try {
      await client.sync('/');
      return true;
    } catch {
      return false;
    }
  }

  function latch(client: ZooKeeperClient, path: string, id: string, options: LeaderLatchOptions = {}): LeaderLatch {
    const l = new LeaderLatch(client, path, { id, ...options });
    l.start();
    return l;
  }

  it('session expiry of the leader (CURATOR-696): it stops leading on suspension, never leads on the dead session, rejoins behind the new leader', async () => {
    fx.proxy.pass();
    const path = lockPath('latch');
    await using clientA = await viaProxy();
    await using a = latch(clientA, path, 'a');
    await a.await();
    const tokenA = a.fencingToken as bigint;
    const aEvents: string[] = [];
    a.addListener((e) => aEvents.push(e.type === 'notLeader' ? `notLeader:${e.reason.code}` : e.type));
    await using b = latch(fx.direct, path, 'b');
    const overlap = neverTwoLeaders([a, b]);
    await eventually(async () => (await childrenOf(fx.direct, path)).length === 2, 10_000, 'b joined');

    fx.proxy.pause();
    // b can only lead once the server has expired a's session, and a gave up leading long before
    expect(await b.await({ timeoutMs: 20_000 })).toBe(true);
    expect(aEvents[0]).toBe('notLeader:CONNECTIONLOSS');
    const oldSession = clientA.sessionId;
    fx.proxy.pass();
    await eventually(
      async () => (await childrenOf(fx.direct, path)).length === 2 && clientA.sessionId !== oldSession && a.ourPath !== undefined,
      15_000,
      'a rejoined on its new session',
    );
    expect((await fx.direct.exists(a.ourPath as string))?.ephemeralOwner).toBe(clientA.sessionId);
    expect(await a.await({ timeoutMs: 0 })).toBe(false);
    expect(aEvents).not.toContain('isLeader');
    expect(a.hasLeadership()).toBe(false);
    expect((b.fencingToken as bigint) > tokenA).toBe(true);
    expect(await b.getParticipants()).toEqual([
      { id: 'b', isLeader: true },
      { id: 'a', isLeader: false },
    ]);
    expect(overlap.overlaps).toBe(0);
  });

  it('a burst of reconnects (CURATOR-620/652): one leader throughout, nobody replaces its node, no second leader', async () => {
    fx.proxy.pass();
    const path = lockPath('latch');
    await using clientA = await viaProxy();
    await using clientB = await viaProxy();
    // "lost": connection blips alone do not end leadership, so the leader must keep it through all of them
    await using a = latch(clientA, path, 'a', { leadershipLost: 'lost' });
    await a.await();
    await using b = latch(clientB, path, 'b', { leadershipLost: 'lost' });
    await eventually(() => b.ourPath !== undefined, 10_000, 'b joined');
    const overlap = neverTwoLeaders([a, b]);
    const nodes = [a.ourPath, b.ourPath];
    let bLed = false;
    b.addListener((e) => (bLed ||= e.type === 'isLeader'));
    for (let i = 0; i < 6; i++) {
      fx.proxy.resetAll();
      if (i % 2 === 1) {
        await eventually(() => clientA.state === 'connected' && clientB.state === 'connected', 15_000, 'reconnected');
      }
    }
    // a round trip on each connection once the resets are over: the latches' re-checks have been answered
    await eventually(() => roundTrip(clientA), 15_000, 'a reconnected');
    await eventually(() => roundTrip(clientB), 15_000, 'b reconnected');
    expect(a.hasLeadership()).toBe(true);
    expect(bLed).toBe(false);
    expect([a.ourPath, b.ourPath]).toEqual(nodes);
    expect((await childrenOf(fx.direct, path)).length).toBe(2);
    expect(overlap.overlaps).toBe(0);
  });

  it('a burst of reconnects with the default policy: the leader steps down each time and leads again on its own node', async () => {
    fx.proxy.pass();
    const path = lockPath('latch');
    await using clientA = await viaProxy();
    await using a = latch(clientA, path, 'a');
    await a.await();
    const node = a.ourPath;
    const token = a.fencingToken;
    const b = latch(fx.direct, path, 'b');
    const overlap = neverTwoLeaders([a, b]);
    const types: string[] = [];
    a.addListener((e) => types.push(e.type));
    for (let i = 0; i < 3; i++) {
      fx.proxy.resetAll();
      await eventually(() => types.filter((t) => t === 'notLeader').length === i + 1, 15_000, 'a stepped down');
      expect(await a.await({ timeoutMs: 15_000 })).toBe(true);
    }
    expect(types).toEqual(['notLeader', 'isLeader', 'notLeader', 'isLeader', 'notLeader', 'isLeader']);
    expect(a.ourPath).toBe(node);
    expect(a.fencingToken).toBe(token); // the same node, held by a session that never ended: no one led between
    expect(b.hasLeadership()).toBe(false);
    expect(overlap.overlaps).toBe(0);
    await b.close();
  });

  it('our node deleted while disconnected (CURATOR-724): after reconnecting the latch sees it, joins again, queues', async () => {
    fx.proxy.pass();
    const path = lockPath('latch');
    await using clientA = await viaProxy();
    await using a = latch(clientA, path, 'a');
    await a.await();
    const oldNode = a.ourPath as string;
    await using b = latch(fx.direct, path, 'b');
    await eventually(() => b.ourPath !== undefined, 10_000, 'b joined');
    const overlap = neverTwoLeaders([a, b]);
    fx.proxy.pause();
    await eventually(() => !a.hasLeadership(), 15_000, 'a suspended');
    await fx.direct.delete(oldNode);
    expect(await b.await({ timeoutMs: 10_000 })).toBe(true);
    fx.proxy.pass();
    await eventually(() => a.ourPath !== undefined && a.ourPath !== oldNode, 15_000, 'a joined again');
    expect(a.hasLeadership()).toBe(false);
    expect(await a.getParticipants()).toEqual([
      { id: 'b', isLeader: true },
      { id: 'a', isLeader: false },
    ]);
    await b.close();
    expect(await a.await({ timeoutMs: 10_000 })).toBe(true);
    expect(overlap.overlaps).toBe(0);
  });

  it('a latch whose session expired rejoins on the client\'s new session and leads again once the other leaves', async () => {
    fx.proxy.pass();
    const path = lockPath('latch');
    await using client = await viaProxy();
    await using a = latch(client, path, 'a');
    await a.await();
    const firstToken = a.fencingToken as bigint;
    await using b = latch(fx.direct, path, 'b');
    await eventually(() => b.ourPath !== undefined, 10_000, 'b joined');
    const overlap = neverTwoLeaders([a, b]);
    // The link frozen past the session timeout, as a long GC pause or a partition would: a suspends (and steps
    // down) long before the server expires its session and b takes over.
    const lost = nextChange(client, (c) => c.event === 'LOST');
    fx.proxy.pause();
    expect(await b.await({ timeoutMs: 20_000 })).toBe(true);
    fx.proxy.pass();
    expect((await lost).reason).toMatchObject({ code: 'SESSIONEXPIRED' });
    await eventually(async () => (await b.getParticipants()).length === 2, 20_000, 'a rejoined on a new session');
    expect(await b.getParticipants()).toEqual([
      { id: 'b', isLeader: true },
      { id: 'a', isLeader: false },
    ]);
    await b.close();
    expect(await a.await({ timeoutMs: 10_000 })).toBe(true);
    expect((a.fencingToken as bigint) > firstToken).toBe(true);
    expect(overlap.overlaps).toBe(0);
  });

  it('on a client with renewSession: false, an expiry ends the latch: await() rejects with SESSIONEXPIRED', async () => {
    fx.proxy.pass();
    const path = lockPath('latch');
    await using client = await ZooKeeperClient.connect(fx.proxy.connectString, { sessionTimeoutMs: 4000, renewSession: false });
    await using a = latch(client, path, 'a');
    await a.await();
    await expireSession(client, fx.proxy, fx.connectString);
    expect(await codeOf(a.await())).toBe('SESSIONEXPIRED');
    expect(a.hasLeadership()).toBe(false);
  });

  it('a create whose reply is lost: the node is found by its protection prefix, no orphan; closing then leaves nothing', async () => {
    fx.proxy.pass();
    const path = lockPath('latch');
    await using client = await viaProxy();
    await fx.direct.mkdirp(path); // so the create whose reply is lost is the one that makes our node
    let dropped = 0;
    fx.proxy.dropReplies((frame) => frame.opcode === OpCode.create2 && dropped++ === 0);
    const a = latch(client, path, 'a');
    expect(await a.await({ timeoutMs: 20_000 })).toBe(true);
    fx.proxy.pass();
    expect(dropped).toBeGreaterThan(0);
    expect(await childrenOf(fx.direct, path)).toEqual([(a.ourPath as string).slice(path.length + 1)]);
    await a.close();

    // the same, but the latch is closed while its create's fate is unknown
    dropped = 0;
    fx.proxy.dropReplies((frame) => frame.opcode === OpCode.create2 && dropped++ === 0);
    const b = latch(client, path, 'b');
    await eventually(() => dropped === 1, 10_000, 'reply dropped');
    await b.close(); // does not wait for the create's fate: its node is found and deleted in the background
    fx.proxy.pass();
    await cleanupsSettled(client);
    expect(await childrenOf(fx.direct, path)).toEqual([]);
  });
});
