import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ZooKeeperClient } from '../../src/node.js';
import { InterProcessSemaphoreMutex } from '../../src/recipes/locks/semaphore-mutex.js';
import { InterProcessSemaphoreV2 } from '../../src/recipes/locks/semaphore-v2.js';
import { childrenOf, closeAll, codeOf, connectClients, delay, eventually, lockPath, stillPending, UUID } from './helpers.js';

describe('InterProcessSemaphoreV2', () => {
  let clients: ZooKeeperClient[];

  beforeAll(async () => {
    clients = await connectClients(5);
  });
  afterAll(async () => {
    await closeAll(clients);
  });
  const client = (i: number): ZooKeeperClient => clients[i] as ZooKeeperClient;

  it('lays out locks/ and leases/ like Curator, with a fencing token per lease', async () => {
    const path = lockPath('sem');
    const sem = new InterProcessSemaphoreV2(client(0), path, 2);
    const lease = await sem.acquireOne();
    expect(lease.node).toMatch(new RegExp(`^${path}/leases/_c_${UUID}-lease-\\d{10}$`));
    expect((await client(0).exists(lease.node))?.czxid).toBe(lease.fencingToken);
    expect(await childrenOf(client(0), `${path}/locks`)).toEqual([]); // the gate is released once the lease is ours
    expect(sem.leasesHeldInThisProcess).toBe(1);
    await lease.release();
    expect(sem.leasesHeldInThisProcess).toBe(0);
    expect(await childrenOf(client(0), `${path}/leases`)).toEqual([]);
  });

  it('never has more than maxLeases holders across sessions', async () => {
    const path = lockPath('sem');
    let holding = 0;
    let most = 0;
    // Two holders at once by construction, not by timing luck: until a second lease has been seen held, a holder
    // keeps its lease until that happens. It cannot deadlock: while one lease is kept, the other is free.
    let sawTwo!: () => void;
    const twoHeld = new Promise<void>((resolve) => (sawTwo = resolve));
    await Promise.all(
      clients.map(async (c) => {
        const sem = new InterProcessSemaphoreV2(c, path, 2);
        for (let i = 0; i < 4; i++) {
          const lease = await sem.acquireOne();
          holding++;
          most = Math.max(most, holding);
          if (holding >= 2) sawTwo();
          await (most < 2 ? twoHeld : delay(5));
          holding--;
          await lease.release();
        }
      }),
    );
    expect(most).toBeLessThanOrEqual(2);
    expect(most).toBe(2);
  });

  it('a waiter gets a lease when one is returned; a timeout leaves no lease node', async () => {
    const path = lockPath('sem');
    const taken = await new InterProcessSemaphoreV2(client(0), path, 2).acquire(2);
    expect(taken).toHaveLength(2);
    const missed = await new InterProcessSemaphoreV2(client(1), path, 2).acquireOne({ timeoutMs: 200 });
    expect(missed.acquired).toBe(false);
    expect((await childrenOf(client(0), `${path}/leases`)).length).toBe(2);
    const waiting = new InterProcessSemaphoreV2(client(1), path, 2).acquireOne();
    expect(await stillPending(waiting)).toBe(true);
    await (taken[0] as { release(): Promise<void> }).release();
    const got = await waiting;
    await got.release();
    await (taken[1] as { release(): Promise<void> }).release();
  });

  it('acquire(qty) is all or nothing: on timeout it returns what it took', async () => {
    const path = lockPath('sem');
    const one = await new InterProcessSemaphoreV2(client(0), path, 3).acquireOne();
    const sem = new InterProcessSemaphoreV2(client(1), path, 3);
    const result = await sem.acquire(3, { timeoutMs: 300 });
    expect(result).toMatchObject({ acquired: false });
    expect(sem.leasesHeldInThisProcess).toBe(0);
    expect((await childrenOf(client(0), `${path}/leases`)).length).toBe(1);
    await one.release();
  });

  it('an abort rejects with ABORTED and leaves only the holders', async () => {
    const path = lockPath('sem');
    const one = await new InterProcessSemaphoreV2(client(0), path, 1).acquireOne();
    const ac = new AbortController();
    const waiting = new InterProcessSemaphoreV2(client(1), path, 1).acquireOne({ signal: ac.signal });
    expect(await stillPending(waiting)).toBe(true);
    ac.abort();
    expect(await codeOf(waiting)).toBe('ABORTED');
    expect(await childrenOf(client(0), `${path}/leases`)).toEqual([one.node.slice(`${path}/leases/`.length)]);
    expect(await childrenOf(client(0), `${path}/locks`)).toEqual([]);
    await one.release();
  });

  it('refuses a bad maxLeases or qty', async () => {
    expect(() => new InterProcessSemaphoreV2(client(0), lockPath(), 0)).toThrowError(expect.objectContaining({ code: 'BAD_ARGUMENT' }) as Error);
    expect(await codeOf(new InterProcessSemaphoreV2(client(0), lockPath(), 1).acquire(0))).toBe('BAD_ARGUMENT');
  });
});

describe('InterProcessSemaphoreMutex', () => {
  let a: ZooKeeperClient;
  beforeAll(async () => {
    [a] = (await connectClients(1)) as [ZooKeeperClient];
  });
  afterAll(async () => {
    await a.close();
  });

  it('is not re-entrant: a second acquire waits even for the same owner', async () => {
    const path = lockPath();
    const mutex = new InterProcessSemaphoreMutex(a, path);
    const first = await mutex.acquire();
    expect(mutex.isAcquiredInThisProcess()).toBe(true);
    const second = await mutex.acquire({ owner: first, timeoutMs: 200 });
    expect(second.acquired).toBe(false);
    await first.release();
    expect(mutex.isAcquiredInThisProcess()).toBe(false);
    const third = await mutex.acquire({ timeoutMs: 2000 });
    expect(third.acquired).toBe(true);
    if (third.acquired) await third.release();
  });
});

describe('InterProcessSemaphoreV2 waiting by position', () => {
  let clients: ZooKeeperClient[];
  beforeAll(async () => {
    clients = await connectClients(3);
  });
  afterAll(async () => {
    await closeAll(clients);
  });
  const c = (i: number): ZooKeeperClient => clients[i] as ZooKeeperClient;

  it('waiters hold no gate while they wait: each creates its lease node at once and is served in order', async () => {
    const path = lockPath('sem');
    const holder = await new InterProcessSemaphoreV2(c(0), path, 1).acquireOne();
    const first = new InterProcessSemaphoreV2(c(1), path, 1).acquireOne();
    await eventually(async () => (await childrenOf(c(0), `${path}/leases`)).length === 2, 10_000, 'first queued');
    const second = new InterProcessSemaphoreV2(c(2), path, 1).acquireOne();
    await eventually(async () => (await childrenOf(c(0), `${path}/leases`)).length === 3, 10_000, 'second queued');
    expect(await childrenOf(c(0), `${path}/locks`)).toEqual([]);
    await holder.release();
    const got = await first;
    expect(await stillPending(second)).toBe(true);
    await got.release();
    await (await second).release();
    expect(await childrenOf(c(0), `${path}/leases`)).toEqual([]);
  });

  it('with nobody at the gate, leases are made without it: the gate directory is never created', async () => {
    const path = lockPath('sem');
    await Promise.all(
      clients.map(async (client) => {
        const sem = new InterProcessSemaphoreV2(client, path, 2);
        for (let i = 0; i < 5; i++) await (await sem.acquireOne()).release();
      }),
    );
    expect(await c(0).exists(`${path}/locks`)).toBeNull();
    expect((await c(0).exists(`${path}/leases`))?.cversion).toBe(30); // 15 leases, each made once and deleted once
  });

  it('a lease made while someone holds the gate is taken back at once, and the acquirer queues on the gate', async () => {
    const path = lockPath('sem');
    await c(0).mkdirp(`${path}/leases`);
    await c(0).mkdirp(`${path}/locks`);
    // a plain client plays a Curator acquirer that holds the gate (and might be waiting with it)
    const curator = await c(0).create(`${path}/locks/_c_${randomUUID()}-lock-`, null, { mode: 'ephemeral-sequential' });
    const ours = new InterProcessSemaphoreV2(c(1), path, 1).acquireOne();
    await eventually(async () => (await childrenOf(c(0), `${path}/locks`)).length === 2, 10_000, 'our acquirer queued on the gate');
    const leases = await c(0).exists(`${path}/leases`);
    expect(leases?.numChildren).toBe(0);
    expect(leases?.cversion).toBe(2); // made without the gate, then deleted before queuing
    expect(await stillPending(ours)).toBe(true);
    await c(0).delete(curator);
    const lease = await ours;
    expect(await childrenOf(c(0), `${path}/leases`)).toEqual([lease.node.split('/').pop()]);
    expect(await childrenOf(c(0), `${path}/locks`)).toEqual([]);
    await lease.release();
  });

  it('a waiter whose gate node was deleted never keeps a lease made while someone else holds the gate', async () => {
    // The gate's waiter keeps no watch on its own gate node: the gate's release, sent right behind the lease create,
    // finds it gone, and the lease node is taken back. Two plain clients play Curator acquirers on the gate.
    const path = lockPath('sem');
    await c(0).mkdirp(`${path}/locks`);
    await c(0).mkdirp(`${path}/leases`);
    const curatorGate = (): string => `${path}/locks/_c_${randomUUID()}-lock-`;
    const first = (await c(0).create(curatorGate(), null, { mode: 'ephemeral-sequential' })).split('/').pop() as string;
    const ours = new InterProcessSemaphoreV2(c(1), path, 1).acquireOne();
    await eventually(async () => (await childrenOf(c(0), `${path}/locks`)).length === 2, 10_000, 'our waiter queued on the gate');
    const ourGate = (await childrenOf(c(0), `${path}/locks`)).find((name) => name !== first) as string;
    await c(0).delete(`${path}/locks/${ourGate}`); // an operator (or a session's end) removes it while we wait
    const second = (await c(2).create(curatorGate(), null, { mode: 'ephemeral-sequential' })).split('/').pop() as string;
    await c(0).delete(`${path}/locks/${first}`); // the second Curator acquirer now holds the gate
    // Our waiter thought it held the gate, made its lease, found its gate node gone, took the lease back and queued
    // again behind the gate's real holder: while that one holds, no lease node of ours is there.
    await eventually(async () => (await childrenOf(c(0), `${path}/locks`)).filter((n) => n !== second).length === 1, 10_000, 'our waiter queued again');
    const leases = await c(0).exists(`${path}/leases`);
    expect(leases?.numChildren).toBe(0);
    // two lease nodes made and deleted: one without the gate, taken back because the gate was held; one when our
    // waiter thought it held the gate, taken back because its gate node was gone
    expect(leases?.cversion).toBe(4);
    expect(await stillPending(ours)).toBe(true);
    await c(2).delete(`${path}/locks/${second}`);
    const lease = await ours;
    expect(await childrenOf(c(0), `${path}/leases`)).toEqual([lease.node.split('/').pop()]);
    expect(await childrenOf(c(0), `${path}/locks`)).toEqual([]);
    await lease.release();
  });
});
