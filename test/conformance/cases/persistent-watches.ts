/** Persistent and persistent-recursive watches (addWatch), and removeWatches / checkWatches with NOWATCHER. */

import { expect } from 'vitest';
import { codeOf } from '../../client/helpers.js';
import { Op, type PersistentWatch, type WatchEvent } from '../../../src/node.js';
import type { Topic } from '../suite.js';
import { event } from '../watch-event.js';

/** The next `n` events of a persistent watch. */
async function take(watch: PersistentWatch, n: number): Promise<(WatchEvent | undefined)[]> {
  const out: (WatchEvent | undefined)[] = [];
  for (let i = 0; i < n; i++) out.push(await watch.next());
  return out;
}

export const persistentWatchCases: Topic = {
  title: 'persistent watches',
  define(c) {
    c('a persistent watch sees every data and child change of its node, and stays after firing', async (t) => {
      const [a, b] = [await t.client(), await t.client()];
      const path = t.path();
      await b.create(path);
      const watch = await a.addWatch(path);
      await b.setData(path, '1');
      await b.setData(path, '2');
      await b.create(`${path}/k`);
      await b.delete(`${path}/k`);
      expect(await take(watch, 4)).toEqual([
        event('NodeDataChanged', path),
        event('NodeDataChanged', path),
        event('NodeChildrenChanged', path),
        event('NodeChildrenChanged', path),
      ]);
      await watch.close();
    });

    c('a persistent watch outlives its node: NodeDeleted, then NodeCreated when it comes back', async (t) => {
      const [a, b] = [await t.client(), await t.client()];
      const path = t.path();
      const watch = await a.addWatch(path);
      await b.create(path);
      await b.delete(path);
      await b.create(path, 'again');
      expect(await take(watch, 3)).toEqual([event('NodeCreated', path), event('NodeDeleted', path), event('NodeCreated', path)]);
      await watch.close();
    });

    c("a persistent (non-recursive) watch does not see its children's data or grandchildren", async (t) => {
      const [a, b] = [await t.client(), await t.client()];
      const path = t.path();
      await b.create(path);
      await b.create(`${path}/k`);
      const watch = await a.addWatch(path);
      await b.setData(`${path}/k`, 'x');
      await b.create(`${path}/k/g`);
      await b.setData(path, 'mine');
      expect(await watch.next()).toEqual(event('NodeDataChanged', path));
      await watch.close();
    });

    c('a recursive watch sees the whole subtree with node paths, and never NodeChildrenChanged', async (t) => {
      const [a, b] = [await t.client(), await t.client()];
      const root = t.path();
      await b.create(root);
      const watch = await a.addWatch(root, { mode: 'persistent-recursive' });
      await b.create(`${root}/a`);
      await b.create(`${root}/a/b`);
      await b.setData(`${root}/a/b`, 'x');
      await b.delete(`${root}/a/b`);
      await b.setData(root, 'r');
      expect(await take(watch, 5)).toEqual([
        event('NodeCreated', `${root}/a`),
        event('NodeCreated', `${root}/a/b`),
        event('NodeDataChanged', `${root}/a/b`),
        event('NodeDeleted', `${root}/a/b`),
        event('NodeDataChanged', root),
      ]);
      await watch.close();
    });

    c('a recursive watch on a missing path sees the path and its subtree being created', async (t) => {
      const [a, b] = [await t.client(), await t.client()];
      const root = t.path();
      const watch = await a.addWatch(root, { mode: 'persistent-recursive' });
      await b.mkdirp(`${root}/x/y`);
      expect(await take(watch, 3)).toEqual([event('NodeCreated', root), event('NodeCreated', `${root}/x`), event('NodeCreated', `${root}/x/y`)]);
      await watch.close();
    });

    c("a recursive watch sees a multi's changes in op order", async (t) => {
      const [a, b] = [await t.client(), await t.client()];
      const root = t.path();
      await b.create(root);
      await b.create(`${root}/old`);
      const watch = await a.addWatch(root, { mode: 'persistent-recursive' });
      await b.multi([Op.create(`${root}/n`), Op.delete(`${root}/old`), Op.setData(`${root}/n`, 'x')]);
      expect(await take(watch, 3)).toEqual([event('NodeCreated', `${root}/n`), event('NodeDeleted', `${root}/old`), event('NodeDataChanged', `${root}/n`)]);
      await watch.close();
    });

    c('a persistent and a one-shot watch on one node both get the event', async (t) => {
      const [a, b] = [await t.client(), await t.client()];
      const path = t.path();
      await b.create(path);
      const persistent = await a.addWatch(path);
      const oneShot = await a.getData(path, { watch: true });
      await b.setData(path, 'x');
      expect(await oneShot.watch).toEqual(event('NodeDataChanged', path));
      expect(await persistent.next()).toEqual(event('NodeDataChanged', path));
      await persistent.close();
    });

    c('recursive watches of two sessions each see the change', async (t) => {
      const [a, b, w] = [await t.client(), await t.client(), await t.client()];
      const root = t.path();
      await w.create(root);
      const wa = await a.addWatch(root, { mode: 'persistent-recursive' });
      const wb = await b.addWatch(root, { mode: 'persistent-recursive' });
      await w.create(`${root}/k`);
      expect(await wa.next()).toEqual(event('NodeCreated', `${root}/k`));
      expect(await wb.next()).toEqual(event('NodeCreated', `${root}/k`));
      await Promise.all([wa.close(), wb.close()]);
    });

    c('checkWatches and removeWatches answer NOWATCHER / false where the session has no watch', async (t) => {
      const zk = await t.client();
      const path = t.path();
      await zk.create(path);
      expect(await zk.checkWatches(path, 'data')).toBe(false);
      expect(await zk.checkWatches(path, 'children')).toBe(false);
      expect(await zk.checkWatches(path, 'any')).toBe(false);
      expect(await codeOf(zk.removeWatches(path, 'data'))).toBe('NOWATCHER');
      expect(await codeOf(zk.removeWatches(path, 'any'))).toBe('NOWATCHER');
    });

    c('removeWatches of data watches ends them with DataWatchRemoved and leaves the child watch working', async (t) => {
      const [a, b] = [await t.client(), await t.client()];
      const path = t.path();
      await b.create(path);
      const data = await a.getData(path, { watch: true });
      const kids = await a.getChildren(path, { watch: true });
      expect(await a.checkWatches(path, 'data')).toBe(true);
      expect(await a.checkWatches(path, 'children')).toBe(true);
      await a.removeWatches(path, 'data');
      expect(await data.watch).toEqual(event('DataWatchRemoved', path));
      expect(await a.checkWatches(path, 'data')).toBe(false);
      await b.create(`${path}/k`);
      expect(await kids.watch).toEqual(event('NodeChildrenChanged', path));
    });

    c('removeWatches of child watches ends them with ChildWatchRemoved; any removes both kinds', async (t) => {
      const zk = await t.client();
      const path = t.path();
      await zk.create(path);
      const kids = await zk.getChildren(path, { watch: true });
      await zk.removeWatches(path, 'children');
      expect(await kids.watch).toEqual(event('ChildWatchRemoved', path));
      const data = await zk.getData(path, { watch: true });
      const kids2 = await zk.getChildren(path, { watch: true });
      await zk.removeWatches(path, 'any');
      expect(await data.watch).toEqual(event('DataWatchRemoved', path));
      expect(await kids2.watch).toEqual(event('ChildWatchRemoved', path));
      expect(await zk.checkWatches(path, 'any')).toBe(false);
    });

    c('a recursive watch sees a subtree deleted bottom-up, children before their parent', async (t) => {
      const [a, b] = [await t.client(), await t.client()];
      const root = t.path();
      await b.mkdirp(`${root}/x/y`);
      const watch = await a.addWatch(root, { mode: 'persistent-recursive' });
      await b.deleteRecursive(root);
      expect(await take(watch, 3)).toEqual([event('NodeDeleted', `${root}/x/y`), event('NodeDeleted', `${root}/x`), event('NodeDeleted', root)]);
      await watch.close();
    });

    c('3.8: a persistent watch is a data and a child watch, removing data watches leaves its child half; 3.9: data and children see only one-shot watches; any ends it on both', async (t) => {
      const zk = await t.client();
      const path = t.path();
      await zk.create(path);
      const watch = await zk.addWatch(path);
      // 3.9 looks for a one-shot watch under the Data and Children types (a persistent one answers only to Any).
      const typedSeesPersistent = t.byVersion({ '3.8': true, '3.9': false });
      expect(await zk.checkWatches(path, 'data')).toBe(typedSeesPersistent);
      expect(await zk.checkWatches(path, 'children')).toBe(typedSeesPersistent);
      expect(await codeOf(zk.removeWatches(path, 'data'))).toBe(typedSeesPersistent ? 'resolved' : 'NOWATCHER');
      expect(await zk.checkWatches(path, 'data')).toBe(false);
      expect(await zk.checkWatches(path, 'any')).toBe(true);
      await zk.setData(path, 'x');
      await zk.create(`${path}/kid`);
      // 3.8: the data change reached nobody, the first event is the child's; 3.9: the watch is whole
      if (!typedSeesPersistent) expect(await watch.next()).toEqual(event('NodeDataChanged', path));
      expect(await watch.next()).toEqual(event('NodeChildrenChanged', path));
      await zk.removeWatches(path, 'any');
      expect(await watch.next()).toEqual(event('PersistentWatchRemoved', path));
      expect(await zk.checkWatches(path, 'any')).toBe(false);
      await watch.close();
    });

    c('a recursive watch answers checkWatches data and children on 3.8, only any on 3.9', async (t) => {
      const zk = await t.client();
      const path = t.path();
      await zk.create(path);
      const watch = await zk.addWatch(path, { mode: 'persistent-recursive' });
      const typedSeesPersistent = t.byVersion({ '3.8': true, '3.9': false });
      expect(await zk.checkWatches(path, 'data')).toBe(typedSeesPersistent);
      expect(await zk.checkWatches(path, 'children')).toBe(typedSeesPersistent);
      expect(await zk.checkWatches(path, 'any')).toBe(true);
      await watch.close();
      expect(await zk.checkWatches(path, 'any')).toBe(false);
    });

    c('closing a persistent watch removes it from the server; later changes reach nobody', async (t) => {
      const [a, b] = [await t.client(), await t.client()];
      const path = t.path();
      await b.create(path);
      const watch = await a.addWatch(path, { mode: 'persistent-recursive' });
      expect(await a.checkWatches(path, 'any')).toBe(true);
      await watch.close();
      expect(await a.checkWatches(path, 'any')).toBe(false);
      await b.setData(path, 'x');
      expect(await watch.next()).toBeUndefined();
    });
  },
};
