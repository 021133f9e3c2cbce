/**
 * Session renewal against a real server: after an expiry the client opens a new session by itself, says so (LOST,
 * then RECONNECTED with newSession), fails what the old session owed with SESSIONEXPIRED, lets later calls wait
 * for the new session, carries persistent watches, the chroot and the credentials over, and stays final on close
 * or with renewSession: false.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZooKeeperClient } from '../../src/node.js';
import type { ClientOptions } from '../../src/client/types.js';
import type { StateChange } from '../../src/session/state.js';
import { startFaultProxy, type FaultProxy } from '../harness/fault-proxy.js';
import { expireSession, nextChange } from '../harness/expire-session.js';
import { startZooKeeper, type ZkServer } from '../harness/zookeeper.js';
import { codeOf, uniquePath } from './helpers.js';
import { retryForever } from '../../src/session/retry-policy.js';

let server: ZkServer;
let other: ZooKeeperClient;

beforeAll(async () => {
  // tickTime 500: sessions as short as 1 s, so the client-side expiry test is quick.
  server = await startZooKeeper({ tickTime: 500 });
  other = await ZooKeeperClient.connect(server.connectString);
});

afterAll(async () => {
  await other?.close();
  await server?.stop();
});

async function viaProxy(options: ClientOptions = {}, suffix = ''): Promise<{ proxy: FaultProxy; zk: ZooKeeperClient; changes: StateChange[] } & AsyncDisposable> {
  const proxy = await startFaultProxy({ host: server.host, port: server.port });
  const zk = await ZooKeeperClient.connect(proxy.connectString + suffix, { sessionTimeoutMs: 4000, reconnect: retryForever(20), ...options });
  const changes: StateChange[] = [];
  zk.onStateChange((c) => changes.push(c));
  return {
    proxy,
    zk,
    changes,
    [Symbol.asyncDispose]: async () => {
      await zk.close();
      await proxy.close();
    },
  };
}

describe('session renewal', () => {
  it('reports LOST then RECONNECTED with a new session; ephemerals of the old session are gone, calls go on', async () => {
    await using fx = await viaProxy();
    const { zk, proxy, changes } = fx;
    const path = uniquePath();
    await zk.create(path, 'mine', { mode: 'ephemeral' });
    const oldId = zk.sessionId;
    const reconnected = nextChange(zk, (c) => c.event === 'RECONNECTED');
    const lost = await expireSession(zk, proxy, server.connectString);
    expect(lost).toMatchObject({ to: 'expired', event: 'LOST', newSession: false });
    expect(lost.reason).toMatchObject({ code: 'SESSIONEXPIRED' });
    expect(zk.ended).toBe(false);
    expect(await reconnected).toMatchObject({ to: 'connected', newSession: true });
    expect(zk.sessionId).not.toBe(oldId);
    expect(zk.sessionId).not.toBe(0n);
    expect(zk.sessionRenewals).toBe(1);
    expect(changes.map((c) => c.to).slice(-3)).toEqual(['expired', 'connecting', 'connected']);
    expect(await zk.exists(path)).toBeNull();
    await zk.create(path, 'again', { mode: 'ephemeral' });
    expect((await other.exists(path))?.ephemeralOwner).toBe(zk.sessionId);
  });

  it('fails calls queued in the expired session with SESSIONEXPIRED; a call made after LOST waits for the new session', async () => {
    await using fx = await viaProxy();
    const { zk, proxy } = fx;
    const path = uniquePath();
    await other.create(path, 'v');
    proxy.pause();
    // Queued behind the held link: the expired session owes them, and their outcome is lost with it.
    const owed = zk.getData(path);
    const owedCode = codeOf(owed);
    let after: Promise<unknown> | undefined;
    const off = zk.onStateChange((c) => {
      if (c.event === 'LOST') after = zk.getData(path);
    });
    await expireSession(zk, proxy, server.connectString);
    off();
    expect(['SESSIONEXPIRED', 'CONNECTIONLOSS']).toContain(await owedCode);
    expect(await codeOf(zk.getData(path, { signal: AbortSignal.abort() }))).toBe('ABORTED');
    const data = (await after) as { data: Uint8Array };
    expect(new TextDecoder().decode(data.data)).toBe('v');
  });

  it('settles a one-shot watch with the expiry; a persistent watch yields the expiry marker and goes on', async () => {
    await using fx = await viaProxy();
    const { zk, proxy } = fx;
    const path = uniquePath();
    await other.create(path, '0');
    const { watch } = await zk.getData(path, { watch: true });
    await using persistent = await zk.addWatch(path);
    await expireSession(zk, proxy, server.connectString);
    expect(await watch).toMatchObject({ type: 'None', state: 'Expired' });
    expect(await persistent.next()).toMatchObject({ type: 'None', state: 'Expired' });
    expect(persistent.closed).toBe(false);
    // A read after the marker is answered with the watch re-added: a change made after it is seen.
    await zk.getData(path);
    await other.setData(path, '1');
    expect(await persistent.next()).toMatchObject({ type: 'NodeDataChanged', path });
  });

  it('keeps the chroot and the credentials on the new session', async () => {
    const root = uniquePath('chroot');
    await other.create(root);
    await using fx = await viaProxy({ authInfo: [{ scheme: 'digest', auth: 'app:secret' }] }, root);
    const { zk, proxy } = fx;
    await zk.addAuth('digest', 'late:word');
    await zk.create('/only-app', 'x', { acl: [{ perms: 31, id: { scheme: 'auth', id: '' } }] });
    await expireSession(zk, proxy, server.connectString);
    await zk.waitConnected();
    expect(new TextDecoder().decode((await zk.getData('/only-app')).data)).toBe('x');
    const ids = (await zk.whoAmI()).filter((i) => i.scheme === 'digest').map((i) => i.user).sort();
    expect(ids).toEqual(['app', 'late']);
    // Listed under its open parent: another session without the credentials sees it is there (exists would need
    // READ on 3.9).
    expect(await other.getChildren(root)).toEqual(['only-app']);
  });

  it('renews after the client-side expiry too (no server heard for 4/3 of the timeout)', async () => {
    await using fx = await viaProxy({ sessionTimeoutMs: 1000 });
    const { zk, proxy } = fx;
    const oldId = zk.sessionId;
    const lost = nextChange(zk, (c) => c.event === 'LOST');
    proxy.pause();
    expect((await lost).reason).toMatchObject({ code: 'SESSIONEXPIRED' });
    proxy.resetAll();
    proxy.pass();
    await zk.waitConnected();
    expect(zk.state).toBe('connected');
    expect(zk.sessionId).not.toBe(oldId);
  });

  it('the state stream carries on across the renewal and ends with close()', async () => {
    await using fx = await viaProxy();
    const { zk, proxy } = fx;
    const seen: StateChange[] = [];
    const reading = (async () => {
      for await (const c of zk.stateChanges()) seen.push(c);
    })();
    await expireSession(zk, proxy, server.connectString);
    await zk.waitConnected();
    await zk.close();
    await reading;
    expect(seen.map((c) => c.event).filter((e) => e !== undefined)).toEqual(['SUSPENDED', 'LOST', 'RECONNECTED', 'LOST']);
    expect(seen.at(-1)).toMatchObject({ to: 'closed' });
    expect(zk.ended).toBe(true);
    expect(await codeOf(zk.exists('/'))).toBe('CLOSED');
  });

  it('with renewSession: false an expiry ends the client', async () => {
    await using fx = await viaProxy({ renewSession: false });
    const { zk, proxy } = fx;
    await expireSession(zk, proxy, server.connectString);
    expect(zk.state).toBe('expired');
    expect(zk.ended).toBe(true);
    expect(await codeOf(zk.waitConnected())).toBe('SESSIONEXPIRED');
    expect(await codeOf(zk.exists('/'))).toBe('SESSIONEXPIRED');
  });

  it('refuses a renewSession that is not a boolean', async () => {
    expect(() => new ZooKeeperClient(server.connectString, { renewSession: 'yes' as unknown as boolean })).toThrow(/renewSession must be a boolean/);
  });
});
