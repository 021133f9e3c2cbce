import { describe, expect, it } from 'vitest';
import { ZooKeeperClient } from '../../src/node.js';
import { InterProcessMutex } from '../../src/recipes/locks/mutex.js';
import { InterProcessReadWriteLock } from '../../src/recipes/locks/read-write-lock.js';
import { InterProcessSemaphoreV2 } from '../../src/recipes/locks/semaphore-v2.js';
import { childrenOf, delay, eventually, lockPath, useProxiedServer } from './helpers.js';

/**
 * A lock's `timeoutMs` bounds the whole acquire, not only the wait for the nodes ahead: the create, its retries
 * and the wait for a connection too (issue #18). The waiter's link is frozen by the fault proxy (bytes held both
 * ways, the socket open, so the client sees nothing wrong for seconds), as a frozen server would look to it.
 */
describe('an acquire with a timeout on a frozen link', () => {
  const fx = useProxiedServer();

  /** The outcome, or 'pending' while the link is still frozen after a generous bound (not a measurement). */
  function within<T>(p: Promise<T>, ms: number): Promise<T | 'pending'> {
    return Promise.race([p, delay(ms).then(() => 'pending' as const)]);
  }

  /** Resumes the link, waits for the waiter's requests held by the proxy to be answered, then for our node to go. */
  async function thawAndExpectOnly(waiter: ZooKeeperClient, dir: string, expected: readonly string[]): Promise<void> {
    fx.proxy.pass();
    // FIFO on the waiter's session: once this is answered, the held create has been applied (or refused)
    await waiter.sync('/');
    await eventually(async () => (await childrenOf(fx.direct, dir)).length === expected.length, 10_000, 'the abandoned node deleted');
    expect(await childrenOf(fx.direct, dir)).toEqual(expected);
  }

  it('mutex: settles { acquired: false } while the link is still frozen, and leaves no node once it is back', async () => {
    fx.proxy.pass();
    await using waiter = await ZooKeeperClient.connect(fx.proxy.connectString, { sessionTimeoutMs: 10_000 });
    const path = lockPath();
    const holder = await new InterProcessMutex(fx.direct, path).acquire();
    const mutex = new InterProcessMutex(waiter, path);
    fx.proxy.pause();
    const outcome = await within(mutex.acquire({ timeoutMs: 500 }), 3000);
    expect(outcome === 'pending' ? 'pending' : outcome.acquired).toBe(false);
    expect(mutex.isAcquiredInThisProcess()).toBe(false);
    await thawAndExpectOnly(waiter, path, [holder.node.slice(path.length + 1)]);
    await holder.release();
  });

  it('write lock: the same', async () => {
    fx.proxy.pass();
    await using waiter = await ZooKeeperClient.connect(fx.proxy.connectString, { sessionTimeoutMs: 10_000 });
    const path = lockPath();
    const holder = await new InterProcessReadWriteLock(fx.direct, path).readLock.acquire();
    const lock = new InterProcessReadWriteLock(waiter, path);
    fx.proxy.pause();
    const outcome = await within(lock.writeLock.acquire({ timeoutMs: 500 }), 3000);
    expect(outcome === 'pending' ? 'pending' : outcome.acquired).toBe(false);
    await thawAndExpectOnly(waiter, path, [holder.node.slice(path.length + 1)]);
    await holder.release();
  });

  it('semaphore: settles { acquired: false } and leaves no lease and no gate node', async () => {
    fx.proxy.pass();
    await using waiter = await ZooKeeperClient.connect(fx.proxy.connectString, { sessionTimeoutMs: 10_000 });
    const path = lockPath('sem');
    const holder = await new InterProcessSemaphoreV2(fx.direct, path, 1).acquireOne();
    const semaphore = new InterProcessSemaphoreV2(waiter, path, 1);
    fx.proxy.pause();
    const outcome = await within(semaphore.acquireOne({ timeoutMs: 500 }), 3000);
    expect(outcome === 'pending' ? 'pending' : outcome.acquired).toBe(false);
    expect(semaphore.leasesHeldInThisProcess).toBe(0);
    await thawAndExpectOnly(waiter, `${path}/leases`, [holder.node.slice(path.length + '/leases/'.length)]);
    expect(await childrenOf(fx.direct, `${path}/locks`)).toEqual([]);
    await holder.release();
  });

  it('an abort while the link is frozen rejects with ABORTED and leaves no node', async () => {
    fx.proxy.pass();
    await using waiter = await ZooKeeperClient.connect(fx.proxy.connectString, { sessionTimeoutMs: 10_000 });
    const path = lockPath();
    const holder = await new InterProcessMutex(fx.direct, path).acquire();
    fx.proxy.pause();
    const stop = new AbortController();
    const acquiring = new InterProcessMutex(waiter, path).acquire({ signal: stop.signal }).then(
      () => 'acquired',
      (err: { code?: string }) => err.code ?? 'not a ZooKeeperError',
    );
    await delay(100);
    stop.abort();
    expect(await within(acquiring, 3000)).toBe('ABORTED');
    await thawAndExpectOnly(waiter, path, [holder.node.slice(path.length + 1)]);
    await holder.release();
  });
});
