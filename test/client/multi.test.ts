import { describe, expect, it } from 'vitest';
import { Op } from '../../src/client/multi.js';
import { codeOf, connectShared, dec, errorOf, uniquePath } from './helpers.js';

describe('multi and multiRead', () => {
  it('applies write ops atomically with per-op results', async () => {
    await using zk = await connectShared();
    const root = uniquePath();
    await zk.create(root, 'r');
    const results = await zk.multi([
      Op.create(`${root}/a`, 'a'),
      Op.create(`${root}/s-`, null, { mode: 'persistent-sequential' }),
      Op.create(`${root}/c`, undefined, { mode: 'container' }),
      Op.check(root, 0),
      Op.setData(root, 'r2', 0),
      Op.delete(`${root}/a`),
    ]);
    expect(results.map((r) => r.type)).toEqual(['create', 'create', 'create', 'check', 'setData', 'delete']);
    expect(results[0]).toMatchObject({ type: 'create', path: `${root}/a` });
    expect(results[1]).toMatchObject({ type: 'create', path: `${root}/s-0000000001` });
    expect(results[2]).toMatchObject({ type: 'create', path: `${root}/c` });
    expect((results[4] as { stat: { version: number } }).stat.version).toBe(1);
    expect(dec((await zk.getData(root)).data)).toBe('r2');
    expect(await zk.multi([])).toEqual([]);
    await zk.deleteRecursive(root);
  });

  it('rejects a failed multi with the failing code and every result, applying nothing', async () => {
    await using zk = await connectShared();
    const root = uniquePath();
    await zk.create(root);
    const err = await errorOf(zk.multi([Op.create(`${root}/b`), Op.check(root, 7), Op.setData(root, 'x')]));
    expect(err.code).toBe('BADVERSION');
    expect(err.op).toBe('multi');
    expect(err.path).toBe(root);
    expect(err.results).toEqual([
      { type: 'error', code: 'OK', errno: 0 },
      { type: 'error', code: 'BADVERSION', errno: -103 },
      { type: 'error', code: 'RUNTIMEINCONSISTENCY', errno: -2 },
    ]);
    // built from the reply, as every server error: its stack is its message (frames would be the receive path)
    expect(err.stack).toBe(`ZooKeeperError: ${err.message}`);
    expect(await zk.exists(`${root}/b`)).toBeNull();
    expect(await codeOf(zk.multi([Op.create('bad')]))).toBe('BAD_ARGUMENT');
    await zk.delete(root);
  });

  it('multiRead answers each op on its own', async () => {
    await using zk = await connectShared();
    const root = uniquePath();
    await zk.create(root, 'data');
    await zk.create(`${root}/kid`);
    const results = await zk.multiRead([Op.getData(root), Op.getChildren(root), Op.getData(`${root}/none`)]);
    expect(results[0]?.type).toBe('getData');
    expect(dec((results[0] as { data: Uint8Array }).data)).toBe('data');
    expect(results[1]).toEqual({ type: 'getChildren', children: ['kid'] });
    expect(results[2]).toEqual({ type: 'error', code: 'NONODE', errno: -101 });
    await zk.deleteRecursive(root);
  });
});
