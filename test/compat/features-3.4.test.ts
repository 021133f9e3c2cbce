import { describe, expect, it } from 'vitest';
import { ZooKeeperClient } from '../../src/node.js';
import { errorOf, uniquePath } from '../client/helpers.js';
import { serverOf } from './versioned-server.js';

/** What a 3.4 server lacks: learnt once, said in client.serverFeatures, refused at once with UNIMPLEMENTED. */
describe('server features on ZooKeeper 3.4', () => {
  const zk34 = serverOf('3.4');
  // The 3.8 cases start a 3.8 of their own: the shared server runs whichever release the suite is run on.
  const zk38 = serverOf('3.8');

  it('checkServerFeatures learns it from the server; the session survives the link 3.4 closes', async () => {
    // Without the ensemble tracker: 3.4 answers an op it lacks ahead of requests still in its pipeline (the tracker's
    // read of /zookeeper/config), which the receive path takes as an out-of-order reply (open: see CHANGELOG).
    await using c = await ZooKeeperClient.connect(await zk34(), { sessionTimeoutMs: 10_000, trackEnsemble: false });
    expect(c.serverFeatures.createWithStat).toBeUndefined();
    const session = c.sessionId;
    const features = await c.checkServerFeatures();
    expect(features).toMatchObject({ createWithStat: false, containers: false, ttlNodes: false, persistentWatches: false, whoAmI: false, watchEventZxid: false });
    expect(c.serverFeatures).toEqual(features);
    await c.waitConnected();
    expect(c.sessionId).toBe(session);
  });

  it('ops newer than 3.4 fail at once, unsent, with UNIMPLEMENTED naming the release they need', async () => {
    // Told the version, the client needs to ask nothing and never loses a connection to an op the server lacks.
    await using c = await ZooKeeperClient.connect(await zk34(), { sessionTimeoutMs: 10_000, serverVersion: '3.4.13' });
    expect(c.serverFeatures).toMatchObject({ version: '3.4.13', createWithStat: false, multiRead: false });
    const path = uniquePath('compat34');
    await c.create(path, 'x');
    const states: string[] = [];
    c.onStateChange((s) => states.push(s.to));
    const refusals = [
      [c.create(`${path}/t`, null, { mode: 'ttl', ttl: 1000 }), '3.5.3'],
      [c.create(`${path}/c`, null, { mode: 'container' }), '3.5.0'],
      [c.create(`${path}/s`, null, { stat: true }), '3.5.0'],
      [c.addWatch(path), '3.6.0'],
      [c.multiRead([{ kind: 'getData', path }]), '3.6.0'],
      [c.getAllChildrenNumber(path), '3.6.0'],
      [c.getEphemerals(), '3.6.0'],
      [c.whoAmI(), '3.7.0'],
      [c.removeWatches(path, 'any'), '3.5.0'],
    ] as const;
    for (const [call, needs] of refusals) {
      const err = await errorOf(call);
      expect(err.code).toBe('UNIMPLEMENTED');
      expect(err.message).toContain(`${needs} or later (not sent)`);
    }
    // nothing was sent: the link 3.4 closes after an UNIMPLEMENTED answer stayed up
    expect(states).toEqual([]);
    expect(new TextDecoder().decode((await c.getData(path)).data)).toBe('x');
  });

  it('3.8: the 3.5 and 3.6 features are there, the 3.9 ones not', async () => {
    await using c = await ZooKeeperClient.connect(await zk38(), { sessionTimeoutMs: 10_000 });
    const features = await c.checkServerFeatures();
    expect(features).toMatchObject({ createWithStat: true, containers: true, removeWatches: true });
    await c.addWatch(uniquePath('features')).then((w) => w.close());
    expect(c.serverFeatures).toMatchObject({ version: expect.stringMatching(/^3\.8\./), persistentWatches: true, whoAmI: true, watchEventZxid: false });
  });
});
