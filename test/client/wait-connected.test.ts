/** client.waitConnected(): the one wait for a usable session, which the recipes use after a CONNECTIONLOSS. */

import { describe, expect, it } from 'vitest';
import { ZooKeeperClient } from '../../src/node.js';
import { useSharedServerProxy } from '../harness/shared-server-proxy.js';
import { codeOf, connectShared } from './helpers.js';

const fx = useSharedServerProxy();

/** Resolves on the first change to `to`. */
function reaches(zk: ZooKeeperClient, to: string): Promise<void> {
  return new Promise((resolve) => {
    const off = zk.onStateChange((c) => {
      if (c.to === to) {
        off();
        resolve();
      }
    });
  });
}

describe('client.waitConnected()', () => {
  it('resolves at once on a connected client', async () => {
    await using zk = await connectShared();
    await zk.waitConnected();
    expect(zk.state).toBe('connected');
  });

  it('waits through a lost link and resolves on the reconnect, with the same session', async () => {
    fx.proxy.pass();
    await using zk = await ZooKeeperClient.connect(fx.proxy.connectString, { sessionTimeoutMs: 10_000 });
    const session = zk.sessionId;
    const disconnected = reaches(zk, 'disconnected');
    fx.proxy.pause();
    fx.proxy.resetAll();
    await disconnected;
    let settled = false;
    const waiting = zk.waitConnected().then(() => (settled = true));
    await new Promise((r) => setImmediate(r));
    expect(settled).toBe(false);
    fx.proxy.pass();
    await waiting;
    expect(zk.state).toBe('connected');
    expect(zk.sessionId).toBe(session);
  });

  it('rejects with ABORTED when the signal fires first, and with CLOSED once the client is closed', async () => {
    fx.proxy.pass();
    const zk = await ZooKeeperClient.connect(fx.proxy.connectString, { sessionTimeoutMs: 10_000 });
    const disconnected = reaches(zk, 'disconnected');
    fx.proxy.pause();
    fx.proxy.resetAll();
    await disconnected;
    const ac = new AbortController();
    const aborted = zk.waitConnected({ signal: ac.signal });
    const closedWhileWaiting = zk.waitConnected();
    ac.abort();
    expect(await codeOf(aborted)).toBe('ABORTED');
    await zk.close();
    expect(await codeOf(closedWhileWaiting)).toBe('CLOSED');
    expect(await codeOf(zk.waitConnected())).toBe('CLOSED');
    fx.proxy.pass();
  });
});
