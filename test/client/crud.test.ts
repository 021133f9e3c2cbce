import { describe, expect, it } from 'vitest';
import { codeOf, connectShared, dec, enc, errorOf, uniquePath } from './helpers.js';

describe('create / getData / setData / delete', () => {
  it('round-trips data through a node and removes it', async () => {
    await using zk = await connectShared();
    expect(zk.state).toBe('connected');
    expect(zk.sessionIdHex).toMatch(/^0x[0-9a-f]+$/);
    const path = uniquePath();
    expect(await zk.create(path, 'hello')).toBe(path);
    const got = await zk.getData(path);
    expect(dec(got.data)).toBe('hello');
    expect(got.stat.version).toBe(0);
    expect(got.stat.dataLength).toBe(5);
    const stat = await zk.setData(path, enc('world'), { version: 0 });
    expect(stat.version).toBe(1);
    expect(dec((await zk.getData(path)).data)).toBe('world');
    await zk.delete(path, { version: 1 });
    expect(await zk.exists(path)).toBeNull();
  });

  it('reports server errors with their code, errno, op and path', async () => {
    await using zk = await connectShared();
    const path = uniquePath();
    const missing = await errorOf(zk.getData(`${path}/nope`));
    expect(missing.code).toBe('NONODE');
    expect(missing.errno).toBe(-101);
    expect(missing.op).toBe('getData');
    expect(missing.path).toBe(`${path}/nope`);
    await zk.create(path);
    expect(await codeOf(zk.create(path))).toBe('NODEEXISTS');
    expect(await codeOf(zk.setData(path, 'x', { version: 7 }))).toBe('BADVERSION');
    expect(await codeOf(zk.delete(path, { version: 3 }))).toBe('BADVERSION');
    await zk.create(`${path}/child`);
    expect(await codeOf(zk.delete(path))).toBe('NOTEMPTY');
    expect(await codeOf(zk.create(`${path}/a/b`))).toBe('NONODE');
    await zk.deleteRecursive(path);
    expect(await zk.exists(path)).toBeNull();
  });

  it('keeps call order as wire order for pipelined calls', async () => {
    await using zk = await connectShared();
    const path = uniquePath();
    const results = await Promise.all([
      zk.create(path, '0'),
      zk.setData(path, '1'),
      zk.setData(path, '2'),
      zk.getData(path),
      zk.delete(path),
      zk.exists(path),
    ]);
    expect(dec((results[3] as { data: Uint8Array }).data)).toBe('2');
    expect(results[5]).toBeNull();
  });
});
