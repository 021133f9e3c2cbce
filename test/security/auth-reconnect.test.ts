/**
 * Credentials are per TCP connection on the server: after a reconnect the client must send its AuthPackets again,
 * before setWatches and before any queued request, or the resumed session silently loses its identities.
 */

import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { digestAcl, Perms } from '../../src/client/acl.js';
import { ZooKeeperClient } from '../../src/node.js';
import { OpCode } from '../../src/protocol/index.js';
import { describeFrames, type DescribedFrameTrace } from '../../src/session/describe-frames.js';
import { startFaultProxy, type FaultProxy } from '../harness/fault-proxy.js';
import { sharedServer } from '../harness/zookeeper.js';
import { codeOf, connectShared, firstEndpoint, nextChange, reaches, uniquePath } from './helpers.js';

describe('authentication across a reconnect', () => {
  let proxy: FaultProxy | undefined;
  afterEach(async () => {
    await proxy?.close();
    proxy = undefined;
  });

  it('re-sends every credential first on the new connection and stays authorised on the same session', async () => {
    proxy = await startFaultProxy(firstEndpoint((await sharedServer()).connectString));
    const [carolPw, davePw] = [randomUUID(), randomUUID()];
    const frames: DescribedFrameTrace[] = [];
    await using zk = await ZooKeeperClient.connect(proxy.connectString, {
      sessionTimeoutMs: 10_000,
      authInfo: [{ scheme: 'digest', auth: `carol:${carolPw}` }],
      onFrame: describeFrames((t) => frames.push(t)),
    });
    await zk.addAuth('digest', `dave:${davePw}`);
    const path = uniquePath('sec');
    await zk.create(path, 'v0', { acl: [digestAcl('carol', carolPw, Perms.READ), digestAcl('dave', davePw, Perms.ALL)] });
    const { watch } = await zk.getData(path, { watch: true });
    const sessionId = zk.sessionId;

    const down = nextChange(zk, reaches('disconnected'));
    const back = nextChange(zk, reaches('connected'));
    proxy.resetAll();
    await down;
    // Queued while disconnected: they go out behind the re-sent credentials and must find both identities in place.
    const queued = Promise.all([zk.getData(path), zk.setData(path, 'v1')]);
    const change = await back;
    expect(change.event).toBe('RECONNECTED');
    expect(zk.sessionId).toBe(sessionId);
    const [read, write] = await queued;
    expect(new TextDecoder().decode(read.data)).toBe('v0');
    expect(write.version).toBe(1);
    expect(await zk.whoAmI()).toEqual(
      expect.arrayContaining([
        { scheme: 'digest', user: 'carol' },
        { scheme: 'digest', user: 'dave' },
      ]),
    );
    expect((await watch).type).toBe('NodeDataChanged');

    // On the wire: the second connection opens with ConnectRequest, then both AuthPackets, then setWatches.
    const second = frames.filter((f) => f.connection === 2 && f.dir === 'c2s');
    const ops = second.map((f) => f.frame.op ?? f.frame.kind);
    expect(second[0]?.frame.kind).toMatch(/connect/i);
    expect(second.slice(1, 3).map((f) => f.frame.opcode)).toEqual([OpCode.auth, OpCode.auth]);
    expect(second.slice(1, 3).map((f) => f.frame.summary).join(' | '), ops.join(',')).toMatch(/scheme=digest.*\|.*scheme=digest/);
    const firstWatchReset = second.findIndex((f) => f.frame.opcode === OpCode.setWatches || f.frame.opcode === OpCode.setWatches2);
    expect(firstWatchReset, ops.join(',')).toBe(3);
    // Each credential exactly once per connection.
    expect(second.filter((f) => f.frame.opcode === OpCode.auth)).toHaveLength(2);
    await zk.delete(path);
  });

  it('a client that never authenticated is refused after a reconnect as before it', async () => {
    proxy = await startFaultProxy(firstEndpoint((await sharedServer()).connectString));
    const secret = randomUUID();
    await using owner = await connectShared({ authInfo: [{ scheme: 'digest', auth: `erin:${secret}` }] });
    const path = uniquePath('sec');
    await owner.create(path, 'v', { acl: [digestAcl('erin', secret)] });
    await using stranger = await ZooKeeperClient.connect(proxy.connectString, { sessionTimeoutMs: 10_000 });
    expect(await codeOf(stranger.getData(path))).toBe('NOAUTH');
    const back = nextChange(stranger, reaches('connected'));
    proxy.resetAll();
    await back;
    expect(await codeOf(stranger.getData(path))).toBe('NOAUTH');
    expect(await stranger.whoAmI()).not.toContainEqual(expect.objectContaining({ scheme: 'digest' }));
    await owner.delete(path);
  });
});
