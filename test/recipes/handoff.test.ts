import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ZooKeeperClient } from '../../src/node.js';
import { InterProcessMutex } from '../../src/recipes/locks/mutex.js';
import { InterProcessReadWriteLock } from '../../src/recipes/locks/read-write-lock.js';
import { childrenOf, closeAll, connectClient, connectClients, delay, eventually, lockPath, stillPending } from './helpers.js';
import { describeFrames } from '../../src/session/describe-frames.js';

/**
 * The one-round-trip hand-off: a waiter whose only blocker is deleted takes the lock on that NodeDeleted alone,
 * without listing the directory again. These tests cover what that listing used to catch.
 */
describe('one-round-trip hand-off', () => {
  let clients: ZooKeeperClient[];
  const c = (i: number): ZooKeeperClient => clients[i] as ZooKeeperClient;

  beforeAll(async () => {
    clients = await connectClients(5);
  });
  afterAll(async () => {
    await closeAll(clients);
  });

  const queued = async (path: string, n: number): Promise<string[]> => {
    await eventually(async () => (await childrenOf(c(0), path)).length === n, 10_000, `${n} nodes queued`);
    return new InterProcessMutex(c(0), path).getParticipantNodes();
  };

  it('our node deleted while we are next in line: we start over behind the waiter that moved up, never beside it', async () => {
    const path = lockPath();
    const holder = await new InterProcessMutex(c(0), path).acquire();
    const b = new InterProcessMutex(c(1), path).acquire();
    await queued(path, 2);
    const cc = new InterProcessMutex(c(2), path).acquire();
    const [, bNode, cNode] = await queued(path, 3);
    // b is next in line (it watches the holder's node and its own); an operator deletes b's node
    await c(4).delete(bNode as string);
    // b starts over: a new node, now behind c
    await eventually(
      async () => {
        const nodes = await new InterProcessMutex(c(0), path).getParticipantNodes();
        return nodes.length === 3 && !nodes.includes(bNode as string) && nodes[1] === cNode;
      },
      10_000,
      'b queued again behind c',
    );
    await holder.release();
    const cLease = await cc;
    expect(cLease.node).toBe(cNode);
    // b must not have taken the holder's deletion as its own hand-off
    expect(await stillPending(b)).toBe(true);
    await cLease.release();
    const bLease = await b;
    expect(bLease.node).not.toBe(bNode);
    expect(await c(4).exists(bLease.node)).not.toBeNull();
    await bLease.release();
    expect(await childrenOf(c(0), path)).toEqual([]);
  });

  it('a waiter whose predecessor is not the head does not acquire when that predecessor goes', async () => {
    const path = lockPath();
    const holder = await new InterProcessMutex(c(0), path).acquire();
    const ac = new AbortController();
    const middle = new InterProcessMutex(c(1), path).acquire({ signal: ac.signal });
    await queued(path, 2);
    const last = new InterProcessMutex(c(2), path).acquire();
    const [, middleNode] = await queued(path, 3);
    // an operator deletes the middle node: last's predecessor goes, but the holder still holds
    await c(4).delete(middleNode as string);
    await eventually(async () => (await childrenOf(c(0), path)).length === 3, 10_000, 'middle queued again');
    expect(await stillPending(last)).toBe(true);
    ac.abort();
    await middle.catch(() => undefined);
    expect(await stillPending(last)).toBe(true);
    await holder.release();
    await (await last).release();
  });

  it('a waiter deep in the queue crosses off the nodes ahead as they go, in any order, and lists only once', async () => {
    const path = lockPath();
    const holder = await new InterProcessMutex(c(0), path).acquire();
    // ten more nodes ahead of the waiter, from another session, deleted below in a shuffled order
    const ahead: string[] = [];
    for (let i = 0; i < 10; i++) ahead.push(await c(1).create(`${path}/_c_${randomUUID()}-lock-`, null, { mode: 'ephemeral-sequential' }));
    let listings = 0;
    await using traced = await connectClient(undefined, {
      onFrame: describeFrames((t) => {
        if (t.dir === 'c2s' && t.frame.op === 'getChildren') listings++;
      }),
    });
    const waiting = new InterProcessMutex(traced, path).acquire();
    await queued(path, 12);
    const order = [3, 9, 0, 7, 1, 8, 2, 6, 4, 5];
    for (const i of order) {
      await c(1).delete(ahead[i] as string);
      expect(await stillPending(waiting, 50)).toBe(true);
    }
    await holder.release();
    const lease = await waiting;
    expect(listings).toBe(1); // the one sent with the create
    await lease.release();
    expect(await childrenOf(c(0), path)).toEqual([]);
  });

  it('read/write: a writer behind readers waits for all of them; a reader behind one writer goes in when it leaves', async () => {
    const path = lockPath('rw');
    const rw = (i: number): InterProcessReadWriteLock => new InterProcessReadWriteLock(c(i), path);
    const r1 = await rw(0).readLock.acquire();
    const r2 = await rw(1).readLock.acquire();
    const w3 = rw(2).writeLock.acquire();
    await queued(path, 3);
    const r4 = rw(3).readLock.acquire();
    await queued(path, 4);
    const w5 = rw(4).writeLock.acquire();
    await queued(path, 5);
    // w3 watches r2 (the node just ahead), which is not the only reader ahead: r2 leaving does not admit it
    await r2.release();
    await eventually(async () => (await childrenOf(c(0), path)).length === 4, 10_000, 'r2 gone');
    expect(await stillPending(w3)).toBe(true);
    await r1.release();
    const w = await w3;
    // r4 (behind one writer) and w5 (behind r4) wait for w3
    expect(await stillPending(r4)).toBe(true);
    expect(await stillPending(w5, 0)).toBe(true);
    await w.release();
    const r = await r4;
    expect(await stillPending(w5)).toBe(true);
    await r.release();
    await (await w5).release();
    expect(await childrenOf(c(0), path)).toEqual([]);
  });

  it('read/write: readers and writers hammering one lock never break exclusion', async () => {
    const path = lockPath('rw');
    let readers = 0;
    let writers = 0;
    const violations: string[] = [];
    const check = (): void => {
      if (writers > 1 || (writers === 1 && readers > 0)) violations.push(`readers ${readers}, writers ${writers}`);
    };
    const loop = async (client: ZooKeeperClient, write: boolean): Promise<void> => {
      const lock = new InterProcessReadWriteLock(client, path);
      for (let i = 0; i < 8; i++) {
        await using _lease = await (write ? lock.writeLock : lock.readLock).acquire();
        if (write) writers++;
        else readers++;
        check();
        await delay(1);
        if (write) writers--;
        else readers--;
      }
    };
    await Promise.all([loop(c(0), true), loop(c(1), false), loop(c(2), false), loop(c(3), true), loop(c(4), false)]);
    expect(violations).toEqual([]);
    expect(await childrenOf(c(0), path)).toEqual([]);
  });
});
