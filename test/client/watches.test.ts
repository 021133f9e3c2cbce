import { describe, expect, it } from 'vitest';
import type { WatchEvent } from '../../src/session/watches.js';
import { codeOf, connectShared, uniquePath } from './helpers.js';

describe('one-shot watches', () => {
  it('fires data, exist and child watches once, with the event before the reply that follows it', async () => {
    await using zk = await connectShared();
    const path = uniquePath();
    const order: string[] = [];
    const absent = await zk.exists(path, { watch: true });
    expect(absent.stat).toBeNull();
    void absent.watch.then((e) => order.push(`event ${e.type}`));
    await zk.create(path).then(() => order.push('create reply'));
    expect(order).toEqual(['event NodeCreated', 'create reply']);

    const data = await zk.getData(path, { watch: true });
    const kids = await zk.getChildren(path, { watch: true });
    const seen: WatchEvent[] = [];
    void data.watch.then((e) => seen.push(e));
    void kids.watch.then((e) => seen.push(e));
    await zk.setData(path, 'x');
    await zk.create(`${path}/k`);
    // toMatchObject: a 3.9 server adds the zxid of the change (watch-event-zxid.test.ts asserts it).
    expect(seen).toMatchObject([
      { type: 'NodeDataChanged', state: 'SyncConnected', path },
      { type: 'NodeChildrenChanged', state: 'SyncConnected', path },
    ]);
    // One-shot: a second change does not fire again (and the watch promises are already settled).
    await zk.setData(path, 'y');
    const existing = await zk.exists(path, { watch: true });
    expect(existing.stat).not.toBeNull();
    await zk.deleteRecursive(path);
    expect(await existing.watch).toMatchObject({ type: 'NodeDeleted', state: 'SyncConnected', path });
  });

  it('gives live watches a final event when the client closes', async () => {
    const zk = await connectShared();
    const { watch } = await zk.exists(uniquePath(), { watch: true });
    await zk.close();
    expect(await watch).toEqual({ type: 'None', state: 'Closed', path: undefined });
  });

  it('removeWatches and checkWatches', async () => {
    await using zk = await connectShared();
    const path = uniquePath();
    await zk.create(path);
    expect(await zk.checkWatches(path, 'data')).toBe(false);
    expect(await codeOf(zk.removeWatches(path, 'data'))).toBe('NOWATCHER');
    const { watch } = await zk.getData(path, { watch: true });
    expect(await zk.checkWatches(path, 'data')).toBe(true);
    expect(await zk.checkWatches(path, 'any')).toBe(true);
    await zk.removeWatches(path, 'data');
    expect(await watch).toEqual({ type: 'DataWatchRemoved', state: 'SyncConnected', path });
    expect(await zk.checkWatches(path, 'data')).toBe(false);
    await zk.delete(path);
  });
});

describe('persistent watches', () => {
  it('a persistent watch sees every change of its node until disposed', async () => {
    await using zk = await connectShared();
    const path = uniquePath();
    await zk.create(path);
    const watch = await zk.addWatch(path);
    await zk.setData(path, '1');
    await zk.setData(path, '2');
    await zk.create(`${path}/k`);
    await zk.delete(`${path}/k`);
    const types: string[] = [];
    for (let i = 0; i < 4; i++) types.push((await watch.next())?.type ?? 'end');
    expect(types).toEqual(['NodeDataChanged', 'NodeDataChanged', 'NodeChildrenChanged', 'NodeChildrenChanged']);
    await watch[Symbol.asyncDispose]();
    expect(watch.closed).toBe(true);
    expect(await zk.checkWatches(path, 'any')).toBe(false);
    await zk.setData(path, '3');
    expect(await watch.next()).toBeUndefined();
    await zk.delete(path);
  });

  it('a recursive watch sees the subtree in server order, never NodeChildrenChanged', async () => {
    await using zk = await connectShared();
    const root = uniquePath();
    await zk.create(root);
    const seen: string[] = [];
    {
      await using watch = await zk.addWatch(root, { mode: 'persistent-recursive' });
      await zk.create(`${root}/a`);
      await zk.create(`${root}/a/b`);
      await zk.setData(`${root}/a/b`, 'x');
      await zk.delete(`${root}/a/b`);
      for await (const e of watch) {
        seen.push(`${e.type} ${e.path?.slice(root.length)}`);
        if (seen.length === 4) break;
      }
    }
    expect(seen).toEqual(['NodeCreated /a', 'NodeCreated /a/b', 'NodeDataChanged /a/b', 'NodeDeleted /a/b']);
    expect(await zk.checkWatches(root, 'any')).toBe(false);
    await zk.deleteRecursive(root);
  });

  it('keeps the server watch while another local watcher needs the path', async () => {
    await using zk = await connectShared();
    const path = uniquePath();
    await zk.create(path);
    const first = await zk.addWatch(path);
    const second = await zk.addWatch(path);
    await first.close();
    await zk.setData(path, 'x');
    expect((await second.next())?.type).toBe('NodeDataChanged');
    expect(first.buffered).toBe(0);
    await second.close();
    await zk.delete(path);
  });

  it('closing the last persistent watch while a one-shot watch on the path is in flight tells that watch it was removed', async () => {
    await using zk = await connectShared();
    const path = uniquePath();
    await zk.create(path);
    const persistent = await zk.addWatch(path);
    // The getData (setting a one-shot watch) and the removal the close sends go out in this order, in one write:
    // the server sets the data watch, then removes every watch on the path with it.
    const read = zk.getData(path, { watch: true });
    const closed = persistent.close();
    const { watch } = await read;
    await closed;
    const event = await Promise.race([watch, new Promise<'pending'>((r) => setTimeout(() => r('pending'), 5_000))]);
    expect(event === 'pending' ? event : event.type).toBe('DataWatchRemoved');
    expect(await zk.checkWatches(path, 'any')).toBe(false);
    await zk.delete(path);
  });

  it('two readers waiting on one persistent watch both settle: one gets the event, both end on close', async () => {
    await using zk = await connectShared();
    const path = uniquePath();
    await zk.create(path);
    const watch = await zk.addWatch(path);
    const first = watch.next();
    const second = watch.next();
    await zk.setData(path, 'x');
    const settled = await Promise.race([
      Promise.any([first, second]),
      new Promise<'pending'>((r) => setTimeout(() => r('pending'), 5_000)),
    ]);
    expect(settled === 'pending' ? settled : settled?.type).toBe('NodeDataChanged');
    await watch.close();
    const both = await Promise.race([
      Promise.all([first, second]),
      new Promise<'pending'>((r) => setTimeout(() => r('pending'), 5_000)),
    ]);
    expect(both === 'pending' ? both : both.map((e) => e?.type ?? 'end').sort()).toEqual(['NodeDataChanged', 'end']);
    await zk.delete(path);
  });
});
