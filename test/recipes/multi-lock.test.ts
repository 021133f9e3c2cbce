import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ZooKeeperClient } from '../../src/node.js';
import { InterProcessMultiLock } from '../../src/recipes/locks/multi-lock.js';
import { InterProcessMutex } from '../../src/recipes/locks/mutex.js';
import { InterProcessSemaphoreMutex } from '../../src/recipes/locks/semaphore-mutex.js';
import { childrenOf, closeAll, codeOf, connectClients, lockPath, stillPending } from './helpers.js';

describe('InterProcessMultiLock', () => {
  let a: ZooKeeperClient;
  let b: ZooKeeperClient;

  beforeAll(async () => {
    [a, b] = (await connectClients(2)) as [ZooKeeperClient, ZooKeeperClient];
  });
  afterAll(async () => {
    await closeAll([a, b]);
  });

  it('takes all locks, and releases them all', async () => {
    const paths = [lockPath('one'), lockPath('two'), lockPath('three')];
    const multi = new InterProcessMultiLock(a, paths);
    const lease = await multi.acquire();
    expect(lease.leases.map((l) => l.node.slice(0, l.node.lastIndexOf('/')))).toEqual(paths);
    expect(multi.isAcquiredInThisProcess()).toBe(true);
    await lease.release();
    expect(multi.isAcquiredInThisProcess()).toBe(false);
    for (const p of paths) expect(await childrenOf(a, p)).toEqual([]);
  });

  it('rolls back: when a later lock times out, the earlier ones are released', async () => {
    const paths = [lockPath('one'), lockPath('two')];
    const blocker = await new InterProcessMutex(b, paths[1] as string).acquire();
    const multi = new InterProcessMultiLock(a, paths);
    const result = await multi.acquire({ timeoutMs: 300 });
    expect(result.acquired).toBe(false);
    expect(await childrenOf(a, paths[0] as string)).toEqual([]);
    expect((await childrenOf(a, paths[1] as string)).length).toBe(1);
    await blocker.release();
  });

  it('rolls back on abort and reports ABORTED', async () => {
    const paths = [lockPath('one'), lockPath('two')];
    const blocker = await new InterProcessMutex(b, paths[1] as string).acquire();
    const ac = new AbortController();
    const pending = new InterProcessMultiLock(a, paths).acquire({ signal: ac.signal });
    expect(await stillPending(pending)).toBe(true);
    ac.abort();
    expect(await codeOf(pending)).toBe('ABORTED');
    expect(await childrenOf(a, paths[0] as string)).toEqual([]);
    await blocker.release();
  });

  it('mixes lock kinds and re-enters re-entrant ones for its owner', async () => {
    const mutexPath = lockPath('m');
    const mutex = new InterProcessMutex(a, mutexPath);
    const outer = await mutex.acquire();
    const multi = new InterProcessMultiLock([mutex, new InterProcessSemaphoreMutex(a, lockPath('s'))]);
    const lease = await multi.acquire({ owner: outer, timeoutMs: 2000 });
    expect(lease.acquired).toBe(true);
    if (!lease.acquired) return;
    expect(lease.leases[0]?.node).toBe(outer.node);
    await lease.release();
    expect(mutex.isHeldBy(outer)).toBe(true);
    await outer.release();
  });
});
