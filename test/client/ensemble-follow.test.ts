/**
 * Following the ensemble on a real 3-member ensemble with dynamic reconfiguration enabled (ZooKeeper's reconfig
 * guide setup, a superuser allowed to reconfig): updateServerList moving clients, a client given one member
 * surviving that member's death, and all three members replaced under a client holding a lock. The tests share the
 * ensemble and run in order (the second kills a member, the third replaces them all): ensembles are costly.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InterProcessMutex, isCode, reconfig, ZooKeeperClient } from '../../src/node.js';
import type { StateChange } from '../../src/session/state.js';
import { reconfigServerConfig, startReconfigEnsemble } from '../harness/reconfig-ensemble.js';
import type { ZkEnsemble } from '../harness/zookeeper.js';
import { eventually, serverWatchesOf } from '../recipes/helpers.js';
import { codeOf, connectShared, dec, uniquePath } from './helpers.js';
import { startJoiners, type Joiners } from './joining-members.js';
import { Prng } from '../harness/prng.js';
import { startFaultProxy } from '../../src/testing.js';

const SUPER = 'super:follow-secret';
let ensemble: ZkEnsemble;
let joiners: Joiners | undefined;

beforeAll(async () => {
  ensemble = await startReconfigEnsemble(SUPER);
}, 120_000);

afterAll(async () => {
  await joiners?.close();
  await ensemble?.close();
});

const sorted = (list: readonly string[]): string[] => [...list].sort();

/** Resolves with the first state change `test` accepts; rejects after `ms`. */
function nextChange(zk: ZooKeeperClient, test: (c: StateChange) => boolean, ms: number, what: string): Promise<StateChange> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`no ${what} within ${ms} ms`));
    }, ms);
    const off = zk.onStateChange((c) => {
      if (!test(c)) return;
      clearTimeout(timer);
      off();
      resolve(c);
    });
  });
}

describe('following the ensemble', () => {
  it('updateServerList moves some clients to the added members and every client whose member left, sessions kept', async () => {
    const [first, second, third] = ensemble.servers.map((s) => s.connectString) as [string, string, string];
    const prng = new Prng(266);
    const clients = await Promise.all(
      Array.from({ length: 9 }, () => ZooKeeperClient.connect(first, { sessionTimeoutMs: 10_000, trackEnsemble: false, random: () => prng.float() })),
    );
    try {
      const ids = clients.map((c) => c.sessionId);
      // One member to three: each client moves with probability 2/3 (the seeded source makes it exact). A call in
      // flight when a client moves is answered before the move, not failed by it.
      const inFlight = clients.map((c) => c.create(uniquePath('in-flight'), 'x', { mode: 'ephemeral' }));
      // The requests are written in a microtask; no reply can be read before the next I/O turn.
      await Promise.resolve();
      const moved = clients.map((c) => c.updateServerList(ensemble.connectString));
      const after = clients.map((c) => c.exists('/'));
      expect((await Promise.allSettled([...inFlight, ...after])).filter((r) => r.status === 'rejected')).toEqual([]);
      expect(moved.filter(Boolean).length).toBeGreaterThan(0);
      expect(moved.filter((m) => !m).length).toBeGreaterThan(0);
      for (const [i, c] of clients.entries()) {
        await c.waitConnected();
        expect(c.sessionId).toBe(ids[i]);
        if (moved[i] === true) expect([second, third]).toContain(c.connectedServer);
        else expect(c.connectedServer).toBe(first);
        expect(sorted(c.serverList)).toEqual(sorted([first, second, third]));
      }
      // The first member leaves the list: whoever is on it moves, for sure; the others stay where they are.
      const before = clients.map((c) => c.connectedServer);
      const leaving = clients.map((c) => c.updateServerList(`${second},${third}`));
      for (const [i, c] of clients.entries()) {
        expect(leaving[i]).toBe(before[i] === first);
        await c.waitConnected();
        expect(c.sessionId).toBe(ids[i]);
        expect([second, third]).toContain(c.connectedServer);
        if (before[i] !== first) expect(c.connectedServer).toBe(before[i]);
      }
      // Connect-string rules: a chroot must be the client's own; bad input is a typed error.
      const zk = clients[0] as ZooKeeperClient;
      expect(await codeOf(Promise.resolve().then(() => zk.updateServerList(`${second}/other`)))).toBe('BAD_ARGUMENT');
      expect(await codeOf(Promise.resolve().then(() => zk.updateServerList('host:99999')))).toBe('BAD_ARGUMENT');
      expect(await codeOf(Promise.resolve().then(() => zk.updateServerList(42 as unknown as string)))).toBe('BAD_ARGUMENT');
    } finally {
      await Promise.all(clients.map((c) => c.close()));
    }
  }, 60_000);

  it('a client that reaches a member through a proxy is left alone: its list stays, no watch is left', async () => {
    const member = ensemble.servers[1] as { host: string; port: number; connectString: string };
    const proxy = await startFaultProxy({ host: member.host, port: member.port });
    try {
      await using zk = await ZooKeeperClient.connect(proxy.connectString, { sessionTimeoutMs: 8_000 });
      // Two round trips after connecting: the tracker's read (queued when the session came up) is answered by then.
      await zk.sync('/');
      await zk.sync('/');
      expect(zk.serverList).toEqual([proxy.connectString]);
      expect(await serverWatchesOf(member.connectString, zk.sessionIdHex)).toEqual([]);
    } finally {
      await proxy.close();
    }
  });

  it('a client given one member of three learns the others and keeps its session when that member dies', async () => {
    const only = ensemble.servers[0]?.connectString as string;
    await using zk = await ZooKeeperClient.connect(only, { sessionTimeoutMs: 8_000 });
    await eventually(() => zk.serverList.length === 3, 20_000, 'the tracker to learn the members');
    expect(sorted(zk.serverList)).toEqual(sorted(ensemble.servers.map((s) => s.connectString)));
    await zk.waitConnected();
    const id = zk.sessionId;
    const on = zk.connectedServer;
    const index = ensemble.servers.findIndex((s) => s.connectString === on);
    const back = nextChange(zk, (c) => c.event === 'RECONNECTED', 30_000, 'reconnection');
    await ensemble.kill(index);
    const change = await back;
    expect(change.newSession).toBe(false);
    expect(zk.sessionId).toBe(id);
    expect(zk.connectedServer).not.toBe(on);
    expect(await zk.exists('/')).not.toBeNull();
  }, 60_000);

  it('all three members replaced by reconfig: the tracked client keeps its session and its lock, an untracked one loses the ensemble', async () => {
    const old = ensemble.servers.map((s) => s.connectString);
    await using tracked = await ZooKeeperClient.connect(ensemble.connectString, { sessionTimeoutMs: 8_000 });
    await using untracked = await ZooKeeperClient.connect(ensemble.connectString, { sessionTimeoutMs: 8_000, trackEnsemble: false, renewSession: false });
    const lockPath = uniquePath('follow-lock');
    const mutex = new InterProcessMutex(tracked, lockPath, { lockLost: 'lost' });
    const lease = await mutex.acquire();
    const id = tracked.sessionId;

    joiners = await startJoiners(dec((await tracked.getConfig()).data), [4, 5, 6], reconfigServerConfig(SUPER));
    const added = joiners.members.map((m) => m.connectString);
    // The change is asked of a joiner: a member being removed may drop its clients before it answers.
    await using admin = await ZooKeeperClient.connect(added[0] as string, { sessionTimeoutMs: 20_000, trackEnsemble: false, authInfo: [{ scheme: 'digest', auth: SUPER }] });
    // A follower drops its clients when its leader changes (here the leader leaves), so the reply can be lost: then
    // the configuration the joiner serves says whether the change was made.
    await reconfig(admin, { newMembers: joiners.specs }).catch((e: unknown) => {
      if (!isCode(e, 'CONNECTIONLOSS')) throw e;
    });
    const newIds = async (): Promise<string> => {
      const config = await admin.getConfig().then((c) => dec(c.data), () => '');
      return [...config.matchAll(/^server\.(\d+)=/gm)].map((m) => m[1]).sort().join();
    };
    await eventually(async () => (await newIds()) === '4,5,6', 30_000, 'the new configuration');

    // The tracker sees the new configuration; the client's member left it, so the client moves to a new one.
    await eventually(() => sorted(tracked.serverList).join() === sorted(added).join() && added.includes(tracked.connectedServer ?? ''), 30_000, 'the tracked client to move');
    const lost = nextChange(untracked, (c) => c.to === 'expired', 40_000, 'expiry of the untracked session');
    for (const i of [0, 1, 2]) await ensemble.kill(i);

    // The untracked client knows only the old members: nowhere to go, its session expires.
    await lost;
    expect(sorted(untracked.serverList)).toEqual(sorted(old));
    expect(untracked.ended).toBe(true);

    await tracked.waitConnected();
    expect(tracked.sessionId).toBe(id);
    expect(tracked.sessionRenewals).toBe(0);
    expect(added).toContain(tracked.connectedServer);
    expect(lease.signal.aborted).toBe(false);
    expect(mutex.isAcquiredInThisProcess()).toBe(true);
    const node = await tracked.exists(lease.node);
    expect(node?.ephemeralOwner).toBe(id);
    await lease.release();
    expect(await tracked.exists(lease.node)).toBeNull();
  }, 240_000);
});

describe('servers with nothing to follow', () => {
  it('a standalone server: the list stays, no watch is left on the server, no state change', async () => {
    const changes: StateChange[] = [];
    await using zk = await connectShared();
    zk.onStateChange((c) => changes.push(c));
    const serverList = zk.serverList;
    // A round trip after the tracker's read (sent right after connecting, so answered before this one).
    await zk.sync('/');
    expect(zk.serverList).toEqual(serverList);
    expect(await serverWatchesOf(zk.connectedServer as string, zk.sessionIdHex)).toEqual([]);
    expect(changes).toEqual([]);
  });
});
