import { describe, expect, it } from 'vitest';
import { ZooKeeperClient } from '../../src/node.js';
import { InterProcessMutex } from '../../src/recipes/locks/mutex.js';
import { childrenOf, codeOf, eventually, lockPath, serverWatchesOf, useProxiedServer } from './helpers.js';

/**
 * A waiter that gives up (abort, timeout) while its client is cut off from the server: the acquire settles without
 * waiting for the link, and once the link is back nothing of it is left — no node, and no watch (a local watcher
 * left behind would be set again on the server by the reconnect, which is how we see it).
 *
 * The link is cut by pausing the proxy and resetting its connections: the client notices at once, and its
 * reconnect attempts hang in the paused proxy until pass(), well within the session timeout.
 */
describe('lock waiters giving up while disconnected', () => {
  const fx = useProxiedServer();

  const viaProxy = (): Promise<ZooKeeperClient> => ZooKeeperClient.connect(fx.proxy.connectString, { sessionTimeoutMs: 20_000 });

  const cut = async (client: ZooKeeperClient): Promise<void> => {
    fx.proxy.pause();
    fx.proxy.resetAll();
    await eventually(() => client.state !== 'connected', 10_000, 'client disconnected');
  };

  /** Lets the link back and waits until every request the client queued meanwhile has been answered. */
  const heal = async (client: ZooKeeperClient): Promise<void> => {
    fx.proxy.pass();
    await eventually(() => client.state === 'connected', 15_000, 'client reconnected');
    // FIFO: once this is answered, so is everything queued before it (the deletes and watch removals)
    await client.exists('/');
  };

  it('an abort while waiting settles at once, and after the reconnect leaves no node and no watch', async () => {
    fx.proxy.pass();
    await using client = await viaProxy();
    const path = lockPath();
    const holder = await new InterProcessMutex(fx.direct, path).acquire();
    const ac = new AbortController();
    const waiting = codeOf(new InterProcessMutex(client, path).acquire({ signal: ac.signal }));
    await eventually(async () => (await serverWatchesOf(fx.connectString, client.sessionIdHex)).length === 2, 10_000, 'waiter watching');
    await cut(client);
    ac.abort();
    expect(await waiting).toBe('ABORTED');
    expect(client.state).not.toBe('connected'); // settled without the link
    await heal(client);
    expect(client.sessionIdHex).not.toBe('0x0');
    await eventually(async () => (await childrenOf(fx.direct, path)).length === 1, 10_000, 'waiter node deleted');
    expect(await childrenOf(fx.direct, path)).toEqual([holder.node.slice(path.length + 1)]);
    expect(await serverWatchesOf(fx.connectString, client.sessionIdHex)).toEqual([]);
    await holder.release();
  });

  it('an acquire started while disconnected and aborted settles at once and makes no node', async () => {
    fx.proxy.pass();
    await using client = await viaProxy();
    const path = lockPath();
    const holder = await new InterProcessMutex(fx.direct, path).acquire();
    await cut(client);
    const ac = new AbortController();
    const waiting = codeOf(new InterProcessMutex(client, path).acquire({ signal: ac.signal }));
    ac.abort();
    expect(await waiting).toBe('ABORTED');
    expect(client.state).not.toBe('connected');
    await heal(client);
    await eventually(async () => (await childrenOf(fx.direct, path)).length === 1, 10_000, 'only the holder');
    expect(await serverWatchesOf(fx.connectString, client.sessionIdHex)).toEqual([]);
    await holder.release();
  });

  it('a waiter that times out while disconnected leaves no watcher behind for the reconnect to re-arm', async () => {
    fx.proxy.pass();
    await using client = await viaProxy();
    const path = lockPath();
    const holder = await new InterProcessMutex(fx.direct, path).acquire();
    const waiting = new InterProcessMutex(client, path).acquire({ timeoutMs: 3000 });
    let settled = false;
    void waiting.then(() => (settled = true));
    await eventually(async () => (await serverWatchesOf(fx.connectString, client.sessionIdHex)).length === 2, 10_000, 'waiter watching');
    await cut(client);
    expect(settled).toBe(false); // the timeout falls inside the cut
    expect((await waiting).acquired).toBe(false);
    expect(client.state).not.toBe('connected');
    await heal(client);
    expect(await serverWatchesOf(fx.connectString, client.sessionIdHex)).toEqual([]);
    await eventually(async () => (await childrenOf(fx.direct, path)).length === 1, 10_000, 'waiter node deleted');
    await holder.release();
  });
});
