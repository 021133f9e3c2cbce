/**
 * The recipes over each server (issue #20: the lock, latch, cache and member behaviours must agree): what each
 * promises across sessions, through the public API only.
 */

import { expect } from 'vitest';
import { InterProcessMutex, type ZooKeeperClient } from '../../../src/node.js';
import { CuratorCache, GroupMember, LeaderLatch } from '../../../src/recipes/index.js';
import { converged, showEvent } from '../../recipes/cache-helpers.js';
import { childrenOf, eventually } from '../../recipes/helpers.js';
import type { Topic } from '../suite.js';

const text = (bytes: Uint8Array | undefined): string => new TextDecoder().decode(bytes);

/** The one latch of `latches` that leads, once exactly one does. */
async function soleLeader(latches: readonly LeaderLatch[]): Promise<LeaderLatch> {
  await eventually(() => latches.filter((l) => l.hasLeadership()).length === 1, 10_000, 'exactly one leader');
  return latches.find((l) => l.hasLeadership())!;
}

/** One started latch per client on `path` (ids p0, p1, …); `await using` closes them all. */
async function latchGroup(clients: readonly ZooKeeperClient[], path: string): Promise<{ latches: LeaderLatch[] } & AsyncDisposable> {
  const latches = clients.map((client, i) => new LeaderLatch(client, path, { id: `p${i}` }));
  const group = {
    latches,
    async [Symbol.asyncDispose]() {
      await Promise.all(latches.map((l) => l.close().catch(() => undefined)));
    },
  };
  await Promise.all(latches.map((l) => l.start()));
  return group;
}

async function queued(client: ZooKeeperClient, path: string, n: number): Promise<void> {
  await eventually(async () => (await childrenOf(client, path)).length === n, 10_000, `${n} lock nodes`);
}

export const recipeCases: Topic = {
  title: 'recipes',
  define(c) {
    c('InterProcessMutex excludes across sessions: a second session cannot acquire while the first holds', async (t) => {
      const [a, b] = [await t.client(), await t.client()];
      const path = `${t.path()}/lock`;
      const held = await new InterProcessMutex(a, path).acquire();
      const attempt = await new InterProcessMutex(b, path).acquire({ timeoutMs: 300 });
      expect(attempt.acquired).toBe(false);
      expect(await childrenOf(a, path)).toHaveLength(1);
      await held.release();
      const now = await new InterProcessMutex(b, path).acquire({ timeoutMs: 10_000 });
      expect(now.acquired).toBe(true);
      if (now.acquired) await now.release();
    });

    c('InterProcessMutex hands the lock over in request order (FIFO) across sessions', async (t) => {
      const [a, b, d] = [await t.client(), await t.client(), await t.client()];
      const path = `${t.path()}/lock`;
      const order: string[] = [];
      const first = await new InterProcessMutex(a, path).acquire();
      const second = new InterProcessMutex(b, path).acquire().then((lease) => (order.push('b'), lease));
      await queued(a, path, 2);
      const third = new InterProcessMutex(d, path).acquire().then((lease) => (order.push('d'), lease));
      await queued(a, path, 3);
      await first.release();
      await (await second).release();
      await (await third).release();
      expect(order).toEqual(['b', 'd']);
      expect(await childrenOf(a, path)).toEqual([]);
    });

    c("InterProcessMutex: the holder's session expiry hands the lock to the next waiter", async (t) => {
      const [a, b] = [await t.client(), await t.client()];
      const path = `${t.path()}/lock`;
      const held = await new InterProcessMutex(a, path).acquire();
      const waiting = new InterProcessMutex(b, path).acquire({ timeoutMs: 20_000 });
      await queued(b, path, 2);
      await t.target.expire(a);
      expect(held.signal.aborted).toBe(true);
      const lease = await waiting;
      expect(lease.acquired).toBe(true);
      if (lease.acquired) {
        expect((await b.exists(lease.node))?.ephemeralOwner).toBe(b.sessionId);
        await lease.release();
      }
    });

    c('LeaderLatch: exactly one of three sessions leads, and all agree who', async (t) => {
      const clients = [await t.client(), await t.client(), await t.client()];
      const path = t.path();
      await using group = await latchGroup(clients, path);
      const { latches } = group;
      const leader = await soleLeader(latches);
      const leaderId = (await leader.getLeader()).id;
      expect(leaderId).toBe(`p${latches.indexOf(leader)}`);
      for (const l of latches) expect((await l.getLeader()).id).toBe(leaderId);
      expect((await latches[0]!.getParticipants()).length).toBe(3);
    });

    c('LeaderLatch: when the leader closes, another takes over', async (t) => {
      const clients = [await t.client(), await t.client()];
      const path = t.path();
      await using group = await latchGroup(clients, path);
      const { latches } = group;
      const leader = await soleLeader(latches);
      await leader.close();
      const next = latches.find((l) => l !== leader)!;
      expect(await next.await({ timeoutMs: 10_000 })).toBe(true);
    });

    c("LeaderLatch: the leader's session expiry hands leadership over; the old leader rejoins as a follower", async (t) => {
      const clients = [await t.client(), await t.client()];
      const path = t.path();
      await using group = await latchGroup(clients, path);
      const { latches } = group;
      const leader = await soleLeader(latches);
      const leaderClient = clients[latches.indexOf(leader)]!;
      await t.target.expire(leaderClient);
      expect(leader.hasLeadership()).toBe(false);
      const next = latches.find((l) => l !== leader)!;
      expect(await next.await({ timeoutMs: 10_000 })).toBe(true);
      await leaderClient.waitConnected();
      await eventually(async () => (await childrenOf(leaderClient, path)).length === 2, 10_000, 'the old leader to rejoin');
      expect(leader.hasLeadership()).toBe(false);
    });

    c('CuratorCache: loads the tree, then follows creates, changes and deletes in order', async (t) => {
      const [reader, writer] = [await t.client(), await t.client()];
      const root = t.path();
      await writer.mkdirp(`${root}/a/b`, { data: 'b0' });
      await using cache = new CuratorCache(reader, root);
      const events: string[] = [];
      cache.addListener((e) => events.push(showEvent(root, e)));
      await cache.start();
      expect(events.at(-1)).toBe('initialized');
      expect(events.slice(0, -1).sort()).toEqual(['CREATED /', 'CREATED /a', 'CREATED /a/b']);
      events.length = 0;
      await writer.create(`${root}/c`, 'c0');
      await writer.setData(`${root}/a/b`, 'b1');
      await writer.delete(`${root}/c`);
      await eventually(() => events.length === 3, 10_000, 'three events');
      expect(events).toEqual(['CREATED /c', 'CHANGED /a/b b1', 'DELETED /c']);
      expect(text(cache.get(`${root}/a/b`)?.data)).toBe('b1');
      expect(await converged(cache, writer)).toBe(true);
    });

    c("CuratorCache: across its session's expiry it catches up with changes made meanwhile", async (t) => {
      const [reader, writer] = [await t.client(), await t.client()];
      const root = t.path();
      await writer.mkdirp(`${root}/x`, { data: 'x0' });
      await using cache = new CuratorCache(reader, root);
      await cache.start();
      await t.target.expire(reader);
      await writer.setData(`${root}/x`, 'x1');
      await writer.create(`${root}/y`, 'y0');
      await reader.waitConnected();
      await eventually(() => text(cache.get(`${root}/y`)?.data) === 'y0' && text(cache.get(`${root}/x`)?.data) === 'x1', 10_000, 'the cache to catch up');
      await writer.delete(`${root}/y`);
      await eventually(() => cache.get(`${root}/y`) === undefined, 10_000, 'the delete after the expiry');
      expect(await converged(cache, writer)).toBe(true);
    });

    c('GroupMember: members see each other join with their payloads, and see a closed member leave', async (t) => {
      const [a, b] = [await t.client(), await t.client()];
      const path = t.path();
      const first = new GroupMember(a, path, 'one', 'p1');
      const second = new GroupMember(b, path, 'two', 'p2');
      try {
        await first.start();
        await second.start();
        await eventually(() => first.getCurrentMembers().size === 2, 10_000, 'both members seen by the first');
        expect(text(first.getCurrentMembers().get('two'))).toBe('p2');
        expect(text(second.getCurrentMembers().get('one'))).toBe('p1');
        expect((await a.exists(`${path}/two`))?.ephemeralOwner).toBe(b.sessionId);
        await second.close();
        await eventually(() => !first.getCurrentMembers().has('two'), 10_000, 'the closed member to leave');
        expect(await a.getChildren(path)).toEqual(['one']);
      } finally {
        await Promise.all([first.close(), second.close()].map((p) => p.catch(() => undefined)));
      }
    });

    c("GroupMember: a member's node comes back on its new session after an expiry", async (t) => {
      const [a, b] = [await t.client(), await t.client()];
      const path = t.path();
      const member = new GroupMember(a, path, 'one', 'p1');
      const observer = new GroupMember(b, path, 'obs');
      try {
        await member.start();
        await observer.start();
        await t.target.expire(a);
        await a.waitConnected();
        await eventually(async () => (await b.exists(`${path}/one`))?.ephemeralOwner === a.sessionId, 10_000, 'the member node on the new session');
        await eventually(() => observer.getCurrentMembers().has('one'), 10_000, 'the observer to see the member');
      } finally {
        await Promise.all([member.close(), observer.close()].map((p) => p.catch(() => undefined)));
      }
    });
  },
};
