import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ZooKeeperClient } from '../../src/node.js';
import { InterProcessMutex } from '../../src/recipes/locks/mutex.js';
import { attemptRevoke } from '../../src/recipes/locks/revocation.js';
import { childrenOf, closeAll, codeOf, connectClients, eventually, lockPath, stillPending, UUID } from './helpers.js';

// Two sessions on the shared server, used by every test in this file (each on its own lock path).
let a: ZooKeeperClient;
let b: ZooKeeperClient;

beforeAll(async () => {
  [a, b] = (await connectClients(2)) as [ZooKeeperClient, ZooKeeperClient];
});
afterAll(async () => {
  await closeAll([a, b]);
});

describe('InterProcessMutex', () => {
  it('acquires uncontended with a Curator-named node, a fencing token, and releases it', async () => {
    const path = lockPath();
    const mutex = new InterProcessMutex(a, path);
    const lease = await mutex.acquire();
    expect(lease.acquired).toBe(true);
    expect(lease.node).toMatch(new RegExp(`^${path}/_c_${UUID}-lock-0000000000$`));
    const stat = await a.exists(lease.node);
    expect(stat?.czxid).toBe(lease.fencingToken);
    expect(stat?.ephemeralOwner).toBe(a.sessionId);
    expect(mutex.isAcquiredInThisProcess()).toBe(true);
    expect(await mutex.getParticipantNodes()).toEqual([lease.node]);
    expect(lease.signal.aborted).toBe(false);
    await lease.release();
    expect(lease.released).toBe(true);
    expect(mutex.isAcquiredInThisProcess()).toBe(false);
    expect(await childrenOf(a, path)).toEqual([]);
  });

  it('creates missing parents of the lock directory', async () => {
    const path = lockPath('deep/er');
    const lease = await new InterProcessMutex(a, path).acquire();
    expect(lease.node.startsWith(`${path}/_c_`)).toBe(true);
    await lease.release();
  });

  it('excludes another session; the waiter gets it when the holder releases', async () => {
    const path = lockPath();
    const held = await new InterProcessMutex(a, path).acquire();
    const waiting = new InterProcessMutex(b, path).acquire();
    expect(await stillPending(waiting)).toBe(true);
    await held.release();
    const next = await waiting;
    expect(next.node).not.toBe(held.node);
    expect(next.fencingToken > held.fencingToken).toBe(true);
    await next.release();
  });

  it('times out to {acquired:false} and leaves no node behind', async () => {
    const path = lockPath();
    const held = await new InterProcessMutex(a, path).acquire();
    const result = await new InterProcessMutex(b, path).acquire({ timeoutMs: 300 });
    expect(result).toMatchObject({ acquired: false });
    expect(await childrenOf(a, path)).toEqual([held.node.slice(path.length + 1)]);
    await held.release();
  });

  it('timeoutMs 0 is a try-lock: succeeds when free, fails at once when held', async () => {
    const path = lockPath();
    const first = await new InterProcessMutex(a, path).acquire({ timeoutMs: 0 });
    expect(first.acquired).toBe(true);
    const second = await new InterProcessMutex(b, path).acquire({ timeoutMs: 0 });
    expect(second.acquired).toBe(false);
    if (first.acquired) await first.release();
    expect(await childrenOf(a, path)).toEqual([]);
  });

  it('an abort rejects with ABORTED and deletes our node', async () => {
    const path = lockPath();
    const held = await new InterProcessMutex(a, path).acquire();
    const ac = new AbortController();
    const waiting = new InterProcessMutex(b, path).acquire({ signal: ac.signal });
    expect(await stillPending(waiting)).toBe(true);
    expect((await childrenOf(a, path)).length).toBe(2);
    ac.abort();
    expect(await codeOf(waiting)).toBe('ABORTED');
    expect(await childrenOf(a, path)).toEqual([held.node.slice(path.length + 1)]);
    await held.release();
  });

  it('an already-aborted signal sends nothing', async () => {
    const path = lockPath();
    expect(await codeOf(new InterProcessMutex(a, path).acquire({ signal: AbortSignal.abort() }))).toBe('ABORTED');
    expect(await childrenOf(a, path.slice(0, path.lastIndexOf('/')))).toEqual([]);
  });

  it('refuses bad paths and bad timeouts with BAD_ARGUMENT', async () => {
    expect(() => new InterProcessMutex(a, 'relative')).toThrowError(expect.objectContaining({ code: 'BAD_ARGUMENT' }) as Error);
    expect(() => new InterProcessMutex(a, '/x/')).toThrowError(expect.objectContaining({ code: 'BAD_ARGUMENT' }) as Error);
    expect(await codeOf(new InterProcessMutex(a, lockPath()).acquire({ timeoutMs: -1 }))).toBe('BAD_ARGUMENT');
    expect(await codeOf(new InterProcessMutex(a, lockPath()).acquire({ timeoutMs: Number.NaN }))).toBe('BAD_ARGUMENT');
  });

  it('await using releases at the end of the scope, also for a not-acquired result', async () => {
    const path = lockPath();
    const mutex = new InterProcessMutex(a, path);
    {
      await using lease = await mutex.acquire();
      expect(mutex.isHeldBy(lease)).toBe(true);
      {
        await using miss = await new InterProcessMutex(b, path).acquire({ timeoutMs: 50 });
        expect(miss.acquired).toBe(false);
      }
    }
    expect(mutex.isAcquiredInThisProcess()).toBe(false);
    expect(await childrenOf(a, path)).toEqual([]);
  });
});

describe('InterProcessMutex revocation and lost nodes', () => {
  it('attemptRevoke asks a revocable holder to release; a non-revocable holder is not asked', async () => {
    const path = lockPath();
    const mutex = new InterProcessMutex(a, path);
    const asked: string[] = [];
    mutex.makeRevocable((node) => asked.push(node));
    const lease = await mutex.acquire();
    await attemptRevoke(b, lease.node);
    await eventually(() => asked.length === 1, 10_000, 'revocation request');
    expect(asked).toEqual([lease.node]);
    await lease.release();
    await attemptRevoke(b, lease.node); // a node already gone is not an error
  });

  it('a revocable holder whose node is deleted under it gets its lock-lost signal (NONODE)', async () => {
    const path = lockPath();
    const mutex = new InterProcessMutex(a, path);
    mutex.makeRevocable(() => undefined);
    const lease = await mutex.acquire();
    await b.delete(lease.node);
    await eventually(() => lease.signal.aborted, 10_000, 'lock-lost signal');
    expect(lease.signal.reason).toMatchObject({ code: 'NONODE' });
    await lease.release();
  });

  it('closing the client aborts held leases with CLOSED', async () => {
    const [c] = await connectClients(1);
    const lease = await new InterProcessMutex(c as ZooKeeperClient, lockPath()).acquire();
    await (c as ZooKeeperClient).close();
    expect(lease.signal.aborted).toBe(true);
    expect(lease.signal.reason).toMatchObject({ code: 'CLOSED' });
    await lease.release();
  });
});
