/** The list reads (getChildren, getChildren2, getAllChildrenNumber, getEphemerals) and sync. */

import { expect } from 'vitest';
import { codeOf, dec } from '../../client/helpers.js';
import type { Topic } from '../suite.js';

export const readCases: Topic = {
  title: 'children, ephemerals and sync',
  define(c) {
    c('getChildren lists the names of the direct children only; a leaf has none', async (t) => {
      const zk = await t.client();
      const root = t.path();
      await zk.mkdirp(`${root}/b/deep`);
      await zk.create(`${root}/a`);
      await zk.create(`${root}/c`, null, { mode: 'ephemeral' });
      expect((await zk.getChildren(root)).sort()).toEqual(['a', 'b', 'c']);
      expect(await zk.getChildren(`${root}/a`)).toEqual([]);
    });

    c("getChildren2 returns the children with the parent's Stat", async (t) => {
      const zk = await t.client();
      const root = t.path();
      await zk.create(root, 'd');
      await zk.create(`${root}/x`);
      await zk.create(`${root}/y`);
      const { children, stat } = await zk.getChildrenWithStat(root);
      expect(children.sort()).toEqual(['x', 'y']);
      expect(stat).toEqual(await zk.exists(root));
      expect(stat).toMatchObject({ numChildren: 2, cversion: 2, dataLength: 1 });
    });

    c('getAllChildrenNumber counts every descendant, not the node itself', async (t) => {
      const zk = await t.client();
      const root = t.path();
      await zk.mkdirp(`${root}/a/b/c`);
      await zk.create(`${root}/d`);
      expect(await zk.getAllChildrenNumber(root)).toBe(4);
      expect(await zk.getAllChildrenNumber(`${root}/a/b/c`)).toBe(0);
    });

    c('getAllChildrenNumber of a missing node is NONODE', async (t) => {
      const zk = await t.client();
      expect(await codeOf(zk.getAllChildrenNumber(t.path()))).toBe('NONODE');
    });

    c("getEphemerals lists the session's own ephemerals only, filtered by prefix", async (t) => {
      const [a, b] = [await t.client(), await t.client()];
      const root = t.path();
      await a.create(root);
      await a.create(`${root}/a1`, null, { mode: 'ephemeral' });
      await a.create(`${root}/a2-`, null, { mode: 'ephemeral-sequential' });
      await a.create(`${root}/p`);
      await b.create(`${root}/b1`, null, { mode: 'ephemeral' });
      expect((await a.getEphemerals(root)).sort()).toEqual([`${root}/a1`, `${root}/a2-0000000001`]);
      expect(await a.getEphemerals(`${root}/a1`)).toEqual([`${root}/a1`]);
      expect(await b.getEphemerals(root)).toEqual([`${root}/b1`]);
      expect(await a.getEphemerals(`${root}/none`)).toEqual([]);
      expect((await a.getEphemerals()).filter((p) => p.startsWith(root)).sort()).toEqual([`${root}/a1`, `${root}/a2-0000000001`]);
    });

    c('a session with no ephemerals gets an empty list', async (t) => {
      const zk = await t.client();
      expect(await zk.getEphemerals()).toEqual([]);
    });

    c("sync resolves, and a read after it sees another session's write", async (t) => {
      const [a, b] = [await t.client(), await t.client()];
      const path = t.path();
      await a.create(path, 'one');
      await b.sync(path);
      expect(dec((await b.getData(path)).data)).toBe('one');
    });

    c('sync of a missing path resolves as well', async (t) => {
      const zk = await t.client();
      await expect(zk.sync(t.path())).resolves.toBeUndefined();
    });

    c('exists, getData and getChildren of the same node agree on its Stat', async (t) => {
      const zk = await t.client();
      const root = t.path();
      await zk.create(root, 'abc');
      await zk.create(`${root}/k`);
      const [exists, data, children] = await Promise.all([zk.exists(root), zk.getData(root), zk.getChildrenWithStat(root)]);
      expect(data.stat).toEqual(exists);
      expect(children.stat).toEqual(exists);
    });
  },
};
