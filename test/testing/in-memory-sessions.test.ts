/**
 * Sessions and watches on the in-memory ZooKeeper through the real client: timeout negotiation, expiry on the
 * server's clock (a manual one, and advance()), resume after a dropped connection with the watches re-registered
 * (setWatches, relative to the last zxid the client saw), one-shot, persistent and recursive watches, killSession,
 * and close().
 */

import { describe, expect, it } from 'vitest';
import { connect, type StateChange, type Transport, type ZooKeeperClient } from '../../src/index.js';
import { LeaderLatch } from '../../src/recipes/index.js';
import { InMemoryZooKeeper } from '../../src/testing/in-memory/server.js';
import { killSession } from '../../src/testing/kill-session-portable.js';
import { ManualClock } from '../harness/manual-clock.js';

function open(server: InMemoryZooKeeper, sessionTimeoutMs = 10_000): Promise<ZooKeeperClient> {
  return connect(server.connectString, { transport: server.transport, sessionTimeoutMs });
}

function next(zk: ZooKeeperClient, event: StateChange['event']): Promise<StateChange> {
  return new Promise((resolve) => {
    const stop = zk.onStateChange((change) => {
      if (change.event === event) {
        stop();
        resolve(change);
      }
    });
  });
}

describe('sessions', () => {
  it('clamps the timeout to 2..20 ticks', async () => {
    await using server = new InMemoryZooKeeper({ tickTime: 1000 });
    await using short = await open(server, 100);
    await using long = await open(server, 600_000);
    expect([short.negotiatedTimeoutMs, long.negotiatedTimeoutMs]).toEqual([2000, 20_000]);
  });

  it('expires a session the server has not heard from for its timeout, on the server clock', async () => {
    const clock = new ManualClock();
    await using server = new InMemoryZooKeeper({ clock });
    await using zk = await connect(server.connectString, { transport: server.transport, sessionTimeoutMs: 10_000, renewSession: false });
    await zk.create('/eph', null, { mode: 'ephemeral' });
    await using watcher = await open(server);
    const { watch } = await watcher.exists('/eph', { watch: true });
    clock.advance(9_999);
    expect(server.sessionIds).toContain(zk.sessionId);
    const lost = next(zk, 'LOST');
    clock.advance(1);
    expect(((await lost).reason as { code?: string } | undefined)?.code).toBe('SESSIONEXPIRED');
    expect(zk.state).toBe('expired');
    expect((await watch).type).toBe('NodeDeleted');
  });

  it('advance() expires idle sessions with the default clock; a renewing client opens a new session', async () => {
    await using server = new InMemoryZooKeeper();
    await using zk = await open(server);
    const old = zk.sessionId;
    const lost = next(zk, 'LOST');
    server.advance(10_000);
    await lost;
    await zk.waitConnected();
    expect(zk.sessionId).not.toBe(old);
    expect(server.sessionIds).toEqual([zk.sessionId]);
  });

  it('resumes the session after a dropped connection, and re-registers watches relative to the last zxid seen', async () => {
    await using server = new InMemoryZooKeeper();
    await using zk = await open(server);
    await using other = await open(server);
    await zk.create('/d', 'x');
    await zk.create('/kept', 'x');
    const changed = (await zk.getData('/d', { watch: true })).watch;
    const kept = (await zk.getData('/kept', { watch: true })).watch;
    const created = (await zk.exists('/later', { watch: true })).watch;
    const persistent = await zk.addWatch('/tree', { mode: 'persistent-recursive' });
    const session = zk.sessionId;

    const suspended = next(zk, 'SUSPENDED');
    const reconnected = next(zk, 'RECONNECTED');
    // The connection drops; while the client is away, /d changes and /later appears.
    expect(server.disconnect(session)).toBe(1);
    await suspended;
    await other.setData('/d', 'y');
    await other.create('/later', null);
    await reconnected;
    expect(zk.sessionId).toBe(session);
    expect((await changed).type).toBe('NodeDataChanged');
    expect((await created).type).toBe('NodeCreated');
    // The untouched watch and the persistent one were armed again, not fired.
    await other.setData('/kept', 'z');
    expect((await kept).type).toBe('NodeDataChanged');
    await other.create('/tree', null);
    await other.create('/tree/leaf', null);
    const events: string[] = [];
    for await (const event of persistent) {
      events.push(`${event.type} ${event.path}`);
      if (events.length === 2) break;
    }
    expect(events).toEqual(['NodeCreated /tree', 'NodeCreated /tree/leaf']);
  });

  it('answers a resume with a wrong password or an unknown session as expired', async () => {
    await using server = new InMemoryZooKeeper();
    await using zk = await open(server);
    const wrong = new Uint8Array(16);
    await expect(
      connect(server.connectString, { transport: server.transport, sessionId: zk.sessionId, sessionPassword: wrong, renewSession: false }),
    ).rejects.toMatchObject({ code: 'SESSIONEXPIRED' });
    await expect(
      connect(server.connectString, { transport: server.transport, sessionId: 0x1234n, sessionPassword: zk.sessionPassword, renewSession: false }),
    ).rejects.toMatchObject({ code: 'SESSIONEXPIRED' });
  });

  it('killSession expires the session through the in-memory transport, with no option given', async () => {
    await using server = new InMemoryZooKeeper();
    await using zk = await open(server);
    await zk.create('/mine', null, { mode: 'ephemeral' });
    const old = zk.sessionId;
    const lost = await killSession(zk);
    expect(lost.event).toBe('LOST');
    await zk.waitConnected();
    expect(zk.sessionId).not.toBe(old);
    expect(await zk.exists('/mine')).toBeNull();
  });

  it('close() ends every connection: clients see the connection lost and cannot reconnect', async () => {
    const server = new InMemoryZooKeeper();
    const zk = await open(server);
    const suspended = next(zk, 'SUSPENDED');
    await server.close();
    await suspended;
    expect(server.sessionIds).toEqual([]);
    await expect(zk.exists('/')).rejects.toMatchObject({ code: 'CONNECTIONLOSS' });
    await zk.close();
  });
});

describe('watches', () => {
  it('fires one-shot watches with their event types, before the reply of the write that fired them', async () => {
    await using server = new InMemoryZooKeeper();
    await using zk = await open(server);
    await zk.create('/w', 'x');
    const data = (await zk.getData('/w', { watch: true })).watch;
    const children = (await zk.getChildren('/w', { watch: true })).watch;
    const order: string[] = [];
    void data.then((e) => order.push(`event ${e.type}`));
    await zk.setData('/w', 'y').then(() => order.push('reply'));
    expect(order).toEqual(['event NodeDataChanged', 'reply']);
    await zk.create('/w/c', null);
    expect((await children).type).toBe('NodeChildrenChanged');
    const deleted = (await zk.getData('/w/c', { watch: true })).watch;
    await zk.delete('/w/c');
    expect((await deleted).type).toBe('NodeDeleted');
  });

  it('persistent watches fire every time for the node and its children; removeWatches ends them, NOWATCHER after', async () => {
    await using server = new InMemoryZooKeeper();
    await using zk = await open(server);
    await zk.create('/p', null);
    const watch = await zk.addWatch('/p', { mode: 'persistent' });
    await zk.setData('/p', 'a');
    await zk.create('/p/c', null);
    await zk.create('/p/c/deep', null); // not a child of /p: no event for a non-recursive watch
    await zk.setData('/p', 'b');
    const events: string[] = [];
    for await (const event of watch) {
      events.push(`${event.type} ${event.path}`);
      if (events.length === 3) break;
    }
    expect(events).toEqual(['NodeDataChanged /p', 'NodeChildrenChanged /p', 'NodeDataChanged /p']);
    expect(await zk.checkWatches('/p', 'any')).toBe(false);
    await expect(zk.removeWatches('/p', 'any')).rejects.toMatchObject({ code: 'NOWATCHER' });
  });
});

describe('killSession resolves with the expiry, not after it', () => {
  /** The in-memory server's transport, with what reaches the client after the handshake's answer (the close too) held back `ms`. */
  function slowReplies(inner: Transport, ms: number): Transport {
    return {
      connect: (endpoint, handlers, options) => {
        let chunks = 0;
        return inner.connect(
          endpoint,
          {
            onData: (chunk) => (chunks++ === 0 ? handlers.onData(chunk) : void setTimeout(() => handlers.onData(chunk), ms)),
            onClose: (e) => (chunks === 0 ? handlers.onClose(e) : void setTimeout(() => handlers.onClose(e), ms)),
          },
          options,
        );
      },
    };
  }

  it('a latch has lost leadership when it returns, though the killer’s close is answered only after the client led again', async () => {
    await using server = new InMemoryZooKeeper();
    await using zk = await connect(server.connectString, { transport: server.transport });
    await using latch = new LeaderLatch(zk, '/kill/latch', { id: 'a' });
    await latch.start();
    expect(await latch.await({ timeoutMs: 10_000 })).toBe(true);
    const events: string[] = [];
    latch.addListener((e) => events.push(e.type));
    // The killer hears the reply to its closeSession 300 ms late; the client, told of the expiry at once, renews
    // and its latch leads again on the new session well within that.
    const lost = await killSession(zk, { clientOptions: { transport: slowReplies(server.transport, 300) } });
    expect(lost.event).toBe('LOST');
    expect(latch.hasLeadership()).toBe(false);
    expect(events).toEqual(['notLeader']);
    expect(await latch.await({ timeoutMs: 10_000 })).toBe(true);
  });
});
