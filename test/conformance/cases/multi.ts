/** multi (atomic writes with per-op results), the check op, and multiRead. */

import { expect } from 'vitest';
import { codeOf, dec, errorOf } from '../../client/helpers.js';
import { Op, type OpResult } from '../../../src/node.js';
import type { Topic } from '../suite.js';
import { event } from '../watch-event.js';

const OK = { type: 'error', code: 'OK', errno: 0 };
const LATER = { type: 'error', code: 'RUNTIMEINCONSISTENCY', errno: -2 };

export const multiCases: Topic = {
  title: 'multi and multiRead',
  define(c) {
    c('a multi whose ops all succeed returns one result per op, in order', async (t) => {
      const zk = await t.client();
      const root = t.path();
      await zk.create(root, 'r');
      const results = await zk.multi([
        Op.create(`${root}/a`, 'a'),
        Op.create(`${root}/s-`, null, { mode: 'persistent-sequential' }),
        Op.check(root, 0),
        Op.setData(root, 'r2', 0),
        Op.delete(`${root}/a`),
      ]);
      expect(results.map((r) => r.type)).toEqual(['create', 'create', 'check', 'setData', 'delete']);
      expect(results[0]).toMatchObject({ path: `${root}/a` });
      expect(results[1]).toMatchObject({ path: `${root}/s-0000000001` });
      expect((results[3] as Extract<OpResult, { type: 'setData' }>).stat.version).toBe(1);
      expect(dec((await zk.getData(root)).data)).toBe('r2');
      expect(await zk.getChildren(root)).toEqual(['s-0000000001']);
    });

    c('the ops of a multi see the earlier ops of the same multi', async (t) => {
      const zk = await t.client();
      const root = t.path();
      await zk.multi([Op.create(root), Op.create(`${root}/kid`, 'k'), Op.setData(`${root}/kid`, 'k2', 0), Op.check(`${root}/kid`, 1)]);
      const { data, stat } = await zk.getData(`${root}/kid`);
      expect(dec(data)).toBe('k2');
      expect(stat.version).toBe(1);
    });

    c('every write of a multi carries the same zxid', async (t) => {
      const zk = await t.client();
      const root = t.path();
      await zk.create(root);
      await zk.multi([Op.create(`${root}/a`), Op.create(`${root}/b`), Op.setData(root, 'x')]);
      const [a, b, r] = await Promise.all([zk.exists(`${root}/a`), zk.exists(`${root}/b`), zk.exists(root)]);
      expect(a?.czxid).toBe(b?.czxid);
      expect(r?.mzxid).toBe(a?.czxid);
      expect(r?.pzxid).toBe(a?.czxid);
    });

    c('a failing op fails the whole multi: earlier ops OK, its own code, later ops RUNTIMEINCONSISTENCY; nothing applied', async (t) => {
      const zk = await t.client();
      const root = t.path();
      await zk.create(root);
      const err = await errorOf(zk.multi([Op.create(`${root}/a`), Op.setData(root, 'x'), Op.delete(`${root}/missing`), Op.create(`${root}/b`)]));
      expect(err.code).toBe('NONODE');
      expect(err.op).toBe('multi');
      expect(err.results).toEqual([OK, OK, { type: 'error', code: 'NONODE', errno: -101 }, LATER]);
      expect(await zk.exists(`${root}/a`)).toBeNull();
      expect((await zk.exists(root))?.version).toBe(0);
    });

    c('a multi failing on its first op reports every other op as RUNTIMEINCONSISTENCY', async (t) => {
      const zk = await t.client();
      const root = t.path();
      await zk.create(root);
      const err = await errorOf(zk.multi([Op.create(root), Op.create(`${root}/a`), Op.setData(root, 'x')]));
      expect(err.code).toBe('NODEEXISTS');
      expect(err.results).toEqual([{ type: 'error', code: 'NODEEXISTS', errno: -110 }, LATER, LATER]);
    });

    c('the check op: passes at the version, BADVERSION otherwise, NONODE for a missing node', async (t) => {
      const zk = await t.client();
      const root = t.path();
      await zk.create(root);
      expect(await zk.multi([Op.check(root, 0)])).toEqual([{ type: 'check' }]);
      const bad = await errorOf(zk.multi([Op.check(root, 3), Op.setData(root, 'x')]));
      expect(bad.code).toBe('BADVERSION');
      expect(bad.results).toEqual([{ type: 'error', code: 'BADVERSION', errno: -103 }, LATER]);
      expect(await codeOf(zk.multi([Op.check(`${root}/none`, 0)]))).toBe('NONODE');
      expect((await zk.exists(root))?.version).toBe(0);
    });

    c('a failed multi keeps the sequence counter and the Stat of the parent unchanged', async (t) => {
      const zk = await t.client();
      const root = t.path();
      await zk.create(root);
      const before = await zk.exists(root);
      await errorOf(zk.multi([Op.create(`${root}/s-`, null, { mode: 'persistent-sequential' }), Op.check(root, 9)]));
      expect(await zk.exists(root)).toEqual(before);
      expect(await zk.create(`${root}/s-`, null, { mode: 'persistent-sequential' })).toBe(`${root}/s-0000000000`);
    });

    c('delete and re-create of one path in a multi gives a new node', async (t) => {
      const zk = await t.client();
      const path = t.path();
      const old = (await zk.create(path, 'old', { stat: true })).stat;
      await zk.multi([Op.delete(path), Op.create(path, 'new')]);
      const { data, stat } = await zk.getData(path);
      expect(dec(data)).toBe('new');
      expect(stat.czxid > old.czxid).toBe(true);
    });

    c('an empty multi succeeds with no results', async (t) => {
      const zk = await t.client();
      expect(await zk.multi([])).toEqual([]);
    });

    c('a multi creating an ephemeral under an ephemeral fails with NOCHILDRENFOREPHEMERALS', async (t) => {
      const zk = await t.client();
      const path = t.path();
      const err = await errorOf(zk.multi([Op.create(path, null, { mode: 'ephemeral' }), Op.create(`${path}/kid`)]));
      expect(err.code).toBe('NOCHILDRENFOREPHEMERALS');
      expect(err.results).toEqual([OK, { type: 'error', code: 'NOCHILDRENFOREPHEMERALS', errno: -108 }]);
      expect(await zk.exists(path)).toBeNull();
    });

    c('a successful multi fires the watches of its ops; a failed one fires none', async (t) => {
      const [a, b] = [await t.client(), await t.client()];
      const root = t.path();
      await a.create(root);
      const data = await a.getData(root, { watch: true });
      let dataFired = false;
      void data.watch.then(() => (dataFired = true));
      const created = await a.exists(`${root}/a`, { watch: true });
      await errorOf(b.multi([Op.setData(root, 'x'), Op.create(`${root}/a`), Op.check(root, 0)]));
      await b.multi([Op.create(`${root}/a`), Op.delete(root + '/a'), Op.create(`${root}/a`)]);
      // Events come in server order: had the failed multi's setData fired the data watch, it would have come first.
      expect(await created.watch).toEqual(event('NodeCreated', `${root}/a`));
      expect(dataFired).toBe(false);
      await b.setData(root, 'y');
      expect(await data.watch).toEqual(event('NodeDataChanged', root));
    });

    c('multiRead answers each read on its own, a missing node giving an error result in place', async (t) => {
      const zk = await t.client();
      const root = t.path();
      await zk.create(root, 'data');
      await zk.create(`${root}/kid`);
      const results = await zk.multiRead([Op.getData(`${root}/none`), Op.getData(root), Op.getChildren(root), Op.getChildren(`${root}/none`)]);
      expect(results[0]).toEqual({ type: 'error', code: 'NONODE', errno: -101 });
      expect(results[1]?.type).toBe('getData');
      const got = results[1] as Extract<OpResult, { type: 'getData' }>;
      expect(dec(got.data)).toBe('data');
      expect(got.stat).toEqual(await zk.exists(root));
      expect(results[2]).toEqual({ type: 'getChildren', children: ['kid'] });
      expect(results[3]).toEqual({ type: 'error', code: 'NONODE', errno: -101 });
    });
  },
};
