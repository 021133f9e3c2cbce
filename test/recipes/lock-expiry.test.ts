import { describe, expect, it } from 'vitest';
import { ZooKeeperClient } from '../../src/node.js';
import { InterProcessMutex } from '../../src/recipes/locks/mutex.js';
import { InterProcessSemaphoreV2 } from '../../src/recipes/locks/semaphore-v2.js';
import { expireSession, nextChange } from '../harness/expire-session.js';
import { childrenOf, codeOf, eventually, lockPath, useProxiedServer } from './helpers.js';

/**
 * The locks across a session expiry on a client that renews its session (issue #18): a held lease reports that it
 * was lost and is never held again; an acquire waiting at the expiry starts over on the new session, within its
 * deadline. The expiry is forced: a second connection takes the session over and closes it (expire-session.ts).
 */
describe('locks across a session expiry', () => {
  const fx = useProxiedServer();

  const viaProxy = (): Promise<ZooKeeperClient> => ZooKeeperClient.connect(fx.proxy.connectString, { sessionTimeoutMs: 10_000 });

  it('a held lease is lost (SESSIONEXPIRED), never re-entered, and the owner can take the lock again on the new session', async () => {
    fx.proxy.pass();
    await using client = await viaProxy();
    const path = lockPath();
    const mutex = new InterProcessMutex(client, path, { lockLost: 'lost' });
    const lease = await mutex.acquire();
    const oldSession = client.sessionId;
    const renewed = nextChange(client, (c) => c.event === 'RECONNECTED' && c.newSession);
    await expireSession(client, fx.proxy, fx.connectString);
    expect(lease.signal.aborted).toBe(true);
    expect(lease.signal.reason).toMatchObject({ code: 'SESSIONEXPIRED' });
    await renewed;
    expect(client.sessionId).not.toBe(oldSession);
    // not held any more, in any sense
    expect(mutex.isHeldBy(lease)).toBe(false);
    expect(mutex.isAcquiredInThisProcess()).toBe(false);
    expect(await codeOf(mutex.acquire({ owner: lease, timeoutMs: 5000 }))).toBe('SESSIONEXPIRED');
    expect(await childrenOf(fx.direct, path)).toEqual([]);
    // someone else may take it now
    const other = await new InterProcessMutex(fx.direct, path).acquire({ timeoutMs: 5000 });
    expect(other.acquired).toBe(true);
    if (other.acquired) await other.release();
    // releasing the lost lease is harmless; then this owner acquires afresh, on the new session
    await lease.release();
    const again = await mutex.acquire({ owner: lease, timeoutMs: 5000 });
    expect(again.acquired).toBe(true);
    if (!again.acquired) return;
    expect((await fx.direct.exists(again.node))?.ephemeralOwner).toBe(client.sessionId);
    await again.release();
  });

  it('an acquire waiting at the expiry starts over on the new session and gets the lock when it is released', async () => {
    fx.proxy.pass();
    await using client = await viaProxy();
    const path = lockPath();
    const holder = await new InterProcessMutex(fx.direct, path).acquire();
    const waiting = new InterProcessMutex(client, path).acquire({ timeoutMs: 30_000 });
    await eventually(async () => (await childrenOf(fx.direct, path)).length === 2, 10_000, 'waiter queued');
    const [, before] = await childrenOf(fx.direct, path).then((c) => c.filter((n) => !holder.node.endsWith(n)).concat(''));
    const oldSession = client.sessionId;
    await expireSession(client, fx.proxy, fx.connectString);
    // the old node went with the session; the waiter queues again with a node of the new session
    await eventually(async () => {
      const children = await childrenOf(fx.direct, path);
      return children.length === 2 && !children.includes(before ?? '');
    }, 10_000, 'waiter queued again on the new session');
    expect(client.sessionId).not.toBe(oldSession);
    await holder.release();
    const lease = await waiting;
    expect(lease.acquired).toBe(true);
    if (!lease.acquired) return;
    expect((await fx.direct.exists(lease.node))?.ephemeralOwner).toBe(client.sessionId);
    expect(lease.signal.aborted).toBe(false);
    await lease.release();
    expect(await childrenOf(fx.direct, path)).toEqual([]);
  });

  it('a semaphore acquire waiting at the expiry starts over on the new session', async () => {
    fx.proxy.pass();
    await using client = await viaProxy();
    const path = lockPath('sem');
    const holder = await new InterProcessSemaphoreV2(fx.direct, path, 1).acquireOne();
    const waiting = new InterProcessSemaphoreV2(client, path, 1).acquireOne({ timeoutMs: 30_000 });
    await eventually(async () => (await childrenOf(fx.direct, `${path}/leases`)).length === 2, 10_000, 'waiter queued');
    await expireSession(client, fx.proxy, fx.connectString);
    await holder.release();
    const lease = await waiting;
    expect(lease.acquired).toBe(true);
    if (!lease.acquired) return;
    expect((await fx.direct.exists(lease.node))?.ephemeralOwner).toBe(client.sessionId);
    await lease.release();
    expect(await childrenOf(fx.direct, `${path}/leases`)).toEqual([]);
  });

  it('a held semaphore lease is lost with its session and no longer counts; its release is harmless', async () => {
    fx.proxy.pass();
    await using client = await viaProxy();
    const path = lockPath('sem');
    const semaphore = new InterProcessSemaphoreV2(client, path, 1, { lockLost: 'lost' });
    const lease = await semaphore.acquireOne();
    expect(semaphore.leasesHeldInThisProcess).toBe(1);
    await expireSession(client, fx.proxy, fx.connectString);
    expect(lease.signal.reason).toMatchObject({ code: 'SESSIONEXPIRED' });
    expect(semaphore.leasesHeldInThisProcess).toBe(0); // what InterProcessSemaphoreMutex.isAcquiredInThisProcess reads
    const other = await new InterProcessSemaphoreV2(fx.direct, path, 1).acquireOne({ timeoutMs: 5000 });
    expect(other.acquired).toBe(true);
    if (other.acquired) await other.release();
    await lease.release();
    expect(await childrenOf(fx.direct, `${path}/leases`)).toEqual([]);
  });
});
