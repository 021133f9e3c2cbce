/** Create modes: persistent, ephemeral, sequential numbering, containers and TTL nodes (extendedTypesEnabled). */

import { expect } from 'vitest';
import { codeOf } from '../../client/helpers.js';
import type { Topic } from '../suite.js';

const seq = (n: number): string => String(n).padStart(10, '0');

export const createModeCases: Topic = {
  title: 'create modes',
  define(c) {
    c('a persistent node has no owner and outlives the session that made it', async (t) => {
      const a = await t.client();
      const path = t.path();
      await a.create(path, null, { mode: 'persistent' });
      await a.close();
      const b = await t.client();
      expect((await b.exists(path))?.ephemeralOwner).toBe(0n);
    });

    c('an ephemeral node is owned by its session, as another session sees it', async (t) => {
      const [a, b] = [await t.client(), await t.client()];
      const path = t.path();
      await a.create(path, 'e', { mode: 'ephemeral' });
      expect((await b.exists(path))?.ephemeralOwner).toBe(a.sessionId);
      expect((await a.exists(path))?.ephemeralOwner).toBe(a.sessionId);
    });

    c("another session may change and delete an ephemeral; it then leaves its owner's list", async (t) => {
      const [owner, other] = [await t.client(), await t.client()];
      const path = t.path();
      await owner.create(path, null, { mode: 'ephemeral' });
      expect((await other.setData(path, 'x')).ephemeralOwner).toBe(owner.sessionId);
      await other.delete(path);
      expect(await owner.getEphemerals(path)).toEqual([]);
    });

    c('sequential names take a 10-digit suffix counting from 0 under a fresh parent', async (t) => {
      const zk = await t.client();
      const root = t.path();
      await zk.create(root);
      expect(await zk.create(`${root}/n-`, null, { mode: 'persistent-sequential' })).toBe(`${root}/n-${seq(0)}`);
      expect(await zk.create(`${root}/n-`, null, { mode: 'persistent-sequential' })).toBe(`${root}/n-${seq(1)}`);
      expect(await zk.create(`${root}/other-`, null, { mode: 'persistent-sequential' })).toBe(`${root}/other-${seq(2)}`);
    });

    c("the sequence number is the parent's cversion: plain children count too", async (t) => {
      const zk = await t.client();
      const root = t.path();
      await zk.create(root);
      await zk.create(`${root}/plain-a`);
      await zk.create(`${root}/plain-b`);
      const cversion = (await zk.exists(root))!.cversion;
      expect(cversion).toBe(2);
      expect(await zk.create(`${root}/s-`, null, { mode: 'persistent-sequential' })).toBe(`${root}/s-${seq(cversion)}`);
    });

    c("deletes bump cversion but not the sequence: the number counts the parent's creates, so it is never reused", async (t) => {
      const zk = await t.client();
      const root = t.path();
      await zk.create(root);
      const a = await zk.create(`${root}/s-`, null, { mode: 'persistent-sequential' });
      const b = await zk.create(`${root}/s-`, null, { mode: 'persistent-sequential' });
      await zk.delete(a);
      await zk.delete(b);
      // cversion counts creates and deletes (4); the server keeps the count of creates (2) and numbers from it
      const { cversion, numChildren } = (await zk.exists(root))!;
      expect(cversion).toBe(4);
      expect(await zk.create(`${root}/s-`, null, { mode: 'persistent-sequential' })).toBe(`${root}/s-${seq((cversion + numChildren) / 2)}`);
      expect(await zk.create(`${root}/s-`, null, { mode: 'persistent-sequential' })).toBe(`${root}/s-${seq(3)}`);
    });

    c('ephemeral-sequential nodes share the counter with persistent ones and are owned by the session', async (t) => {
      const zk = await t.client();
      const root = t.path();
      await zk.create(root);
      await zk.create(`${root}/p-`, null, { mode: 'persistent-sequential' });
      const e = await zk.create(`${root}/e-`, null, { mode: 'ephemeral-sequential', stat: true });
      expect(e.path).toBe(`${root}/e-${seq(1)}`);
      expect(e.stat.ephemeralOwner).toBe(zk.sessionId);
    });

    c('a sequential name ending in "/" is the bare number', async (t) => {
      const zk = await t.client();
      const root = t.path();
      await zk.create(root);
      expect(await zk.create(`${root}/`, null, { mode: 'persistent-sequential' })).toBe(`${root}/${seq(0)}`);
    });

    c('sequential creates from two sessions get distinct, increasing numbers', async (t) => {
      const [a, b] = [await t.client(), await t.client()];
      const root = t.path();
      await a.create(root);
      const names = await Promise.all([0, 1, 2, 3].map((i) => (i % 2 ? a : b).create(`${root}/x-`, null, { mode: 'ephemeral-sequential' })));
      expect(new Set(names).size).toBe(4);
      expect(names.map((n) => n.slice(-10)).sort()).toEqual([seq(0), seq(1), seq(2), seq(3)]);
    });

    c('a container reports no owner and holds children like a persistent node', async (t) => {
      const zk = await t.client();
      const path = t.path();
      const created = await zk.create(path, 'c', { mode: 'container', stat: true });
      expect(created.stat.ephemeralOwner).toBe(0n);
      await zk.create(`${path}/kid`);
      expect((await zk.exists(path))?.numChildren).toBe(1);
    });

    c('a container is removed by the server once its last child goes; one that never had children stays', async (t) => {
      const zk = await t.client();
      const unused = t.path();
      const used = t.path();
      await zk.create(unused, null, { mode: 'container' });
      await zk.create(used, null, { mode: 'container' });
      await zk.create(`${used}/kid`);
      await zk.delete(`${used}/kid`);
      await t.target.until(async () => (await zk.exists(used)) === null, 'the emptied container to be reaped');
      expect(await zk.exists(unused)).not.toBeNull();
    });

    c('a TTL node reports no owner and is removed once its TTL passes without changes or children', async (t) => {
      const zk = await t.client();
      const path = t.path();
      const created = await zk.create(path, 'ttl', { mode: 'ttl', ttl: 300, stat: true });
      expect(created.stat.ephemeralOwner).toBe(0n);
      await t.target.until(async () => (await zk.exists(path)) === null, 'the TTL node to expire');
    });

    c('a TTL node with a child is kept past its TTL', async (t) => {
      const zk = await t.client();
      const parent = t.path();
      const lone = t.path();
      await zk.create(parent, null, { mode: 'ttl', ttl: 300 });
      await zk.create(`${parent}/kid`);
      await zk.create(lone, null, { mode: 'ttl', ttl: 300 });
      // The lone node is younger: when it has expired, the parent's TTL has passed as well.
      await t.target.until(async () => (await zk.exists(lone)) === null, 'the childless TTL node to expire');
      expect(await zk.exists(parent)).not.toBeNull();
    });

    c('ttl-sequential names take the suffix and the nodes expire like TTL nodes', async (t) => {
      const zk = await t.client();
      const root = t.path();
      await zk.create(root);
      const made = await zk.create(`${root}/t-`, null, { mode: 'ttl-sequential', ttl: 300 });
      expect(made).toBe(`${root}/t-${seq(0)}`);
      await t.target.until(async () => (await zk.exists(made)) === null, 'the TTL-sequential node to expire');
    });

    c('an ephemeral node cannot have children, sequential ones included', async (t) => {
      const zk = await t.client();
      const path = t.path();
      await zk.create(path, null, { mode: 'ephemeral' });
      expect(await codeOf(zk.create(`${path}/kid`))).toBe('NOCHILDRENFOREPHEMERALS');
      expect(await codeOf(zk.create(`${path}/kid-`, null, { mode: 'ephemeral-sequential' }))).toBe('NOCHILDRENFOREPHEMERALS');
      expect((await zk.exists(path))?.cversion).toBe(0);
    });
  },
};
