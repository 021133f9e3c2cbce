import { describe, expect, it } from 'vitest';
import { Op, ZooKeeperClient } from '../../src/node.js';
import { CuratorCache } from '../../src/recipes/cache/curator-cache.js';
import { converged, showEvent as show } from './cache-helpers.js';
import { codeOf, eventually, lockPath, useClients, useProxiedServer } from './helpers.js';

for (const watchMode of ['persistent', 'one-shot'] as const) {
  describe(`CuratorCache (${watchMode} watches)`, () => {
    const z = useClients(2);

    it('loads the tree (one NODE_CREATED each, then INITIALIZED) and follows creates, changes and deletes in order', async () => {
      const root = lockPath('cache');
      await z(1).mkdirp(`${root}/a/b`, { data: 'b0' });
      await z(1).create(`${root}/c`, 'c0');
      await using cache = new CuratorCache(z(0), root, { watchMode });
      const events: string[] = [];
      cache.addListener((e) => events.push(show(root, e)));
      await cache.start();
      expect(cache.usesOneShotWatches).toBe(watchMode === 'one-shot');
      expect(events.at(-1)).toBe('initialized');
      expect(events.slice(0, -1).sort()).toEqual(['CREATED /', 'CREATED /a', 'CREATED /a/b', 'CREATED /c']);
      expect(new TextDecoder().decode(cache.get(`${root}/a/b`)?.data)).toBe('b0');
      expect(await converged(cache, z(1))).toBe(true);

      events.length = 0;
      await z(1).setData(`${root}/c`, 'c1');
      await eventually(() => events.length === 1, 10_000, 'change');
      await z(1).create(`${root}/a/b/d`, 'd0');
      await eventually(() => events.length === 2, 10_000, 'create');
      await z(1).delete(`${root}/a/b/d`);
      await eventually(() => events.length === 3, 10_000, 'delete');
      expect(events).toEqual(['CHANGED /c c1', 'CREATED /a/b/d', 'DELETED /a/b/d']);
      expect(cache.childrenOf(`${root}/a/b`)).toEqual([]);
      expect(await converged(cache, z(1))).toBe(true);
    });

    it('a delete and re-create is seen as DELETED then CREATED, never missed for an equal version (CURATOR-391)', async () => {
      const root = lockPath('cache');
      await z(1).mkdirp(`${root}/x`, { data: 'same' });
      await using cache = new CuratorCache(z(0), root, { watchMode });
      await cache.start();
      const events: string[] = [];
      cache.addListener((e) => events.push(show(root, e)));
      const before = cache.get(`${root}/x`)?.stat.czxid as bigint;
      await z(1).multi([Op.delete(`${root}/x`, -1), Op.create(`${root}/x`, 'same')]);
      await eventually(() => (cache.get(`${root}/x`)?.stat.czxid ?? 0n) > before, 10_000, 'the new incarnation');
      expect(events).toEqual(['DELETED /x', 'CREATED /x']);
      expect(await converged(cache, z(1))).toBe(true);
    });

    it('the root itself going and coming back; a single-node cache ignores children', async () => {
      const root = lockPath('cache');
      await z(1).mkdirp(`${root}/kid`);
      await using cache = new CuratorCache(z(0), root, { watchMode });
      await cache.start();
      await z(1).deleteRecursive(root);
      await eventually(() => cache.size() === 0, 10_000, 'all gone');
      await z(1).mkdirp(`${root}/again`, { data: 'v' });
      await eventually(() => cache.size() === 2, 10_000, 'back');
      expect(await converged(cache, z(1))).toBe(true);

      await using single = new CuratorCache(z(0), root, { watchMode, singleNode: true });
      await single.start();
      expect([...single.stream()].map((n) => n.path)).toEqual([root]);
      await z(1).setData(root, 'root data');
      await z(1).create(`${root}/more`);
      await eventually(() => new TextDecoder().decode(single.get(root)?.data) === 'root data', 10_000, 'root data');
      expect(single.size()).toBe(1);
    });

    it('events as an async iterable; misuse is a typed error', async () => {
      const root = lockPath('cache');
      const cache = new CuratorCache(z(0), root, { watchMode });
      expect(cache.stale).toBe(true); // nothing loaded yet
      expect(await codeOf(cache.close())).toBe('ILLEGAL_STATE');
      const seen: string[] = [];
      const reading = (async () => {
        for await (const e of cache.events()) seen.push(show(root, e));
      })();
      await cache.start();
      expect(cache.stale).toBe(false);
      expect(await codeOf(cache.start())).toBe('ILLEGAL_STATE');
      await z(1).mkdirp(root, { data: 'r' });
      await eventually(() => seen.length === 2, 10_000, 'created');
      await cache.close();
      await reading;
      expect(seen).toEqual(['initialized', 'CREATED /']);
      expect(cache.size()).toBe(0);
      expect(cache.stale).toBe(true); // closed: no longer following
      expect(() => new CuratorCache(z(0), root, { watchMode: 'x' as 'auto' })).toThrow(expect.objectContaining({ code: 'BAD_ARGUMENT' }));
    });
  });
}

describe('CuratorCache through connection faults', () => {
  const fx = useProxiedServer();

  for (const watchMode of ['persistent', 'one-shot'] as const) {
    it(`changes made while disconnected, including a delete and re-create, are all caught up (${watchMode}; CURATOR-391)`, async () => {
      fx.proxy.pass();
      const root = lockPath('cache');
      await fx.direct.mkdirp(`${root}/stay`, { data: 's0' });
      await fx.direct.create(`${root}/recreated`, 'same');
      await fx.direct.create(`${root}/doomed`);
      await using client = await ZooKeeperClient.connect(fx.proxy.connectString, { sessionTimeoutMs: 10_000 });
      await using cache = new CuratorCache(client, root, { watchMode });
      await cache.start();
      const events: string[] = [];
      cache.addListener((e) => events.push(show(root, e)));
      fx.proxy.pause();
      await eventually(() => client.state !== 'connected', 15_000, 'disconnected');
      await fx.direct.multi([Op.delete(`${root}/recreated`, -1), Op.create(`${root}/recreated`, 'same')]);
      await fx.direct.delete(`${root}/doomed`);
      await fx.direct.create(`${root}/born`, 'b');
      await fx.direct.setData(`${root}/stay`, 's1');
      fx.proxy.pass();
      await eventually(() => converged(cache, fx.direct), 15_000, 'cache caught up');
      // stale from the disconnect until the walk after the reconnect is in, and says so, once each
      await eventually(() => events.at(-1) === 'resynced', 15_000, 'resynced');
      expect(cache.stale).toBe(false);
      expect(events[0]).toBe('stale');
      expect(events.filter((e) => e === 'stale' || e === 'resynced')).toEqual(['stale', 'resynced']);
      expect(events).toEqual(expect.arrayContaining(['DELETED /recreated', 'CREATED /recreated', 'DELETED /doomed', 'CREATED /born', 'CHANGED /stay s1']));
      expect(events.indexOf('DELETED /recreated')).toBeLessThan(events.indexOf('CREATED /recreated'));
    });
  }
});
