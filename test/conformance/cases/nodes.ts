/** Nodes and their Stat: what create, getData, setData, exists and delete return, and how the Stat fields relate. */

import { expect } from 'vitest';
import { codeOf, dec, enc } from '../../client/helpers.js';
import type { Topic } from '../suite.js';

export const nodeCases: Topic = {
  title: 'nodes and stats',
  define(c) {
    c('a new node has version, cversion and aversion 0, no children, no owner, and czxid = mzxid = pzxid', async (t) => {
      const zk = await t.client();
      const path = t.path();
      expect(await zk.create(path, 'hello')).toBe(path);
      const { data, stat } = await zk.getData(path);
      expect(dec(data)).toBe('hello');
      expect(stat).toMatchObject({ version: 0, cversion: 0, aversion: 0, numChildren: 0, dataLength: 5, ephemeralOwner: 0n });
      expect(stat.mzxid).toBe(stat.czxid);
      expect(stat.pzxid).toBe(stat.czxid);
      expect(stat.czxid > 0n).toBe(true);
      expect(stat.ctime > 0n).toBe(true);
      expect(stat.mtime).toBe(stat.ctime);
    });

    c('null data is stored as empty: dataLength 0 and empty bytes', async (t) => {
      const zk = await t.client();
      const path = t.path();
      await zk.create(path);
      const { data, stat } = await zk.getData(path);
      expect(data.length).toBe(0);
      expect(stat.dataLength).toBe(0);
    });

    c('bytes round-trip unchanged, every byte value included', async (t) => {
      const zk = await t.client();
      const path = t.path();
      const bytes = Uint8Array.from({ length: 256 }, (_, i) => i);
      await zk.create(path, bytes);
      expect([...(await zk.getData(path)).data]).toEqual([...bytes]);
      await zk.setData(path, enc('ünïcödé ✓'));
      expect(dec((await zk.getData(path)).data)).toBe('ünïcödé ✓');
    });

    c('create with stat returns the same Stat that exists and getData report', async (t) => {
      const zk = await t.client();
      const path = t.path();
      const created = await zk.create(path, 'x', { stat: true });
      expect(created.path).toBe(path);
      expect(await zk.exists(path)).toEqual(created.stat);
      expect((await zk.getData(path)).stat).toEqual(created.stat);
    });

    c('setData bumps version and mzxid, keeps czxid and ctime, updates dataLength; its Stat is the stored one', async (t) => {
      const zk = await t.client();
      const path = t.path();
      const before = (await zk.create(path, 'a', { stat: true })).stat;
      const after = await zk.setData(path, 'abcdef');
      expect(after.version).toBe(1);
      expect(after.czxid).toBe(before.czxid);
      expect(after.ctime).toBe(before.ctime);
      expect(after.mzxid > before.mzxid).toBe(true);
      expect(after.mtime >= before.mtime).toBe(true);
      expect(after.dataLength).toBe(6);
      expect(after.pzxid).toBe(before.pzxid);
      expect(await zk.exists(path)).toEqual(after);
    });

    c('setData with the same bytes still bumps the version', async (t) => {
      const zk = await t.client();
      const path = t.path();
      await zk.create(path, 'same');
      expect((await zk.setData(path, 'same')).version).toBe(1);
      expect((await zk.setData(path, 'same')).version).toBe(2);
    });

    c("creating a child bumps the parent's cversion, numChildren and pzxid, not its version or mzxid", async (t) => {
      const zk = await t.client();
      const path = t.path();
      const parent = (await zk.create(path, null, { stat: true })).stat;
      const child = (await zk.create(`${path}/kid`, null, { stat: true })).stat;
      const after = (await zk.exists(path))!;
      expect(after).toMatchObject({ cversion: 1, numChildren: 1, version: 0 });
      expect(after.pzxid).toBe(child.czxid);
      expect(after.mzxid).toBe(parent.mzxid);
      expect(after.mtime).toBe(parent.mtime);
    });

    c("deleting a child bumps the parent's cversion again, lowers numChildren, and moves pzxid forward", async (t) => {
      const zk = await t.client();
      const path = t.path();
      await zk.create(path);
      const child = (await zk.create(`${path}/kid`, null, { stat: true })).stat;
      await zk.delete(`${path}/kid`);
      const after = (await zk.exists(path))!;
      expect(after).toMatchObject({ cversion: 2, numChildren: 0, version: 0 });
      expect(after.pzxid > child.czxid).toBe(true);
    });

    c("a child's data change leaves the parent's Stat alone", async (t) => {
      const zk = await t.client();
      const path = t.path();
      await zk.create(path);
      await zk.create(`${path}/kid`);
      const before = await zk.exists(path);
      await zk.setData(`${path}/kid`, 'changed');
      expect(await zk.exists(path)).toEqual(before);
    });

    c('zxids grow across sessions in the order writes are applied', async (t) => {
      const [a, b] = [await t.client(), await t.client()];
      const root = t.path();
      const first = (await a.create(root, null, { stat: true })).stat;
      const second = (await b.create(`${root}/b`, null, { stat: true })).stat;
      const third = await a.setData(root, 'x');
      expect(second.czxid > first.czxid).toBe(true);
      expect(third.mzxid > second.czxid).toBe(true);
    });

    c('exists gives null for a missing node and the Stat for a present one', async (t) => {
      const zk = await t.client();
      const path = t.path();
      expect(await zk.exists(path)).toBeNull();
      await zk.create(path, 'x');
      expect((await zk.exists(path))?.dataLength).toBe(1);
    });

    c('delete removes the node; re-creating it starts a new incarnation with version 0 and a later czxid', async (t) => {
      const zk = await t.client();
      const path = t.path();
      const first = (await zk.create(path, 'a', { stat: true })).stat;
      await zk.setData(path, 'b');
      await zk.delete(path);
      expect(await zk.exists(path)).toBeNull();
      expect(await codeOf(zk.getData(path))).toBe('NONODE');
      const again = (await zk.create(path, 'c', { stat: true })).stat;
      expect(again.version).toBe(0);
      expect(again.czxid > first.czxid).toBe(true);
    });

    c('a write by one session is visible to another at once after its reply', async (t) => {
      const [a, b] = [await t.client(), await t.client()];
      const path = t.path();
      await a.create(path, 'v1');
      expect(dec((await b.getData(path)).data)).toBe('v1');
      await b.setData(path, 'v2');
      expect(dec((await a.getData(path)).data)).toBe('v2');
    });

    c('the root exists and holds /zookeeper with its quota and config nodes', async (t) => {
      const zk = await t.client();
      expect(await zk.exists('/')).not.toBeNull();
      expect(await zk.getChildren('/')).toContain('zookeeper');
      expect((await zk.getChildren('/zookeeper')).sort()).toEqual(['config', 'quota']);
    });

    c('mkdirp creates the missing ancestors and deleteRecursive removes a subtree', async (t) => {
      const zk = await t.client();
      const root = t.path();
      await zk.mkdirp(`${root}/a/b/c`, { data: 'leaf' });
      expect(dec((await zk.getData(`${root}/a/b/c`)).data)).toBe('leaf');
      expect((await zk.exists(`${root}/a`))?.numChildren).toBe(1);
      await zk.deleteRecursive(root);
      expect(await zk.exists(root)).toBeNull();
    });
  },
};
