import { describe, expect, it } from 'vitest';
import { Op } from '../../src/client/multi.js';
import { codeOf, connectShared, uniquePath } from './helpers.js';

describe('chroot', () => {
  it('maps paths both ways: requests, create results, multi results, events, ephemerals', async () => {
    const root = uniquePath('chroot');
    await using plain = await connectShared();
    await plain.create(root);
    await using zk = await connectShared({}, root);
    expect(await zk.create('/a', 'x')).toBe('/a');
    expect(await plain.exists(`${root}/a`)).not.toBeNull();
    expect((await zk.create('/seq-', null, { mode: 'ephemeral-sequential', stat: true })).path).toBe('/seq-0000000001');
    expect(await zk.getEphemerals()).toEqual(['/seq-0000000001']);
    const results = await zk.multi([Op.create('/m'), Op.delete('/m')]);
    expect(results[0]).toMatchObject({ type: 'create', path: '/m' });
    expect((await zk.getChildren('/')).sort()).toEqual(['a', 'seq-0000000001']);
    const { watch } = await zk.getData('/a', { watch: true });
    await plain.setData(`${root}/a`, 'y');
    expect(await watch).toMatchObject({ type: 'NodeDataChanged', state: 'SyncConnected', path: '/a' });
    const rootWatch = await zk.exists('/', { watch: true });
    await plain.setData(root, 'z');
    expect((await rootWatch.watch).path).toBe('/');
    await using recursive = await zk.addWatch('/', { mode: 'persistent-recursive' });
    await plain.create(`${root}/a/deep`);
    expect(await recursive.next()).toMatchObject({ type: 'NodeCreated', state: 'SyncConnected', path: '/a/deep' });
    await zk.close();
    await plain.deleteRecursive(root);
  });

  it('answers exists of a missing node with null, with and without a watch (not NONODE)', async () => {
    const root = uniquePath('chroot');
    await using plain = await connectShared();
    await plain.create(root);
    await using zk = await connectShared({}, root);
    expect(await zk.exists('/missing')).toBeNull();
    const { stat, watch } = await zk.exists('/missing', { watch: true });
    expect(stat).toBeNull();
    await plain.create(`${root}/missing`);
    expect(await watch).toMatchObject({ type: 'NodeCreated', state: 'SyncConnected', path: '/missing' });
    expect(await codeOf(zk.getData('/none'))).toBe('NONODE');
    await plain.deleteRecursive(root);
  });

  it('refuses a bad chroot', async () => {
    expect(await codeOf(connectShared({}, '/a//b'))).toBe('BAD_ARGUMENT');
  });
});
