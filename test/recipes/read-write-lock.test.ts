import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ZooKeeperClient } from '../../src/node.js';
import { InterProcessReadWriteLock } from '../../src/recipes/locks/read-write-lock.js';
import { childrenOf, closeAll, codeOf, connectClients, eventually, lockPath, stillPending, UUID } from './helpers.js';

describe('InterProcessReadWriteLock', () => {
  let a: ZooKeeperClient;
  let b: ZooKeeperClient;
  let c: ZooKeeperClient;

  beforeAll(async () => {
    [a, b, c] = (await connectClients(3)) as [ZooKeeperClient, ZooKeeperClient, ZooKeeperClient];
  });
  afterAll(async () => {
    await closeAll([a, b, c]);
  });

  it('names nodes __READ__ / __WRIT__ like Curator', async () => {
    const path = lockPath();
    const rw = new InterProcessReadWriteLock(a, path);
    const r = await rw.readLock.acquire();
    expect(r.node).toMatch(new RegExp(`^${path}/_c_${UUID}-__READ__\\d{10}$`));
    await r.release();
    const w = await rw.writeLock.acquire();
    expect(w.node).toMatch(new RegExp(`^${path}/_c_${UUID}-__WRIT__\\d{10}$`));
    await w.release();
  });

  it('readers in different sessions share', async () => {
    const path = lockPath();
    const r1 = await new InterProcessReadWriteLock(a, path).readLock.acquire();
    const r2 = await new InterProcessReadWriteLock(b, path).readLock.acquire({ timeoutMs: 2000 });
    expect(r2.acquired).toBe(true);
    await r1.release();
    if (r2.acquired) await r2.release();
  });

  it('a writer waits for readers ahead of it, and readers behind a waiting writer wait too (fair)', async () => {
    const path = lockPath();
    const r1 = await new InterProcessReadWriteLock(a, path).readLock.acquire();
    const writer = new InterProcessReadWriteLock(b, path).writeLock.acquire();
    await eventually(async () => (await childrenOf(a, path)).length === 2, 10_000, 'writer queued');
    expect(await stillPending(writer)).toBe(true);
    const lateReader = new InterProcessReadWriteLock(c, path).readLock.acquire();
    await eventually(async () => (await childrenOf(a, path)).length === 3, 10_000, 'reader queued');
    expect(await stillPending(lateReader)).toBe(true);
    await r1.release();
    const w = await writer;
    expect(await stillPending(lateReader)).toBe(true);
    await w.release();
    await (await lateReader).release();
  });

  it('a writer excludes readers and other writers', async () => {
    const path = lockPath();
    const w = await new InterProcessReadWriteLock(a, path).writeLock.acquire();
    expect((await new InterProcessReadWriteLock(b, path).readLock.acquire({ timeoutMs: 200 })).acquired).toBe(false);
    expect((await new InterProcessReadWriteLock(c, path).writeLock.acquire({ timeoutMs: 200 })).acquired).toBe(false);
    await w.release();
    expect(await childrenOf(a, path)).toEqual([]);
  });

  it('the write holder may take the read lock and downgrade by releasing write', async () => {
    const path = lockPath();
    const rw = new InterProcessReadWriteLock(a, path);
    const w = await rw.writeLock.acquire();
    const r = await rw.readLock.acquire({ owner: w, timeoutMs: 2000 });
    expect(r.acquired).toBe(true);
    await w.release();
    // now only a read lock is held: another reader shares, a writer waits
    const otherReader = await new InterProcessReadWriteLock(b, path).readLock.acquire({ timeoutMs: 2000 });
    expect(otherReader.acquired).toBe(true);
    expect((await new InterProcessReadWriteLock(c, path).writeLock.acquire({ timeoutMs: 200 })).acquired).toBe(false);
    if (r.acquired) await r.release();
    if (otherReader.acquired) await otherReader.release();
  });

  it('a reader of the same object without the owner is an independent flow and waits for the writer', async () => {
    const path = lockPath();
    const rw = new InterProcessReadWriteLock(a, path);
    const w = await rw.writeLock.acquire();
    expect((await rw.readLock.acquire({ timeoutMs: 200 })).acquired).toBe(false);
    await w.release();
  });

  it('refuses to upgrade read to write for the same owner (it could never succeed)', async () => {
    const path = lockPath();
    const rw = new InterProcessReadWriteLock(a, path);
    const r = await rw.readLock.acquire();
    expect(await codeOf(rw.writeLock.acquire({ owner: r }))).toBe('BAD_ARGUMENT');
    await r.release();
  });

  it('both halves are re-entrant and list their own participants', async () => {
    const path = lockPath();
    const rw = new InterProcessReadWriteLock(a, path);
    const w1 = await rw.writeLock.acquire();
    const w2 = await rw.writeLock.acquire({ owner: w1 });
    const r1 = await rw.readLock.acquire({ owner: w1 });
    expect(w2.node).toBe(w1.node);
    expect(await rw.writeLock.getParticipantNodes()).toEqual([w1.node]);
    expect(await rw.readLock.getParticipantNodes()).toEqual([r1.node]);
    await r1.release();
    await w2.release();
    await w1.release();
    expect(await childrenOf(a, path)).toEqual([]);
  });
});
