/**
 * Ops newer than 3.5 are refused with UNIMPLEMENTED before sending to a server too old for them (which would close
 * the connection on them). On a real 3.8 server they all go through. Older servers are played by a front that
 * answers `srvr`/`envi` with an older version and pipes the session to the same real 3.8 server: so these tests prove
 * the client's refusal and the connection's survival, not an old server's behaviour.
 */

import { afterEach, describe, expect, it } from 'vitest';
import { ZooKeeperClient } from '../../src/node.js';
import { describeFrames, type DescribedFrameTrace } from '../../src/session/describe-frames.js';
import { fourLetterWord, parseServerVersion } from '../../src/testing/local-server/four-letter-client.js';
import { startVersionFront, type VersionFront } from '../harness/version-front.js';
import { sharedServer } from '../harness/zookeeper.js';
import { codeOf, uniquePath } from '../client/helpers.js';

const fronts: VersionFront[] = [];

afterEach(async () => {
  await Promise.all(fronts.splice(0).map((f) => f.close()));
});

async function upstream(): Promise<{ host: string; port: number }> {
  const [host = '', port = ''] = (await sharedServer()).connectString.split(',')[0]?.split(':') ?? [];
  return { host, port: Number(port) };
}

async function viaFront(answers: Record<string, string>): Promise<{ zk: ZooKeeperClient; front: VersionFront; sent: DescribedFrameTrace[] }> {
  const front = await startVersionFront(await upstream(), answers);
  fronts.push(front);
  const sent: DescribedFrameTrace[] = [];
  const zk = await ZooKeeperClient.connect(front.connectString, { sessionTimeoutMs: 10_000, onFrame: describeFrames((f) => f.dir === 'c2s' && sent.push(f)) });
  return { zk, front, sent };
}

const srvr = (version: string): string => `Zookeeper version: ${version}-deadbeef, built on 01/01/2020 00:00 GMT\nMode: standalone\n`;
const NEWER_OPS = ['addWatch', 'getEphemerals', 'getAllChildrenNumber', 'multiRead', 'whoAmI'];

function callEach(zk: ZooKeeperClient, path: string): Record<string, Promise<unknown>> {
  return {
    addWatch: zk.addWatch(path).then((w) => w.close()),
    getEphemerals: zk.getEphemerals(),
    getAllChildrenNumber: zk.getAllChildrenNumber(path),
    multiRead: zk.multiRead([{ kind: 'getData', path }]),
    whoAmI: zk.whoAmI(),
  };
}

async function codes(calls: Record<string, Promise<unknown>>): Promise<Record<string, string>> {
  const entries = Object.entries(calls);
  const got = await Promise.all(entries.map(([, p]) => codeOf(p)));
  return Object.fromEntries(entries.map(([op], i) => [op, got[i] ?? '']));
}

describe('server version gating', () => {
  it('a real server: its version is learnt and every newer op goes through', async () => {
    const { host, port } = await upstream();
    const expected = parseServerVersion(await fourLetterWord(host, port, 'srvr'));
    await using zk = await ZooKeeperClient.connect(`${host}:${port}`, { sessionTimeoutMs: 10_000 });
    expect(zk.serverVersion).toBeUndefined();
    const path = uniquePath();
    await zk.create(path);
    expect(await codes(callEach(zk, path))).toEqual(Object.fromEntries(NEWER_OPS.map((op) => [op, 'resolved'])));
    expect(zk.serverVersion).toBe(expected);
    await zk.delete(path);
  });

  it('a 3.5 server: the newer ops fail UNIMPLEMENTED unsent, and the connection carries on', async () => {
    const { zk, front, sent } = await viaFront({ srvr: srvr('3.5.9') });
    await using _ = zk;
    const path = uniquePath();
    await zk.create(path);
    const changes: string[] = [];
    zk.onStateChange((c) => changes.push(c.to));
    expect(await codes(callEach(zk, path))).toEqual(Object.fromEntries(NEWER_OPS.map((op) => [op, 'UNIMPLEMENTED'])));
    expect(sent.filter((f) => NEWER_OPS.includes(f.frame.op ?? ''))).toEqual([]);
    expect(zk.serverVersion).toBe('3.5.9');
    expect(front.asked).toEqual(['srvr']);
    // Same connection, still serving.
    expect((await zk.getData(path)).stat.version).toBe(0);
    expect(changes).toEqual([]);
    expect(new Set(sent.map((f) => f.connection))).toEqual(new Set([1]));
    await zk.delete(path);
  });

  it('a 3.6 server allows addWatch but not whoAmI (3.7)', async () => {
    const { zk } = await viaFront({ srvr: srvr('3.6.4') });
    await using _ = zk;
    const path = uniquePath();
    await zk.create(path);
    const got = await codes(callEach(zk, path));
    expect(got).toEqual({ ...Object.fromEntries(NEWER_OPS.map((op) => [op, 'resolved'])), whoAmI: 'UNIMPLEMENTED' });
    await zk.delete(path);
  });

  it('srvr not whitelisted: envi tells the version', async () => {
    const { zk, front } = await viaFront({ envi: 'Environment:\nzookeeper.version=3.5.10-abc, built on 2022\nhost.name=x\n' });
    await using _ = zk;
    expect(await codeOf(zk.whoAmI())).toBe('UNIMPLEMENTED');
    expect(zk.serverVersion).toBe('3.5.10');
    expect(front.asked).toEqual(['srvr', 'envi']);
  });

  it('neither word allowed: the version stays unknown and ops are sent as they come', async () => {
    const { zk, front } = await viaFront({});
    await using _ = zk;
    expect(await codeOf(zk.whoAmI())).toBe('resolved');
    expect(zk.serverVersion).toBeUndefined();
    expect(front.asked).toEqual(['srvr', 'envi']);
  });
});
