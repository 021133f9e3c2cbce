import { describe, expect, it } from 'vitest';
import { ZooKeeperClient } from '../../src/node.js';
import { serverOf } from '../compat/versioned-server.js';
import { errorOf, uniquePath } from './helpers.js';

/** Persistent watches removed by their own type (3.9), and what closing a handle does before 3.9. */
describe('removing persistent watches by type', () => {
  const zk39 = serverOf('3.9');
  // The 3.8 cases start a 3.8 of their own: the shared server runs whichever release the suite is run on.
  const zk38 = serverOf('3.8');

  it('3.9: closing a persistent handle removes only its server watch; one-shot and recursive watches stay', async () => {
    await using c = await ZooKeeperClient.connect(await zk39(), { sessionTimeoutMs: 10_000 });
    const path = uniquePath('bytype');
    await c.create(path, 'a');
    const persistent = await c.addWatch(path);
    await using recursive = await c.addWatch(path, { mode: 'persistent-recursive' });
    const { watch } = await c.exists(path, { watch: true });
    await persistent.close();
    expect(await c.checkWatches(path, 'persistent')).toBe(false);
    expect(await c.checkWatches(path, 'persistent-recursive')).toBe(true);
    expect(await c.checkWatches(path, 'data')).toBe(true);
    const changed = await c.setData(path, 'b');
    expect(await watch).toMatchObject({ type: 'NodeDataChanged', path, zxid: changed.mzxid });
    expect(await recursive.next()).toMatchObject({ type: 'NodeDataChanged', path });
    expect(c.serverFeatures.removePersistentWatchesByType).toBe(true);
  });

  it('3.9: removeWatches by persistent type ends that handle and leaves a one-shot watch armed', async () => {
    await using c = await ZooKeeperClient.connect(await zk39(), { sessionTimeoutMs: 10_000 });
    const path = uniquePath('bytype');
    await c.create(path, 'a');
    await using recursive = await c.addWatch(path, { mode: 'persistent-recursive' });
    const { watch } = await c.getData(path, { watch: true });
    await c.removeWatches(path, 'persistent-recursive');
    expect(await recursive.next()).toMatchObject({ type: 'PersistentWatchRemoved', path });
    expect(recursive.closed).toBe(true);
    expect(await recursive.next()).toBeUndefined();
    expect(await errorOf(c.removeWatches(path, 'persistent'))).toMatchObject({ code: 'NOWATCHER' });
    await c.setData(path, 'b');
    expect(await watch).toMatchObject({ type: 'NodeDataChanged', path });
  });

  it('3.8: asking for a persistent type fails UNIMPLEMENTED naming 3.9.0, sent or not', async () => {
    const path = uniquePath('bytype');
    await using fresh = await ZooKeeperClient.connect(await zk38(), { sessionTimeoutMs: 10_000 });
    await fresh.create(path, 'a');
    // version not known yet: the server's answer to the unknown type is read as UNIMPLEMENTED
    const answered = await errorOf(fresh.removeWatches(path, 'persistent'));
    expect(answered).toMatchObject({ code: 'UNIMPLEMENTED' });
    expect(answered.message).toContain('3.9.0');
    await (await fresh.addWatch(path)).close(); // learns the version
    const refused = await errorOf(fresh.checkWatches(path, 'persistent-recursive'));
    expect(refused).toMatchObject({ code: 'UNIMPLEMENTED' });
    expect(fresh.serverFeatures.removePersistentWatchesByType).toBe(false);
  });

  it('3.8: closing a persistent handle never cancels a one-shot watch on the path; alone, it removes the server watch', async () => {
    await using c = await ZooKeeperClient.connect(await zk38(), { sessionTimeoutMs: 10_000 });
    const path = uniquePath('bytype');
    await c.create(path, 'a');
    const shared = await c.addWatch(path);
    const { watch } = await c.exists(path, { watch: true });
    await shared.close();
    // the one-shot watch is still armed (removing with `any` would have cancelled it)
    expect(await c.checkWatches(path, 'data')).toBe(true);
    await c.setData(path, 'b');
    expect(await watch).toMatchObject({ type: 'NodeDataChanged', path });

    const alone = await c.addWatch(path);
    await alone.close();
    expect(await c.checkWatches(path, 'any')).toBe(false);
  });
});
