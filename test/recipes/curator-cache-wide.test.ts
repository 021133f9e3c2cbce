/**
 * CURATOR-690 on its own: a cache over more than 65,535 children (the count Curator once kept in a short). Apart from
 * the other cache tests because it writes 70,000 nodes: scripts/test-matrix.sh runs it on the newest release only.
 */

import { describe, expect, it } from 'vitest';
import { Op } from '../../src/node.js';
import { CuratorCache } from '../../src/recipes/cache/curator-cache.js';
import { closeAll, connectClients, eventually, lockPath } from './helpers.js';

describe('CuratorCache with more than 65,535 children (CURATOR-690)', () => {
  it('loads 70,000 children and follows a change among them', async () => {
    const [writer, reader] = await connectClients(2);
    const root = lockPath('wide');
    try {
      await writer!.mkdirp(root);
      const total = 70_000;
      const batch = 1000;
      const writes: Promise<unknown>[] = [];
      for (let i = 0; i < total; i += batch) {
        writes.push(writer!.multi(Array.from({ length: batch }, (_, k) => Op.create(`${root}/n${i + k}`, null))));
      }
      await Promise.all(writes);
      await using cache = new CuratorCache(reader!, root);
      await cache.start();
      expect(cache.size()).toBe(total + 1);
      expect(cache.childrenOf(root).length).toBe(total);
      await writer!.setData(`${root}/n69999`, 'last');
      await eventually(() => cache.get(`${root}/n69999`)?.data.length === 4, 10_000, 'the change');
      // clean up in the same pipelined batches
      const deletes: Promise<unknown>[] = [];
      for (let i = 0; i < total; i += batch) {
        deletes.push(writer!.multi(Array.from({ length: batch }, (_, k) => Op.delete(`${root}/n${i + k}`, -1))));
      }
      await Promise.all(deletes);
      await eventually(() => cache.size() === 1, 30_000, 'all deletions seen');
    } finally {
      await closeAll([writer!, reader!]);
    }
  }, 120_000);
});
