/**
 * One-shot watches (data, exist, child): which change fires which watch with which event, that a watch fires once,
 * and where events fall relative to replies (ZooKeeper's ordering guarantee: a client sees a watch event before it
 * sees the new state that fired it).
 */

import { expect } from 'vitest';
import { codeOf } from '../../client/helpers.js';
import { SettleOrder } from '../waits.js';
import type { Topic } from '../suite.js';
import { event } from '../watch-event.js';

export const watchCases: Topic = {
  title: 'one-shot watches',
  define(c) {
    c("exists on a missing node fires NodeCreated when another session creates it", async (t) => {
      const [a, b] = [await t.client(), await t.client()];
      const path = t.path();
      const { stat, watch } = await a.exists(path, { watch: true });
      expect(stat).toBeNull();
      await b.create(path);
      expect(await watch).toEqual(event('NodeCreated', path));
    });

    c('exists on a present node fires NodeDataChanged on setData', async (t) => {
      const [a, b] = [await t.client(), await t.client()];
      const path = t.path();
      await b.create(path);
      const { watch } = await a.exists(path, { watch: true });
      await b.setData(path, 'x');
      expect(await watch).toEqual(event('NodeDataChanged', path));
    });

    c('exists on a present node fires NodeDeleted on delete', async (t) => {
      const [a, b] = [await t.client(), await t.client()];
      const path = t.path();
      await b.create(path);
      const { watch } = await a.exists(path, { watch: true });
      await b.delete(path);
      expect(await watch).toEqual(event('NodeDeleted', path));
    });

    c('getData fires NodeDataChanged on setData and NodeDeleted on delete', async (t) => {
      const [a, b] = [await t.client(), await t.client()];
      const path = t.path();
      await b.create(path);
      const first = await a.getData(path, { watch: true });
      await b.setData(path, 'x');
      expect(await first.watch).toEqual(event('NodeDataChanged', path));
      const second = await a.getData(path, { watch: true });
      await b.delete(path);
      expect(await second.watch).toEqual(event('NodeDeleted', path));
    });

    c('getChildren fires NodeChildrenChanged on a child create and on a child delete', async (t) => {
      const [a, b] = [await t.client(), await t.client()];
      const path = t.path();
      await b.create(path);
      const first = await a.getChildren(path, { watch: true });
      await b.create(`${path}/kid`);
      expect(await first.watch).toEqual(event('NodeChildrenChanged', path));
      const second = await a.getChildren(path, { watch: true });
      expect(second.children).toEqual(['kid']);
      await b.delete(`${path}/kid`);
      expect(await second.watch).toEqual(event('NodeChildrenChanged', path));
    });

    c('getChildren fires NodeDeleted when the node itself is deleted', async (t) => {
      const [a, b] = [await t.client(), await t.client()];
      const path = t.path();
      await b.create(path);
      const { watch } = await a.getChildren(path, { watch: true });
      await b.delete(path);
      expect(await watch).toEqual(event('NodeDeleted', path));
    });

    c("a child watch ignores data changes of the node and its children; a data watch ignores children", async (t) => {
      const [a, b] = [await t.client(), await t.client()];
      const path = t.path();
      await b.create(path);
      await b.create(`${path}/kid`);
      const kids = await a.getChildren(path, { watch: true });
      const data = await a.getData(path, { watch: true });
      await b.setData(path, 'x');
      await b.setData(`${path}/kid`, 'y');
      await b.create(`${path}/other`);
      // each watch's first event is the one change that concerns it
      expect(await data.watch).toEqual(event('NodeDataChanged', path));
      expect(await kids.watch).toEqual(event('NodeChildrenChanged', path));
    });

    c('a watch on a child is not fired by changes of its parent', async (t) => {
      const [a, b] = [await t.client(), await t.client()];
      const path = t.path();
      await b.create(path);
      await b.create(`${path}/kid`);
      const { watch } = await a.getData(`${path}/kid`, { watch: true });
      await b.setData(path, 'parent');
      await b.create(`${path}/sibling`);
      await b.setData(`${path}/kid`, 'kid');
      expect(await watch).toEqual(event('NodeDataChanged', `${path}/kid`));
    });

    c('a failed write fires nothing: the first event is from the next write that succeeds', async (t) => {
      const [a, b] = [await t.client(), await t.client()];
      const path = t.path();
      await b.create(path);
      const { watch } = await a.getData(path, { watch: true });
      await b.setData(path, 'x', { version: 5 }).catch(() => undefined);
      await b.create(path).catch(() => undefined);
      await b.delete(path);
      expect(await watch).toEqual(event('NodeDeleted', path));
    });

    c('a one-shot watch fires once: a second change reaches no watcher until one is set again', async (t) => {
      const [a, b] = [await t.client(), await t.client()];
      const path = t.path();
      await b.create(path);
      const first = await a.getData(path, { watch: true });
      await b.setData(path, '1');
      await first.watch;
      expect(await a.checkWatches(path, 'data')).toBe(false);
      await b.setData(path, '2');
      const again = await a.getData(path, { watch: true });
      await b.delete(path);
      expect(await again.watch).toEqual(event('NodeDeleted', path));
    });

    c('a watch set twice on one node by one session fires once, to both setters, with one event', async (t) => {
      const [a, b] = [await t.client(), await t.client()];
      const path = t.path();
      await b.create(path);
      const one = await a.getData(path, { watch: true });
      const two = await a.exists(path, { watch: true });
      await b.setData(path, 'x');
      expect(await one.watch).toEqual(event('NodeDataChanged', path));
      expect(await two.watch).toEqual(event('NodeDataChanged', path));
      expect(await a.checkWatches(path, 'data')).toBe(false);
    });

    c("another session's write: the event reaches the watcher before the reply to a read it issues afterwards", async (t) => {
      const [a, b] = [await t.client(), await t.client()];
      const path = t.path();
      await b.create(path, 'old');
      const settled = new SettleOrder();
      const { watch } = await a.getData(path, { watch: true });
      settled.track('event', watch);
      await b.setData(path, 'new');
      const read = await settled.track('read', a.getData(path));
      expect(new TextDecoder().decode(read.data)).toBe('new');
      expect(settled.order).toEqual(['event', 'read']);
    });

    c("the session's own write: the event comes before the write's reply", async (t) => {
      const zk = await t.client();
      const path = t.path();
      const settled = new SettleOrder();
      const { watch } = await zk.exists(path, { watch: true });
      settled.track('event', watch);
      await settled.track('create reply', zk.create(path));
      expect(settled.order).toEqual(['event', 'create reply']);
    });

    c('events of several nodes arrive in the order the writes were applied', async (t) => {
      const [a, b] = [await t.client(), await t.client()];
      const root = t.path();
      await b.create(root);
      const paths = ['x', 'y', 'z'].map((n) => `${root}/${n}`);
      for (const p of paths) await b.create(p);
      const settled = new SettleOrder();
      for (const p of paths) settled.track(p, (await a.getData(p, { watch: true })).watch);
      await b.setData(paths[2]!, '1');
      await b.setData(paths[0]!, '1');
      await b.setData(paths[1]!, '1');
      await a.sync(root);
      await a.exists(root);
      expect(settled.order).toEqual([paths[2], paths[0], paths[1]]);
    });

    c("a create fires the node's own watch before its parent's child watch; a delete likewise", async (t) => {
      const [a, b] = [await t.client(), await t.client()];
      const root = t.path();
      await b.create(root);
      const kid = `${root}/kid`;
      const created = new SettleOrder();
      created.track('node', (await a.exists(kid, { watch: true })).watch);
      created.track('parent', (await a.getChildren(root, { watch: true })).watch);
      await b.create(kid);
      await a.sync(root);
      expect(created.order).toEqual(['node', 'parent']);
      const deleted = new SettleOrder();
      deleted.track('parent', (await a.getChildren(root, { watch: true })).watch);
      deleted.track('node', (await a.getData(kid, { watch: true })).watch);
      await b.delete(kid);
      await a.sync(root);
      expect(deleted.order).toEqual(['node', 'parent']);
    });

    c('every session watching a node gets its own event', async (t) => {
      const [a, b, w] = [await t.client(), await t.client(), await t.client()];
      const path = t.path();
      await w.create(path);
      const [wa, wb] = [await a.getData(path, { watch: true }), await b.exists(path, { watch: true })];
      await w.delete(path);
      expect(await wa.watch).toEqual(event('NodeDeleted', path));
      expect(await wb.watch).toEqual(event('NodeDeleted', path));
    });

    c('getData and getChildren of a missing node are NONODE and leave no watch', async (t) => {
      const zk = await t.client();
      const path = t.path();
      expect(await codeOf(zk.getData(path, { watch: true }))).toBe('NONODE');
      expect(await codeOf(zk.getChildren(path, { watch: true }))).toBe('NONODE');
      expect(await zk.checkWatches(path, 'any')).toBe(false);
    });

    c('an exists watch on a missing node fires NodeCreated once, not again for the quick delete after', async (t) => {
      const [a, b] = [await t.client(), await t.client()];
      const path = t.path();
      const { watch } = await a.exists(path, { watch: true });
      await b.create(path);
      await b.delete(path);
      expect(await watch).toEqual(event('NodeCreated', path));
      expect(await a.checkWatches(path, 'any')).toBe(false);
    });
  },
};
