/** Error codes the server answers with, version checks on setData and delete, and paths the client refuses. */

import { expect } from 'vitest';
import { codeOf, dec, errorOf } from '../../client/helpers.js';
import { OPEN_ACL_UNSAFE } from '../../../src/node.js';
import type { Topic } from '../suite.js';

export const errorCases: Topic = {
  title: 'errors and versions',
  define(c) {
    c('NONODE from every op on a missing node, with the op and path in the error', async (t) => {
      const zk = await t.client();
      const path = t.path();
      for (const [op, call] of [
        ['getData', () => zk.getData(path)],
        ['setData', () => zk.setData(path, 'x')],
        ['delete', () => zk.delete(path)],
        ['getChildren', () => zk.getChildren(path)],
        ['getChildren2', () => zk.getChildrenWithStat(path)],
        ['getACL', () => zk.getACL(path)],
        ['setACL', () => zk.setACL(path, OPEN_ACL_UNSAFE)],
      ] as const) {
        const err = await errorOf(call());
        expect(err.code, op).toBe('NONODE');
        expect(err.errno, op).toBe(-101);
        expect(err.path, op).toBe(path);
      }
    });

    c('NONODE for a create under a missing parent', async (t) => {
      const zk = await t.client();
      const path = t.path();
      expect(await codeOf(zk.create(`${path}/kid`))).toBe('NONODE');
      expect(await codeOf(zk.create(`${path}/kid-`, null, { mode: 'ephemeral-sequential' }))).toBe('NONODE');
    });

    c('NODEEXISTS for a create of an existing node, which stays as it was', async (t) => {
      const zk = await t.client();
      const path = t.path();
      await zk.create(path, 'first');
      const err = await errorOf(zk.create(path, 'second', { mode: 'ephemeral' }));
      expect(err.code).toBe('NODEEXISTS');
      expect(err.errno).toBe(-110);
      const { data, stat } = await zk.getData(path);
      expect(dec(data)).toBe('first');
      expect(stat.ephemeralOwner).toBe(0n);
    });

    c('NOTEMPTY for a delete of a node with children', async (t) => {
      const zk = await t.client();
      const path = t.path();
      await zk.create(path);
      await zk.create(`${path}/kid`);
      const err = await errorOf(zk.delete(path));
      expect(err.code).toBe('NOTEMPTY');
      expect(err.errno).toBe(-111);
      expect(await zk.exists(path)).not.toBeNull();
    });

    c('setData with the current version succeeds; with another, BADVERSION and nothing changes; -1 matches any', async (t) => {
      const zk = await t.client();
      const path = t.path();
      await zk.create(path, 'v0');
      expect((await zk.setData(path, 'v1', { version: 0 })).version).toBe(1);
      const err = await errorOf(zk.setData(path, 'bad', { version: 0 }));
      expect(err.code).toBe('BADVERSION');
      expect(err.errno).toBe(-103);
      expect(await codeOf(zk.setData(path, 'bad', { version: 7 }))).toBe('BADVERSION');
      expect(dec((await zk.getData(path)).data)).toBe('v1');
      expect((await zk.setData(path, 'v2', { version: -1 })).version).toBe(2);
    });

    c('delete with a wrong version is BADVERSION; with the current one it deletes', async (t) => {
      const zk = await t.client();
      const path = t.path();
      await zk.create(path);
      await zk.setData(path, 'x');
      expect(await codeOf(zk.delete(path, { version: 0 }))).toBe('BADVERSION');
      expect(await zk.exists(path)).not.toBeNull();
      await zk.delete(path, { version: 1 });
      expect(await zk.exists(path)).toBeNull();
    });

    c('a version check is against the node as another session left it', async (t) => {
      const [a, b] = [await t.client(), await t.client()];
      const path = t.path();
      await a.create(path, 'x');
      const seen = (await a.getData(path)).stat.version;
      await b.setData(path, 'y');
      expect(await codeOf(a.setData(path, 'z', { version: seen }))).toBe('BADVERSION');
      expect(await codeOf(a.delete(path, { version: seen }))).toBe('BADVERSION');
    });

    c('a delete of a missing node with a version is NONODE, not BADVERSION', async (t) => {
      const zk = await t.client();
      expect(await codeOf(zk.delete(t.path(), { version: 3 }))).toBe('NONODE');
    });

    c('the reserved /zookeeper subtree cannot be deleted: BADARGUMENTS', async (t) => {
      const zk = await t.client();
      expect(await codeOf(zk.delete('/zookeeper'))).toBe('BADARGUMENTS');
      expect(await zk.exists('/zookeeper')).not.toBeNull();
    });

    c('bad paths are refused by the client before sending, and the session stays usable', async (t) => {
      const zk = await t.client();
      for (const bad of ['', 'relative', '/trailing/', '/a//b', '/a/./b', '/a/../b', '/nul\u0000']) {
        expect(await codeOf(zk.create(bad)), JSON.stringify(bad)).toBe('BAD_ARGUMENT');
        expect(await codeOf(zk.getData(bad)), JSON.stringify(bad)).toBe('BAD_ARGUMENT');
      }
      expect(zk.state).toBe('connected');
      expect(await zk.exists('/')).not.toBeNull();
    });

    c('an error answers only its own call: pipelined calls around it succeed in order', async (t) => {
      const zk = await t.client();
      const path = t.path();
      const results = await Promise.allSettled([zk.create(path), zk.create(path), zk.setData(path, 'x'), zk.delete(`${path}/none`), zk.getData(path)]);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'rejected', 'fulfilled']);
      const last = results[4];
      expect(last?.status === 'fulfilled' && dec(last.value.data)).toBe('x');
    });
  },
};
