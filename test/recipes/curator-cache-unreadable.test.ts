/**
 * A node the cache may not read (an ACL that leaves its client out): as Curator's CuratorCache, the load completes
 * without it and the refusal is reported, instead of start() waiting for a walk that can never finish. Both watch
 * modes; the node stays out of the cache and everything readable around it is in.
 */

import { describe, expect, it } from 'vitest';
import { digestAcl } from '../../src/client/acl.js';
import { CuratorCache, type CuratorCacheEvent } from '../../src/recipes/cache/curator-cache.js';
import { lockPath, useClients } from './helpers.js';

describe('CuratorCache over a node it may not read', () => {
  const z = useClients(2);

  for (const watchMode of ['persistent', 'one-shot'] as const) {
    it(`loads everything else, reports the refusal and keeps following the tree (${watchMode})`, async () => {
      const root = lockPath('unreadable');
      await z(1).mkdirp(`${root}/open`, { data: 'o' });
      await z(1).addAuth('digest', 'owner:secret');
      await z(1).create(`${root}/closed`, 'c', { acl: [digestAcl('owner', 'secret')] });
      await using cache = new CuratorCache(z(0), root, { watchMode });
      const events: CuratorCacheEvent[] = [];
      cache.addListener((e) => events.push(e));
      // Before the fix the walk never finished: start() stayed pending for ever.
      await cache.start({ signal: AbortSignal.timeout(10_000) });
      expect(new TextDecoder().decode(cache.get(`${root}/open`)?.data)).toBe('o');
      expect(cache.get(`${root}/closed`)).toBeUndefined();
      const refused = events.filter((e) => e.type === 'unreadable');
      expect(refused).toMatchObject([{ type: 'unreadable', path: `${root}/closed`, error: { code: 'NOAUTH' } }]);
      // Still following: a new readable node comes in.
      const created = new Promise<void>((resolve) => cache.addListener((e) => e.type === 'nodeCreated' && e.node.path === `${root}/later` && resolve()));
      await z(1).create(`${root}/later`, 'l');
      await created;
      await z(1).delete(`${root}/closed`);
      await z(1).deleteRecursive(root);
    });
  }
});
