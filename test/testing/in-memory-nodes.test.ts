/**
 * The in-memory ZooKeeper through the real client: nodes, stats, create modes, errors, multi, ACLs and digest auth.
 * The expected values are what a standalone ZooKeeper 3.8 answers (measured against the real server; the
 * conformance suite runs the same client-visible checks on both).
 */

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connect, digestAcl, Op, reconfig, type ZooKeeperClient } from '../../src/index.js';
import { InMemoryZooKeeper } from '../../src/testing/in-memory/server.js';

let server: InMemoryZooKeeper;
let zk: ZooKeeperClient;
beforeEach(async () => {
  server = new InMemoryZooKeeper();
  zk = await connect(server.connectString, { transport: server.transport });
});
afterEach(async () => {
  await zk.close();
  await server.close();
});

const text = (data: Uint8Array | null): string => new TextDecoder().decode(data ?? new Uint8Array());

async function code(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'OK';
  } catch (e) {
    return (e as { code: string }).code;
  }
}

describe('nodes and stats', () => {
  it('computes zxids and versions as ZooKeeper: createSession takes zxid 1, a failed write takes one too', async () => {
    await zk.create('/a', 'x');
    expect(await code(zk.create('/a', 'x'))).toBe('NODEEXISTS');
    await zk.create('/a/b', 'x');
    let a = (await zk.exists('/a'))!;
    expect([a.czxid, a.mzxid, a.pzxid, a.cversion, a.numChildren, a.dataLength]).toEqual([2n, 2n, 4n, 1, 1, 1]);
    await zk.delete('/a/b');
    a = (await zk.exists('/a'))!;
    expect([a.cversion, a.pzxid, a.numChildren]).toEqual([2, 5n, 0]);
    const set = await zk.setData('/a', 'yy');
    expect([set.version, set.mzxid, set.dataLength, set.czxid]).toEqual([1, 6n, 2, 2n]);
    expect(server.lastZxid).toBe(6n);
  });

  it('shows the nodes a fresh standalone server has', async () => {
    expect((await zk.getChildren('/zookeeper')).sort()).toEqual(['config', 'quota']);
    const root = (await zk.exists('/'))!;
    expect([root.cversion, root.numChildren]).toEqual([-1, 1]);
    const config = await zk.getData('/zookeeper/config');
    expect([config.data?.length, config.stat.aversion]).toEqual([0, -1]);
    expect((await zk.getACL('/zookeeper/config')).acl).toEqual([{ perms: 1, id: { scheme: 'world', id: 'anyone' } }]);
    expect(await code(zk.setData('/zookeeper/config', 'x'))).toBe('NOAUTH');
    expect(await code(zk.delete('/zookeeper/quota'))).toBe('BADARGUMENTS');
  });

  it('numbers sequential nodes by the parent\'s child creates (deletes bump cversion, not the number), %010d', async () => {
    await zk.create('/s', null);
    await zk.create('/s/x', null);
    await zk.delete('/s/x');
    // As a real 3.8 server answers the same calls: 0000000001, and cversion 3 after it.
    expect(await zk.create('/s/n-', null, { mode: 'persistent-sequential' })).toBe('/s/n-0000000001');
    expect((await zk.exists('/s'))!.cversion).toBe(3);
    expect(await zk.create('/s/n-', null, { mode: 'ephemeral-sequential' })).toBe('/s/n-0000000002');
  });

  it('ephemeral nodes: owner, no children, listed by getEphemerals, gone when the session closes', async () => {
    await zk.create('/e', 'x', { mode: 'ephemeral' });
    expect((await zk.exists('/e'))!.ephemeralOwner).toBe(zk.sessionId);
    expect(await code(zk.create('/e/c', 'x'))).toBe('NOCHILDRENFOREPHEMERALS');
    expect(await zk.getEphemerals('/')).toEqual(['/e']);
    const other = await connect(server.connectString, { transport: server.transport });
    const gone = (await other.exists('/e', { watch: true })).watch;
    await zk.close();
    expect((await gone).type).toBe('NodeDeleted');
    expect(await other.exists('/e')).toBeNull();
    await other.close();
  });

  it('answers the error codes of each op', async () => {
    await zk.create('/p', 'x');
    await zk.create('/p/c', 'x');
    expect(await code(zk.create('/missing/c', 'x'))).toBe('NONODE');
    expect(await code(zk.delete('/p'))).toBe('NOTEMPTY');
    expect(await code(zk.delete('/p/c', { version: 3 }))).toBe('BADVERSION');
    expect(await code(zk.setData('/p/c', 'x', { version: 3 }))).toBe('BADVERSION');
    expect(await code(zk.getData('/nope'))).toBe('NONODE');
    expect(await code(zk.getChildren('/nope'))).toBe('NONODE');
    expect(await zk.exists('/nope')).toBeNull();
    expect(await zk.getAllChildrenNumber('/')).toBe(5); // /p, /p/c and the three /zookeeper nodes
    expect(await code(zk.delete('/'))).toBe('BADARGUMENTS');
    expect(await code(reconfig(zk, { joining: ['server.5=127.0.0.1:1:2;127.0.0.1:3'] }))).toBe('RECONFIGDISABLED');
    await zk.sync('/nope');
  });
});

describe('multi', () => {
  it('takes one zxid for all its ops', async () => {
    const results = await zk.multi([Op.create('/m1', 'a'), Op.create('/m2', 'b'), Op.setData('/m1', 'c'), Op.check('/m2', 0)]);
    expect(results.map((r) => r.type)).toEqual(['create', 'create', 'setData', 'check']);
    const [m1, m2] = [(await zk.exists('/m1'))!, (await zk.exists('/m2'))!];
    expect([m1.czxid, m2.czxid, m1.mzxid, m1.version]).toEqual([2n, 2n, 2n, 1]);
  });

  it('on failure rolls back and reports OK before the failed op, its error, RUNTIMEINCONSISTENCY after', async () => {
    await zk.create('/m1', 'a');
    const failure = await zk.multi([Op.create('/m3', 'a'), Op.create('/m1', 'b'), Op.create('/m4', 'b')]).catch((e: unknown) => e);
    expect((failure as { code: string }).code).toBe('NODEEXISTS');
    const results = (failure as { results: { code: string }[] }).results;
    expect(results.map((r) => r.code)).toEqual(['OK', 'NODEEXISTS', 'RUNTIMEINCONSISTENCY']);
    expect(await zk.exists('/m3')).toBeNull();
    expect((await zk.exists('/'))!.cversion).toBe(0);
    expect(server.lastZxid).toBe(3n);
  });

  it('multiRead answers each read on its own', async () => {
    await zk.create('/r', 'x');
    const results = await zk.multiRead([Op.getData('/r'), Op.getData('/nope'), Op.getChildren('/r')]);
    expect(results.map((r) => r.type)).toEqual(['getData', 'error', 'getChildren']);
  });
});

describe('container and TTL nodes', () => {
  // advance() moves the server's time with no word from the client: keep each step below the session timeout.
  beforeEach(async () => {
    await zk.close();
    await server.close();
    server = new InMemoryZooKeeper({ containerCheckIntervalMs: 1000 });
    zk = await connect(server.connectString, { transport: server.transport });
  });

  it('reaps a container once it had children and is empty, and a TTL node after its TTL, at the check interval', async () => {
    await zk.create('/c', null, { mode: 'container' });
    await zk.create('/never', null, { mode: 'container' });
    await zk.create('/c/x', null);
    await zk.create('/t', null, { mode: 'ttl', ttl: 500 });
    expect((await zk.exists('/t'))!.ephemeralOwner).toBe(0n);
    await zk.delete('/c/x');
    const gone = (await zk.exists('/c', { watch: true })).watch;
    server.advance(1000); // one check interval: the container goes, the TTL passed too
    expect((await gone).type).toBe('NodeDeleted');
    expect(await zk.exists('/t')).toBeNull();
    expect(await zk.exists('/never')).not.toBeNull();
  });

  it('keeps a TTL node touched within its TTL', async () => {
    await zk.create('/t', null, { mode: 'ttl', ttl: 1500 });
    server.advance(1000);
    await zk.setData('/t', 'x');
    server.advance(1000);
    expect(server.reapNow()).toEqual([]);
    expect(await zk.exists('/t')).not.toBeNull();
  });
});

describe('ACLs and digest auth', () => {
  it('checks digest ACLs, expands auth, refuses invalid ones, and reports identities in whoAmI', async () => {
    expect(await zk.whoAmI()).toEqual([{ scheme: 'ip', user: '127.0.0.1' }]);
    expect(await code(zk.create('/x', 'a', { acl: [{ perms: 31, id: { scheme: 'auth', id: '' } }] }))).toBe('INVALIDACL');
    expect(await code(zk.create('/x', 'a', { acl: [{ perms: 31, id: { scheme: 'world', id: 'x' } }] }))).toBe('INVALIDACL');
    expect(await code(zk.create('/x', 'a', { acl: [{ perms: 31, id: { scheme: 'digest', id: 'nocolon' } }] }))).toBe('INVALIDACL');
    expect(await zk.create('/ip', 'a', { acl: [{ perms: 31, id: { scheme: 'ip', id: '127.0.0.0/8' } }] })).toBe('/ip');
    await zk.create('/sec', 'a', { acl: [digestAcl('u', 'p')] });
    expect(await code(zk.getData('/sec'))).toBe('NOAUTH');
    expect(await code(zk.getACL('/sec'))).toBe('NOAUTH');
    // The default reproduces 3.9, which checks READ for exists too (3.8 answers it: test/conformance holds both).
    expect(await code(zk.exists('/sec'))).toBe('NOAUTH');
    await zk.addAuth('digest', 'u:p');
    expect(await zk.whoAmI()).toEqual([
      { scheme: 'ip', user: '127.0.0.1' },
      { scheme: 'digest', user: 'u' },
    ]);
    expect(text((await zk.getData('/sec')).data)).toBe('a');
    await zk.create('/mine', 'a', { acl: [{ perms: 31, id: { scheme: 'auth', id: '' } }] });
    expect((await zk.getACL('/mine')).acl).toEqual([digestAcl('u', 'p')]);
    const stat = await zk.setACL('/mine', [{ perms: 1, id: { scheme: 'world', id: 'anyone' } }]);
    expect(stat.aversion).toBe(1);
    expect(await code(zk.setData('/mine', 'b'))).toBe('NOAUTH');
  });

  it('passes every check for the super user', async () => {
    await using s = new InMemoryZooKeeper({ superPassword: 'secret' });
    await using a = await connect(s.connectString, { transport: s.transport });
    await a.create('/locked', 'x', { acl: [{ perms: 0, id: { scheme: 'world', id: 'anyone' } }] });
    expect(await code(a.getData('/locked'))).toBe('NOAUTH');
    await a.addAuth('digest', 'super:secret');
    expect(text((await a.getData('/locked')).data)).toBe('x');
  });

  it('fails authentication with an unknown scheme and closes the connection', async () => {
    expect(await code(zk.addAuth('foo', 'bar'))).toBe('AUTHFAILED');
    expect(await code(zk.exists('/'))).toBe('AUTHFAILED');
  });
});

describe('the version option', () => {
  it('reproduces 3.9 by default and 3.8 when asked; anything else is a RangeError', async () => {
    expect(server.version).toBe('3.9');
    await using old = new InMemoryZooKeeper({ version: '3.8' });
    expect(old.version).toBe('3.8');
    await using client = await connect(old.connectString, { transport: old.transport });
    await client.create('/sec', 'a', { acl: [digestAcl('u', 'p')] });
    expect((await client.exists('/sec'))?.dataLength).toBe(1);
    expect(() => new InMemoryZooKeeper({ version: '3.7' as never })).toThrow(RangeError);
  });
});
