import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ZooKeeperClient } from '../../src/node.js';
import { InterProcessMutex } from '../../src/recipes/locks/mutex.js';
import { sharedServer } from '../harness/zookeeper.js';
import { childrenOf, closeAll, codeOf, connectClients, delay, eventually, lockPath, serverWatchesOf, stillPending } from './helpers.js';

/** A resource that refuses overlapping holders and stale fencing tokens, as a fenced storage system would. */
class FencedResource {
  inside = 0;
  lastToken = -1n;
  writes = 0;
  violations: string[] = [];

  enter(token: bigint): void {
    if (this.inside !== 0) this.violations.push(`overlap: ${this.inside} inside when token ${token} entered`);
    if (token <= this.lastToken) this.violations.push(`stale token ${token} after ${this.lastToken}`);
    this.inside++;
    this.lastToken = token;
  }

  leave(): void {
    this.inside--;
    this.writes++;
  }
}

describe('InterProcessMutex under contention', () => {
  let clients: ZooKeeperClient[];
  let connectString: string;

  beforeAll(async () => {
    connectString = (await sharedServer()).connectString;
    clients = await connectClients(8, connectString);
  });
  afterAll(async () => {
    await closeAll(clients);
  });

  it('8 sessions hammering one mutex never overlap, and fencing tokens only increase', async () => {
    const path = lockPath();
    const resource = new FencedResource();
    const rounds = 6;
    await Promise.all(
      clients.map(async (client) => {
        const mutex = new InterProcessMutex(client, path);
        for (let i = 0; i < rounds; i++) {
          await using lease = await mutex.acquire();
          resource.enter(lease.fencingToken);
          await delay(1);
          resource.leave();
        }
      }),
    );
    expect(resource.violations).toEqual([]);
    expect(resource.writes).toBe(8 * rounds);
    expect(await childrenOf(clients[0] as ZooKeeperClient, path)).toEqual([]);
  });

  it('is fair: waiters acquire in the order their nodes were created', async () => {
    const path = lockPath();
    const [holderClient, ...others] = clients as [ZooKeeperClient, ...ZooKeeperClient[]];
    const holder = await new InterProcessMutex(holderClient, path).acquire();
    const order: number[] = [];
    const waiters: Promise<void>[] = [];
    for (let i = 0; i < 5; i++) {
      const client = others[i] as ZooKeeperClient;
      waiters.push(
        (async () => {
          const lease = await new InterProcessMutex(client, path).acquire();
          order.push(i);
          await delay(5);
          await lease.release();
        })(),
      );
      // the next waiter starts only once this one's node exists, so creation order is i
      await eventually(async () => (await childrenOf(holderClient, path)).length === i + 2, 10_000, `waiter ${i} queued`);
    }
    await holder.release();
    await Promise.all(waiters);
    expect(order).toEqual([0, 1, 2, 3, 4]);
  });

  it('a waiter watches every node ahead of it and its own node, so its hand-off needs no listing', async () => {
    const path = lockPath();
    const [c0, c1, c2, c3] = clients as [ZooKeeperClient, ZooKeeperClient, ZooKeeperClient, ZooKeeperClient];
    const holder = await new InterProcessMutex(c0, path).acquire();
    const pending = [];
    for (const [i, client] of [c1, c2, c3].entries()) {
      pending.push(new InterProcessMutex(client, path).acquire());
      await eventually(async () => (await childrenOf(c0, path)).length === i + 2, 10_000, 'queued');
    }
    const nodes = await new InterProcessMutex(c0, path).getParticipantNodes();
    const watchesOf = async (c: ZooKeeperClient): Promise<string[]> => (await serverWatchesOf(connectString, c.sessionIdHex)).sort();
    await eventually(async () => (await watchesOf(c3)).length === 4, 10_000, 'watches set');
    // the nodes ahead, then our own
    expect(await watchesOf(c1)).toEqual(nodes.slice(0, 2).sort());
    expect(await watchesOf(c2)).toEqual(nodes.slice(0, 3).sort());
    expect(await watchesOf(c3)).toEqual(nodes.slice(0, 4).sort());
    await holder.release();
    for (const p of pending) await (await p).release();
  });

  it('deep in a long queue a waiter watches only the 8 nodes nearest to it, so a deletion wakes at most 8 (no herd)', async () => {
    const path = lockPath();
    const extra = await connectClients(10, connectString);
    try {
      const holder = await new InterProcessMutex(clients[0] as ZooKeeperClient, path).acquire();
      const pending = [];
      for (const [i, client] of extra.entries()) {
        pending.push(new InterProcessMutex(client, path).acquire());
        await eventually(async () => (await childrenOf(clients[0] as ZooKeeperClient, path)).length === i + 2, 10_000, 'queued');
      }
      const nodes = await new InterProcessMutex(clients[0] as ZooKeeperClient, path).getParticipantNodes();
      const last = extra[9] as ZooKeeperClient; // 10 nodes ahead of it: more than it watches at once
      await eventually(async () => (await serverWatchesOf(connectString, last.sessionIdHex)).length === 9, 10_000, 'watches set');
      // the 8 nodes nearest to it, and its own node; not the holder's or the next one's
      expect((await serverWatchesOf(connectString, last.sessionIdHex)).sort()).toEqual(nodes.slice(2, 11).sort());
      // 8 ahead: the deepest waiter that still watches them all
      expect((await serverWatchesOf(connectString, (extra[7] as ZooKeeperClient).sessionIdHex)).length).toBe(9);
      await holder.release();
      for (const p of pending) await (await p).release();
    } finally {
      await closeAll(extra);
    }
  });

  it('a timed-out or aborted waiter leaves neither a node nor a watch on the server', async () => {
    const path = lockPath();
    const [c0, c1] = clients as [ZooKeeperClient, ZooKeeperClient];
    const holder = await new InterProcessMutex(c0, path).acquire();

    const missed = await new InterProcessMutex(c1, path).acquire({ timeoutMs: 250 });
    expect(missed.acquired).toBe(false);
    expect(await serverWatchesOf(connectString, c1.sessionIdHex)).toEqual([]);
    expect((await childrenOf(c0, path)).length).toBe(1);

    const ac = new AbortController();
    const waiting = new InterProcessMutex(c1, path).acquire({ signal: ac.signal });
    // it watches the holder's node and its own
    await eventually(async () => (await serverWatchesOf(connectString, c1.sessionIdHex)).length === 2, 10_000, 'watches set');
    ac.abort();
    expect(await codeOf(waiting)).toBe('ABORTED');
    expect(await serverWatchesOf(connectString, c1.sessionIdHex)).toEqual([]);
    expect((await childrenOf(c0, path)).length).toBe(1);
    await holder.release();
  });

  it('a waiter whose predecessor gives up moves on to the node ahead of that one', async () => {
    const path = lockPath();
    const [c0, c1, c2] = clients as [ZooKeeperClient, ZooKeeperClient, ZooKeeperClient];
    const holder = await new InterProcessMutex(c0, path).acquire();
    const ac = new AbortController();
    const middle = new InterProcessMutex(c1, path).acquire({ signal: ac.signal });
    await eventually(async () => (await childrenOf(c0, path)).length === 2, 10_000, 'middle queued');
    const last = new InterProcessMutex(c2, path).acquire();
    await eventually(async () => (await childrenOf(c0, path)).length === 3, 10_000, 'last queued');
    ac.abort();
    expect(await codeOf(middle)).toBe('ABORTED');
    expect(await stillPending(last)).toBe(true);
    await holder.release();
    await (await last).release();
  });
});
