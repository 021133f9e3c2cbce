import { describe, expect, it } from 'vitest';
import { ZooKeeperClient } from '../../src/node.js';
import { serverOf } from '../compat/versioned-server.js';
import { uniquePath } from './helpers.js';

/** The zxid of the transaction that fired a watch: sent by 3.9 (in the notification's header), absent before. */
describe('watch event zxid', () => {
  const zk39 = serverOf('3.9');
  // The 3.8 cases start a 3.8 of their own: the shared server runs whichever release the suite is run on.
  const zk38 = serverOf('3.8');

  it('3.9: one-shot, persistent and recursive events carry the zxid of the change that fired them', async () => {
    await using c = await ZooKeeperClient.connect(await zk39(), { sessionTimeoutMs: 10_000 });
    const path = uniquePath('zxid');
    await c.create(path, 'a');
    await using persistent = await c.addWatch(path);
    await using recursive = await c.addWatch(path, { mode: 'persistent-recursive' });
    const { watch } = await c.getData(path, { watch: true });
    const changed = await c.setData(path, 'b');
    expect(await watch).toMatchObject({ type: 'NodeDataChanged', path, zxid: changed.mzxid });
    expect(await persistent.next()).toMatchObject({ type: 'NodeDataChanged', zxid: changed.mzxid });
    expect(await recursive.next()).toMatchObject({ type: 'NodeDataChanged', zxid: changed.mzxid });

    const child = await c.create(`${path}/c`, null, { stat: true });
    expect(await persistent.next()).toMatchObject({ type: 'NodeChildrenChanged', zxid: child.stat.czxid });
    expect(await recursive.next()).toMatchObject({ type: 'NodeCreated', path: `${path}/c`, zxid: child.stat.czxid });
  });

  it('3.8: events carry no zxid (the server sends none)', async () => {
    await using c = await ZooKeeperClient.connect(await zk38(), { sessionTimeoutMs: 10_000 });
    const path = uniquePath('zxid');
    await c.create(path, 'a');
    await using persistent = await c.addWatch(path);
    const { watch } = await c.getData(path, { watch: true });
    await c.setData(path, 'b');
    const event = await watch;
    expect(event).toMatchObject({ type: 'NodeDataChanged', path });
    expect('zxid' in event).toBe(false);
    expect('zxid' in ((await persistent.next()) ?? {})).toBe(false);
  });
});
