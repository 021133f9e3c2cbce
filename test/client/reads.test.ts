import { describe, expect, it } from 'vitest';
import { codeOf, connectShared, dec, uniquePath } from './helpers.js';

describe('children, counts, ephemerals, sync, config, whoAmI', () => {
  it('lists children with and without Stat and counts all descendants', async () => {
    await using zk = await connectShared();
    const root = uniquePath();
    await zk.mkdirp(`${root}/a/x/y`);
    await zk.create(`${root}/b`);
    expect((await zk.getChildren(root)).sort()).toEqual(['a', 'b']);
    const withStat = await zk.getChildrenWithStat(root);
    expect(withStat.children.sort()).toEqual(['a', 'b']);
    expect(withStat.stat.numChildren).toBe(2);
    expect(await zk.getAllChildrenNumber(root)).toBe(4);
    expect(await zk.getChildren(`${root}/a/x/y`)).toEqual([]);
    expect(await codeOf(zk.getChildren(`${root}/none`))).toBe('NONODE');
    expect(await codeOf(zk.getAllChildrenNumber(`${root}/none`))).toBe('NONODE');
    await zk.deleteRecursive(root);
    expect(await zk.exists(root)).toBeNull();
  });

  it('mkdirp creates containers or persistent parents and tolerates existing ones', async () => {
    await using zk = await connectShared();
    const root = uniquePath();
    await zk.mkdirp(`${root}/p/q`, { containers: true, data: 'leaf' });
    await zk.mkdirp(`${root}/p/q`);
    expect(dec((await zk.getData(`${root}/p/q`)).data)).toBe('leaf');
    await zk.deleteRecursive(root);
  });

  it('getEphemerals filters by prefix', async () => {
    await using zk = await connectShared();
    const root = uniquePath();
    await zk.create(root);
    await zk.create(`${root}/e1`, null, { mode: 'ephemeral' });
    await zk.create(`${root}/e2`, null, { mode: 'ephemeral' });
    expect((await zk.getEphemerals(`${root}/`)).sort()).toEqual([`${root}/e1`, `${root}/e2`]);
    expect(await zk.getEphemerals(`${root}/e2`)).toEqual([`${root}/e2`]);
    expect(await codeOf(zk.getEphemerals('nope'))).toBe('BAD_ARGUMENT');
    await zk.deleteRecursive(root);
  });

  it('sync, getConfig and whoAmI answer', async () => {
    await using zk = await connectShared();
    await zk.sync('/');
    const config = await zk.getConfig();
    expect(config.stat).toBeDefined();
    const ids = await zk.whoAmI();
    expect(ids).toContainEqual({ scheme: 'ip', user: '127.0.0.1' });
  });
});
