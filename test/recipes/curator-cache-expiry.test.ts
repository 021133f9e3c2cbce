/**
 * CuratorCache across a session expiry on a renewing client (issue #18): it says it is STALE, resynchronises on the
 * new session, emits exactly the differences made while it was not looking (not a replay of the tree), says
 * RESYNCED, holds what the server holds, and goes on following the tree on the new session.
 */

import { describe, expect, it } from 'vitest';
import { Op, ZooKeeperClient } from '../../src/node.js';
import { CuratorCache } from '../../src/recipes/cache/curator-cache.js';
import { expireSession, nextChange } from '../harness/expire-session.js';
import { converged, showEvent as show } from './cache-helpers.js';
import { codeOf, eventually, lockPath, useProxiedServer } from './helpers.js';
import { retryForever } from '../../src/session/retry-policy.js';

describe('CuratorCache across a session expiry', () => {
  const fx = useProxiedServer();

  const connect = (options: { renewSession?: boolean } = {}): Promise<ZooKeeperClient> =>
    ZooKeeperClient.connect(fx.proxy.connectString, { sessionTimeoutMs: 10_000, reconnect: retryForever(20), ...options });

  for (const watchMode of ['persistent', 'one-shot'] as const) {
    it(`emits exactly the changes, deletes and creates of the outage, then RESYNCED, and goes on (${watchMode})`, async () => {
      fx.proxy.pass();
      const root = lockPath('cache');
      await fx.direct.mkdirp(`${root}/stay`, { data: 's0' });
      await fx.direct.create(`${root}/changed`, 'c0');
      await fx.direct.create(`${root}/doomed`, 'd');
      await fx.direct.mkdirp(`${root}/gone/leaf`);
      await fx.direct.create(`${root}/recreated`, 'same');
      await using client = await connect();
      // ephemeral to the session that is about to expire: the server drops it with the session
      await client.create(`${root}/mine`, 'm', { mode: 'ephemeral' });
      await using cache = new CuratorCache(client, root, { watchMode });
      await cache.start();
      expect(cache.stale).toBe(false);
      const events: string[] = [];
      cache.addListener((e) => events.push(show(root, e)));
      let staleAtLost: boolean | undefined;
      client.onStateChange((c) => {
        if (c.event === 'LOST') staleAtLost = cache.stale;
      });

      // the client's link is held from here until the expiry is done: none of these reach it as events
      fx.proxy.pause();
      await fx.direct.setData(`${root}/changed`, 'c1');
      await fx.direct.delete(`${root}/doomed`);
      await fx.direct.deleteRecursive(`${root}/gone`);
      await fx.direct.multi([Op.delete(`${root}/recreated`, -1), Op.create(`${root}/recreated`, 'same')]);
      await fx.direct.mkdirp(`${root}/born/kid`, { data: 'k' });
      await expireSession(client, fx.proxy, fx.connectString);
      expect(staleAtLost).toBe(true);

      await eventually(() => events.at(-1) === 'resynced', 15_000, 'resynced');
      expect(client.sessionRenewals).toBe(1);
      expect(cache.stale).toBe(false);
      expect(events[0]).toBe('stale');
      const differences = events.slice(1, -1);
      expect([...differences].sort()).toEqual(
        [
          'CHANGED /changed c1',
          'DELETED /doomed',
          'DELETED /gone/leaf',
          'DELETED /gone',
          'DELETED /recreated',
          'CREATED /recreated',
          'CREATED /born',
          'CREATED /born/kid',
          'DELETED /mine',
        ].sort(),
      );
      expect(differences.indexOf('DELETED /recreated')).toBeLessThan(differences.indexOf('CREATED /recreated'));
      expect(differences.indexOf('DELETED /gone/leaf')).toBeLessThan(differences.indexOf('DELETED /gone'));
      expect(differences.indexOf('CREATED /born')).toBeLessThan(differences.indexOf('CREATED /born/kid'));
      expect(await converged(cache, fx.direct)).toBe(true);

      // still following, on the new session's watches
      events.length = 0;
      await fx.direct.setData(`${root}/stay`, 's1');
      await eventually(() => events.length === 1, 10_000, 'a change after the renewal');
      await fx.direct.create(`${root}/born/kid2`);
      await eventually(() => events.length === 2, 10_000, 'a create after the renewal');
      expect(events).toEqual(['CHANGED /stay s1', 'CREATED /born/kid2']);
      expect(await converged(cache, fx.direct)).toBe(true);
    });
  }

  it('the same after a client-side expiry: the link frozen past the session timeout (one-shot watches)', async () => {
    fx.proxy.pass();
    const root = lockPath('cache');
    await fx.direct.mkdirp(`${root}/changed`, { data: 'c0' });
    await fx.direct.create(`${root}/doomed`);
    await using client = await ZooKeeperClient.connect(fx.proxy.connectString, { sessionTimeoutMs: 4000, reconnect: retryForever(20) });
    await using cache = new CuratorCache(client, root, { watchMode: 'one-shot' });
    await cache.start();
    const events: string[] = [];
    cache.addListener((e) => events.push(show(root, e)));
    const lost = nextChange(client, (c) => c.event === 'LOST');
    fx.proxy.pause();
    await fx.direct.setData(`${root}/changed`, 'c1');
    await fx.direct.delete(`${root}/doomed`);
    await fx.direct.create(`${root}/born`, 'b');
    // nothing reaches the server for 4/3 of the timeout: the client gives the session up by itself
    expect((await lost).reason).toMatchObject({ code: 'SESSIONEXPIRED' });
    expect(cache.stale).toBe(true);
    fx.proxy.resetAll();
    fx.proxy.pass();
    await eventually(() => events.at(-1) === 'resynced', 15_000, 'resynced');
    expect(events[0]).toBe('stale');
    expect(events.slice(1, -1).sort()).toEqual(['CHANGED /changed c1', 'CREATED /born', 'DELETED /doomed']);
    expect(await converged(cache, fx.direct)).toBe(true);
    events.length = 0;
    await fx.direct.setData(`${root}/born`, 'b1');
    await eventually(() => events.length === 1, 10_000, 'a change after the renewal');
    expect(events).toEqual(['CHANGED /born b1']);
  });

  it('a start() still loading when the session expires finishes on the new session', async () => {
    fx.proxy.pass();
    const root = lockPath('cache');
    await fx.direct.mkdirp(`${root}/a`, { data: 'a0' });
    await using client = await connect();
    await using cache = new CuratorCache(client, root);
    const events: string[] = [];
    cache.addListener((e) => events.push(show(root, e)));
    fx.proxy.pause();
    // its watch and reads are held on the link, then owed by the expired session
    const starting = cache.start();
    await fx.direct.create(`${root}/b`);
    await expireSession(client, fx.proxy, fx.connectString);
    await starting;
    expect(cache.stale).toBe(false);
    expect(events.at(-1)).toBe('initialized');
    expect(events.slice(0, -1).sort()).toEqual(['CREATED /', 'CREATED /a', 'CREATED /b']);
    expect(await converged(cache, fx.direct)).toBe(true);
    await fx.direct.setData(`${root}/a`, 'a1');
    await eventually(() => events.at(-1) === 'CHANGED /a a1', 10_000, 'following on the new session');
  });

  it('with renewSession: false the expiry ends the cache: STALE for good, nothing more', async () => {
    fx.proxy.pass();
    const root = lockPath('cache');
    await fx.direct.mkdirp(`${root}/a`);
    await using client = await connect({ renewSession: false });
    await using cache = new CuratorCache(client, root);
    await cache.start();
    const events: string[] = [];
    cache.addListener((e) => events.push(show(root, e)));
    await expireSession(client, fx.proxy, fx.connectString);
    expect(client.ended).toBe(true);
    expect(cache.stale).toBe(true);
    expect(events).toEqual(['stale']);
    expect(cache.get(`${root}/a`)).toBeDefined(); // the last known tree, flagged stale
    expect(await codeOf(client.exists(root))).toBe('SESSIONEXPIRED');
  });
});
