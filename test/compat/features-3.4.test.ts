import { describe, expect, it } from 'vitest';
import { ZooKeeperClient } from '../../src/node.js';
import { errorOf, uniquePath } from '../client/helpers.js';
import type { ZooKeeperError } from '../../src/errors.js';
import { serverOf } from './versioned-server.js';

/** What a 3.4 server lacks: learnt once, said in client.serverFeatures, refused at once with UNIMPLEMENTED. */
describe('server features on ZooKeeper 3.4', () => {
  const zk34 = serverOf('3.4');
  // The 3.8 cases start a 3.8 of their own: the shared server runs whichever release the suite is run on.
  const zk38 = serverOf('3.8');

  it('checkServerFeatures learns it from the server; the session survives the link 3.4 closes', async () => {
    // With the ensemble tracker (the default): its read of /zookeeper/config may still be in 3.4's pipeline when the
    // checkWatches is refused ahead of it (the next test).
    await using c = await ZooKeeperClient.connect(await zk34(), { sessionTimeoutMs: 10_000 });
    expect(c.serverFeatures.createWithStat).toBeUndefined();
    const session = c.sessionId;
    const features = await c.checkServerFeatures();
    expect(features).toMatchObject({ createWithStat: false, containers: false, ttlNodes: false, persistentWatches: false, whoAmI: false, watchEventZxid: false });
    expect(c.serverFeatures).toEqual(features);
    await c.waitConnected();
    expect(c.sessionId).toBe(session);
  });

  it('an UNIMPLEMENTED that overtakes replies still in the pipeline answers its own call, not a broken stream', async () => {
    // 3.4 refuses an op it does not know before its pipeline, so the refusal comes ahead of the replies to the reads
    // sent before it; it then closes the link, so those reads may be lost (CONNECTIONLOSS), but never as a
    // PROTOCOL_ERROR, and the create2 always fails with the server's UNIMPLEMENTED, which teaches the client.
    await using c = await ZooKeeperClient.connect(await zk34(), { sessionTimeoutMs: 10_000 });
    const reasons: string[] = [];
    c.onStateChange((s) => reasons.push(String((s.reason as ZooKeeperError | undefined)?.code)));
    const path = uniquePath('overtaken34');
    await c.create(path, 'x');
    const session = c.sessionId;
    // The server closes this link after its refusal; the read at the end must go on the next one, not race the close.
    const dropped = new Promise<void>((resolve) => c.onStateChange((s) => s.to !== 'connected' && resolve()));
    const reads = Array.from({ length: 10 }, () => c.getData(path));
    const created = errorOf(c.create(`${path}/s`, 'y', { stat: true }));
    const err = await created;
    expect(err.code).toBe('UNIMPLEMENTED');
    expect(err.message).not.toContain('not sent');
    for (const read of await Promise.allSettled(reads)) {
      if (read.status === 'fulfilled') expect(new TextDecoder().decode(read.value.data)).toBe('x');
      else {
        expect(read.reason).toMatchObject({ code: 'CONNECTIONLOSS' });
        expect(((read.reason as ZooKeeperError).cause as ZooKeeperError | undefined)?.code).not.toBe('PROTOCOL_ERROR');
      }
    }
    expect(c.serverFeatures.createWithStat).toBe(false);
    await dropped;
    await c.waitConnected();
    expect(c.sessionId).toBe(session);
    expect(reasons).not.toContain('PROTOCOL_ERROR');
    expect(new TextDecoder().decode((await c.getData(path)).data)).toBe('x');
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
