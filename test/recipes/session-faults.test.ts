import { describe, expect, it } from 'vitest';
import { Op, ZooKeeperClient } from '../../src/node.js';
import { OpCode } from '../../src/protocol/opcodes.js';
import { InterProcessMutex } from '../../src/recipes/locks/mutex.js';
import { InterProcessSemaphoreV2 } from '../../src/recipes/locks/semaphore-v2.js';
import { nextChange } from '../harness/expire-session.js';
import { childrenOf, codeOf, delay, eventually, lockPath, useProxiedServer } from './helpers.js';

/**
 * The lock when the link or the session fails, driven through a frame-aware proxy in front of a real server.
 * Sessions here use the smallest timeout the server allows (2 ticks = 4 s), so expiry takes seconds.
 */
describe('locks when the connection or the session fails', () => {
  const fx = useProxiedServer();

  const viaProxy = (): Promise<ZooKeeperClient> =>
    ZooKeeperClient.connect(fx.proxy.connectString, { sessionTimeoutMs: 4000 });

  it('session expiry while holding: the lock-lost signal fires, another client acquires, guarded writes fail', async () => {
    fx.proxy.pass();
    await using holderClient = await viaProxy();
    const path = lockPath();
    const lease = await new InterProcessMutex(holderClient, path).acquire();
    const oldSession = holderClient.sessionId;
    // the client renews its session after the expiry: LOST, then RECONNECTED on a new session
    const renewed = nextChange(holderClient, (c) => c.event === 'RECONNECTED' && c.newSession);
    const guarded = `${path}-data`;
    await fx.direct.create(guarded, 'v0');
    // The results are the client's typed multi results for our ops alone (the guarding check's is dropped).
    const [written, ...rest] = await lease.guardedMulti([Op.setData(guarded, 'v1', -1)]);
    expect(rest).toEqual([]);
    expect(written?.type === 'setData' ? written.stat.version : undefined).toBe(1);
    expect(new TextDecoder().decode((await fx.direct.getData(guarded)).data)).toBe('v1');

    const other = new InterProcessMutex(fx.direct, path).acquire();
    fx.proxy.pause();
    // default policy: suspended — fires as soon as the link is declared lost, long before expiry
    await eventually(() => lease.signal.aborted, 15_000, 'lock-lost signal');
    expect(lease.signal.reason).toMatchObject({ code: 'CONNECTIONLOSS' });
    // the server expires the paused session; its node goes and the waiter gets the lock
    const next = await other;
    expect(next.fencingToken > lease.fencingToken).toBe(true);
    fx.proxy.pass();
    await renewed;
    expect(holderClient.sessionId).not.toBe(oldSession);
    expect(await codeOf(lease.guardedMulti([Op.setData(guarded, 'stale', -1)]))).not.toBe('resolved');
    expect(new TextDecoder().decode((await fx.direct.getData(guarded)).data)).toBe('v1');
    await lease.release(); // the session is gone and its node with it: resolves without error
    await next.release();
    await fx.direct.delete(guarded);
  });

  it('with lockLost "lost", a suspension alone does not fire the signal; the session ending does', async () => {
    fx.proxy.pass();
    await using holderClient = await viaProxy();
    const path = lockPath();
    const lease = await new InterProcessMutex(holderClient, path, { lockLost: 'lost' }).acquire();
    fx.proxy.pause();
    await eventually(() => holderClient.state !== 'connected', 15_000, 'link lost');
    expect(lease.signal.aborted).toBe(false);
    // wait past the session timeout on the server, then let the client hear it
    await eventually(async () => (await childrenOf(fx.direct, path)).length === 0, 15_000, 'server expired the session');
    fx.proxy.pass();
    await eventually(() => lease.signal.aborted, 15_000, 'lock-lost signal');
    expect(lease.signal.reason).toMatchObject({ code: 'SESSIONEXPIRED' });
  });

  it('session expiry while waiting: the acquire starts over on the new session, and only its new node is left', async () => {
    fx.proxy.pass();
    const path = lockPath();
    const holder = await new InterProcessMutex(fx.direct, path).acquire();
    await using waiterClient = await viaProxy();
    const renewed = nextChange(waiterClient, (c) => c.event === 'RECONNECTED' && c.newSession);
    const waiting = new InterProcessMutex(waiterClient, path).acquire();
    await eventually(async () => (await childrenOf(fx.direct, path)).length === 2, 10_000, 'waiter queued');
    fx.proxy.pause();
    await eventually(async () => (await childrenOf(fx.direct, path)).length === 1, 15_000, 'server expired the waiter');
    fx.proxy.pass();
    await renewed;
    await eventually(async () => (await childrenOf(fx.direct, path)).length === 2, 10_000, 'waiter queued again');
    await holder.release();
    const lease = await waiting;
    expect((await fx.direct.exists(lease.node))?.ephemeralOwner).toBe(waiterClient.sessionId);
    expect(await childrenOf(fx.direct, path)).toEqual([lease.node.slice(path.length + 1)]);
    await lease.release();
  });

  it('a create whose reply is lost finds its own node by the protection prefix: no orphan', async () => {
    fx.proxy.pass();
    await using client = await viaProxy();
    const path = lockPath();
    let dropped = 0;
    fx.proxy.dropReplies((frame) => frame.opcode === OpCode.create2 && dropped++ === 0);
    const lease = await new InterProcessMutex(client, path).acquire({ timeoutMs: 20_000 });
    fx.proxy.pass();
    expect(dropped).toBeGreaterThan(0);
    expect(lease.acquired).toBe(true);
    if (!lease.acquired) return;
    const children = await childrenOf(fx.direct, path);
    expect(children).toEqual([lease.node.slice(path.length + 1)]);
    await lease.release();
    expect(await childrenOf(fx.direct, path)).toEqual([]);
  });

  it("a semaphore lease create whose reply is lost finds its own node by the protection prefix: no orphan", async () => {
    fx.proxy.pass();
    await using client = await viaProxy();
    const path = lockPath('sem');
    // The leases directory exists, so the first create2 the semaphore sends is its lease node's.
    await fx.direct.mkdirp(`${path}/leases`);
    let dropped = 0;
    fx.proxy.dropReplies((frame) => frame.opcode === OpCode.create2 && dropped++ === 0);
    const lease = await new InterProcessSemaphoreV2(client, path, 1).acquireOne();
    fx.proxy.pass();
    expect(dropped).toBeGreaterThan(0);
    expect(await childrenOf(fx.direct, `${path}/leases`)).toEqual([lease.node.slice(path.length + '/leases/'.length)]);
    await lease.release();
    expect(await childrenOf(fx.direct, `${path}/leases`)).toEqual([]);
  });

  it('a release whose delete is cut off keeps the lock held locally, retries after reconnect, then reports done', async () => {
    fx.proxy.pass();
    await using client = await viaProxy();
    const path = lockPath();
    const mutex = new InterProcessMutex(client, path);
    const lease = await mutex.acquire();
    fx.proxy.pause();
    const releasing = lease.release();
    await delay(100);
    expect(mutex.isAcquiredInThisProcess()).toBe(true);
    fx.proxy.resetAll(); // the held delete is lost with the connection
    fx.proxy.pass();
    await releasing;
    expect(mutex.isAcquiredInThisProcess()).toBe(false);
    expect(await childrenOf(fx.direct, path)).toEqual([]);
    expect(client.state).toBe('connected');
  });
});
