import { describe, expect, it } from 'vitest';
import { ZooKeeperClient } from '../../src/node.js';
import { LeaderLatch } from '../../src/recipes/leader/leader-latch.js';
import { LeaderSelector } from '../../src/recipes/leader/leader-selector.js';
import { InterProcessMutex } from '../../src/recipes/locks/mutex.js';
import { InterProcessReadWriteLock } from '../../src/recipes/locks/read-write-lock.js';
import { InterProcessSemaphoreV2 } from '../../src/recipes/locks/semaphore-v2.js';
import { InterProcessSemaphoreMutex } from '../../src/recipes/locks/semaphore-mutex.js';
import { InterProcessMultiLock } from '../../src/recipes/locks/multi-lock.js';
import { CuratorCache } from '../../src/recipes/cache/curator-cache.js';
import { SharedCount } from '../../src/recipes/shared/shared-count.js';
import { GroupMember } from '../../src/recipes/nodes/group-member.js';
import { ServiceDiscovery } from '../../src/recipes/discovery/service-discovery.js';
import { serviceInstance } from '../../src/recipes/discovery/service-instance.js';
import { DistributedQueue } from '../../src/recipes/queues/distributed-queue.js';
import { utf8QueueSerializer } from '../../src/recipes/queues/item-format.js';
import { SimpleDistributedQueue } from '../../src/recipes/queues/simple-distributed-queue.js';
import { eventually, lockPath } from '../recipes/helpers.js';
import { serverOf } from './versioned-server.js';

/**
 * Curator's recipes on a real ZooKeeper 3.4.13 (Debian 11's), as Curator 4's compatibility mode runs them: a create
 * and a read where 3.5 has create2, persistent parents where it has containers, one-shot watches for caches.
 */
describe('recipes on ZooKeeper 3.4', () => {
  const zk34 = serverOf('3.4');
  const connect = async (): Promise<ZooKeeperClient> => ZooKeeperClient.connect(await zk34(), { sessionTimeoutMs: 10_000 });

  it('a leader latch leads (it waited for ever before: create2 UNIMPLEMENTED, then containers closing the link)', async () => {
    await using c = await connect();
    const path = lockPath('latch34');
    await using a = new LeaderLatch(c, path, { id: 'a' });
    a.start();
    expect(await a.await({ timeoutMs: 10_000 })).toBe(true);
    expect(c.serverFeatures).toMatchObject({ createWithStat: false, containers: false, persistentWatches: false });
    // the parents are plain persistent nodes there (ephemeralOwner 0, no container flag to read on 3.4)
    expect((await c.exists(path))?.ephemeralOwner).toBe(0n);
    await using d = await connect();
    await using b = new LeaderLatch(d, path, { id: 'b' });
    b.start();
    expect(await b.await({ timeoutMs: 200 })).toBe(false);
    await a.close();
    expect(await b.await({ timeoutMs: 10_000 })).toBe(true);
  });

  it('queues: the first offer and a lock-safe DistributedQueue (persistent parents, the link 3.4 closes on the feature check)', async () => {
    await using c = await connect();
    const path = lockPath('queue34');
    const simple = new SimpleDistributedQueue(c, `${path}/simple`);
    expect(await simple.poll({ timeoutMs: 50 })).toBeNull();
    const taking = simple.take();
    await simple.offer('one');
    expect(new TextDecoder().decode(await taking)).toBe('one');
    await using d = await connect();
    await new SimpleDistributedQueue(d, `${path}/other`).offer('first use'); // the parent made on a client that learns 3.4 here
    const got: string[] = [];
    await using queue = new DistributedQueue(c, `${path}/jobs`, { serializer: utf8QueueSerializer, lockPath: `${path}/locks`, consumer: (item) => void got.push(item) });
    await queue.start();
    await queue.putMulti(['a', 'b']);
    await queue.put('c');
    await eventually(() => got.length === 3, 10_000, 'consumed');
    expect(got).toEqual(['a', 'b', 'c']);
    expect(await c.getChildren(`${path}/jobs`)).toEqual([]);
    expect(await c.getChildren(`${path}/locks`)).toEqual([]);
  });

  it('a leader selector takes turns', async () => {
    await using c = await connect();
    const path = lockPath('selector34');
    const turns: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await using a = new LeaderSelector(c, path, async () => {
      turns.push('a');
      await held;
    }, { id: 'a' });
    await using b = new LeaderSelector(c, path, async () => void turns.push('b'), { id: 'b' });
    a.start();
    await eventually(() => turns.length === 1, 10_000, 'a leads');
    b.start();
    release();
    await eventually(() => turns.length === 2, 10_000, 'b leads after a');
    expect(turns).toEqual(['a', 'b']);
  });

  it('the five locks exclude and hand over', async () => {
    await using c = await connect();
    await using d = await connect();
    const taken = (r: AsyncDisposable | { acquired: false }): AsyncDisposable => {
      expect(r).not.toMatchObject({ acquired: false });
      return r as AsyncDisposable;
    };
    const release = async (r: AsyncDisposable | { acquired: false }): Promise<void> => await taken(r)[Symbol.asyncDispose]();
    const TIMED_OUT = { acquired: false };

    const mutexPath = lockPath('mutex34');
    const held = await new InterProcessMutex(c, mutexPath).acquire({ timeoutMs: 10_000 });
    expect(await new InterProcessMutex(d, mutexPath).acquire({ timeoutMs: 300 })).toMatchObject(TIMED_OUT);
    await release(held);
    await release(await new InterProcessMutex(d, mutexPath).acquire({ timeoutMs: 10_000 }));

    const rwPath = lockPath('rw34');
    const read = await new InterProcessReadWriteLock(c, rwPath).readLock.acquire({ timeoutMs: 10_000 });
    expect(await new InterProcessReadWriteLock(d, rwPath).writeLock.acquire({ timeoutMs: 300 })).toMatchObject(TIMED_OUT);
    await release(read);

    const semPath = lockPath('sem34');
    const lease = await new InterProcessSemaphoreV2(c, semPath, 1).acquire(1, { timeoutMs: 10_000 });
    expect(await new InterProcessSemaphoreV2(d, semPath, 1).acquire(1, { timeoutMs: 300 })).toMatchObject(TIMED_OUT);
    expect(Array.isArray(lease)).toBe(true);
    for (const l of lease as AsyncDisposable[]) await l[Symbol.asyncDispose]();

    const semMutexPath = lockPath('semmutex34');
    const sm = await new InterProcessSemaphoreMutex(c, semMutexPath).acquire({ timeoutMs: 10_000 });
    expect(await new InterProcessSemaphoreMutex(d, semMutexPath).acquire({ timeoutMs: 300 })).toMatchObject(TIMED_OUT);
    await release(sm);

    const paths = [lockPath('multi34'), lockPath('multi34')];
    const both = await new InterProcessMultiLock(c, paths).acquire({ timeoutMs: 10_000 });
    expect(await new InterProcessMutex(d, paths[1] as string).acquire({ timeoutMs: 300 })).toMatchObject(TIMED_OUT);
    await release(both);
    await release(await new InterProcessMutex(d, paths[1] as string).acquire({ timeoutMs: 10_000 }));
  });

  it('a CuratorCache follows a tree with one-shot watches', async () => {
    await using c = await connect();
    const root = lockPath('cache34');
    await c.mkdirp(`${root}/a`);
    await using cache = new CuratorCache(c, root);
    await cache.start();
    expect(cache.get(`${root}/a`)).toBeDefined();
    await c.create(`${root}/a/b`, 'b0');
    await eventually(() => cache.get(`${root}/a/b`) !== undefined, 10_000, 'the new node');
    await c.setData(`${root}/a/b`, 'b1');
    await eventually(() => new TextDecoder().decode(cache.get(`${root}/a/b`)?.data) === 'b1', 10_000, 'the change');
    await c.delete(`${root}/a/b`);
    await eventually(() => cache.get(`${root}/a/b`) === undefined, 10_000, 'the delete');
  });

  it('a shared count, a group member and service discovery work', async () => {
    await using c = await connect();
    await using d = await connect();
    const countPath = lockPath('count34');
    await using a = new SharedCount(c, countPath, 7);
    await a.start();
    await using b = new SharedCount(d, countPath, 0);
    await b.start();
    expect(b.getCount()).toBe(7);
    await a.setCount(9);
    await eventually(() => b.getCount() === 9, 10_000, 'b sees the change');

    const group = lockPath('group34');
    await using m1 = new GroupMember(c, group, 'm1');
    await using m2 = new GroupMember(d, group, 'm2');
    await m1.start();
    await m2.start();
    await eventually(() => m1.getCurrentMembers().size === 2, 10_000, 'both members seen');

    const basePath = lockPath('services34');
    await using discovery = new ServiceDiscovery(c, { basePath });
    await discovery.start();
    const one = serviceInstance({ name: 'orders', id: 'one', address: '10.0.0.1', port: 8080 });
    await discovery.registerService(one);
    await using reader = new ServiceDiscovery(d, { basePath });
    await reader.start();
    expect((await reader.queryForInstances('orders')).map((i) => i.id)).toEqual(['one']);
  });
});
