/**
 * The session against a real ZooKeeper with faults injected by the frame-aware proxy: expiry while cut
 * off, garbage and over-limit frames from the "server", and nothing left behind after close().
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZooKeeperClient } from '../../src/node.js';
import type { ClientOptions } from '../../src/client/types.js';
import type { StateChange } from '../../src/session/state.js';
import { startFaultProxy, type FaultProxy } from '../harness/fault-proxy.js';
import { startZooKeeper, type ZkServer } from '../harness/zookeeper.js';
import { codeOf, uniquePath } from '../client/helpers.js';
import { nextChange } from '../harness/expire-session.js';
import { CountingClock, CountingTransport } from './counting.js';
import { retryForever } from '../../src/session/retry-policy.js';

let server: ZkServer;

beforeAll(async () => {
  // tickTime 500 → sessions may be as short as 1 s, which keeps expiry tests quick.
  server = await startZooKeeper({ tickTime: 500 });
});

afterAll(async () => {
  await server?.stop();
});

async function viaProxy(options: ClientOptions = {}): Promise<{ proxy: FaultProxy; zk: ZooKeeperClient; changes: StateChange[] }> {
  const proxy = await startFaultProxy({ host: server.host, port: server.port });
  const zk = await ZooKeeperClient.connect(proxy.connectString, { sessionTimeoutMs: 2000, reconnect: retryForever(20), ...options });
  const changes: StateChange[] = [];
  zk.onStateChange((c) => changes.push(c));
  return { proxy, zk, changes };
}


describe('faults through the proxy', () => {
  it('expires the session when cut off longer than the session timeout; pending calls reject, nothing hangs', async () => {
    const clock = new CountingClock();
    const transport = new CountingTransport();
    const { proxy, zk, changes } = await viaProxy({ clock, transport, renewSession: false });
    const path = uniquePath();
    await zk.create(path, null, { mode: 'ephemeral' });
    const { watch } = await zk.exists(path, { watch: true });
    proxy.pause();
    const expired = nextChange(zk, (c) => c.to === 'expired');
    const pending = zk.getData(path);
    const pendingCode = codeOf(pending);
    await expired;
    expect(['CONNECTIONLOSS', 'SESSIONEXPIRED']).toContain(await pendingCode);
    expect(await codeOf(zk.getData(path))).toBe('SESSIONEXPIRED');
    expect(changes.map((c) => c.to)).toEqual(['disconnected', 'expired']);
    expect(await watch).toMatchObject({ type: 'None', state: 'Expired' });
    await zk.close();
    expect(zk.state).toBe('expired');
    expect(clock.active).toBe(0);
    expect(transport.open).toBe(0);
    proxy.pass();
    // The server agrees: the ephemeral is gone once it has expired the session too.
    await using other = await ZooKeeperClient.connect(server.connectString, { sessionTimeoutMs: 2000 });
    for (let i = 0; i < 50 && (await other.exists(path)) !== null; i++) await new Promise((r) => setTimeout(r, 100));
    expect(await other.exists(path)).toBeNull();
    await proxy.close();
  });

  it('resuming with a wrong password is refused as expired; the live session reconnects and survives', async () => {
    const { proxy, zk } = await viaProxy({ sessionTimeoutMs: 1000, reconnect: retryForever(0) });
    const id = zk.sessionId;
    // The server answers a wrong password with timeOut 0 and also closes the session's live connection. With no
    // reconnect delay zk is often back before the thief has even closed, so its way back is watched from before
    // the thief starts: subscribing afterwards would miss the change and wait for ever.
    const back = nextChange(zk, (c) => c.to === 'expired' || c.to === 'connected');
    const thief = new ZooKeeperClient(proxy.connectString, { sessionTimeoutMs: 1000, sessionId: id, sessionPassword: new Uint8Array(16) });
    await nextChange(thief, (c) => c.to === 'expired');
    await thief.close();
    await back;
    // Should the thief have cut zk's link once more meanwhile (it reconnects too if its answer was lost), wait
    // for that reconnect as well: checked and subscribed in one synchronous step, so nothing slips between.
    if (zk.state === 'disconnected' || zk.state === 'connecting') await nextChange(zk, (c) => c.to === 'expired' || c.to === 'connected');
    expect(zk.state).toBe('connected'); // a wrong password does not kill a live session
    expect(zk.sessionId).toBe(id);
    await zk.close();
    await proxy.close();
  });

  for (const [name, bytes, code] of [
    ['garbage', new Uint8Array([0xde, 0xad, 0xbe, 0xef, 1, 2, 3]), 'PROTOCOL_ERROR'],
    ['an over-limit frame', new Uint8Array([0x10, 0, 0, 0]), 'FRAME_TOO_LARGE'],
    ['a truncated reply header', new Uint8Array([0, 0, 0, 3, 1, 2, 3]), 'PROTOCOL_ERROR'],
    ['a reply nobody asked for', new Uint8Array([0, 0, 0, 16, 0, 0, 0x30, 0x39, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0]), 'PROTOCOL_ERROR'],
  ] as const) {
    it(`${name} from the server gives ${code} and a reconnect that resumes the session`, async () => {
      const { proxy, zk, changes } = await viaProxy();
      const id = zk.sessionId;
      const path = uniquePath();
      await zk.create(path, 'kept');
      const back = nextChange(zk, (c) => c.to === 'connected');
      proxy.injectToClient(bytes);
      await back;
      expect(changes[0]).toMatchObject({ to: 'disconnected', event: 'SUSPENDED' });
      expect(changes[0]?.reason).toMatchObject({ code });
      expect(changes[1]).toMatchObject({ to: 'connected', event: 'RECONNECTED' });
      expect(zk.sessionId).toBe(id);
      expect((await zk.getData(path)).stat.version).toBe(0);
      await zk.delete(path);
      await zk.close();
      await proxy.close();
    });
  }

  it('a reply lost with its connection fails that call with CONNECTIONLOSS; the write still happened', async () => {
    const { proxy, zk } = await viaProxy();
    const path = uniquePath();
    await zk.sync('/');
    proxy.dropReplies((f) => f.opcode === 1);
    const create = codeOf(zk.create(path));
    await new Promise((r) => setTimeout(r, 100));
    proxy.pass();
    proxy.resetAll();
    expect(await create).toBe('CONNECTIONLOSS');
    expect(await zk.exists(path)).not.toBeNull();
    await zk.delete(path);
    await zk.close();
    await proxy.close();
  });

  it('after close() no timer, socket or unsettled promise remains', async () => {
    const clock = new CountingClock();
    const transport = new CountingTransport();
    const zk = await ZooKeeperClient.connect(server.connectString, { sessionTimeoutMs: 2000, clock, transport });
    const path = uniquePath();
    const calls = [zk.create(path), ...Array.from({ length: 200 }, () => zk.exists(path))];
    const watchers = await Promise.all([zk.exists(`${path}-w`, { watch: true }), zk.addWatch(path)]);
    await zk.close();
    const settled = await Promise.allSettled(calls);
    expect(settled.every((s) => s.status === 'fulfilled' || s.status === 'rejected')).toBe(true);
    expect(await watchers[0].watch).toMatchObject({ state: 'Closed' });
    expect(await watchers[1].next()).toMatchObject({ state: 'Closed' });
    expect(clock.active).toBe(0);
    expect(transport.open).toBe(0);
    // The session's one connection, and the side connection that asked the server's version (srvr) for addWatch.
    expect(transport.opened).toBe(2);
  });
});
