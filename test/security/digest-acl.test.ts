/**
 * Digest ACLs against a real server: who may do what to a protected node, permission bit by permission bit.
 * (test/client/acl-auth.test.ts covers getACL/setACL basics, INVALIDACL and the single-identity CREATOR_ALL_ACL.)
 */

import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CREATOR_ALL_ACL, digestAcl, OPEN_ACL_UNSAFE, Perms, READ_ACL_UNSAFE, type ACL } from '../../src/client/acl.js';
import type { ZooKeeperClient } from '../../src/node.js';
import { sharedServer } from '../harness/zookeeper.js';
import { zooKeeperVersionOf, type ZooKeeperVersion } from '../harness/zookeeper-versions.js';
import { codeOf, connectShared, uniquePath } from './helpers.js';

const digest = (user: string, password: string) => [{ scheme: 'digest', auth: `${user}:${password}` }];

/** One operation on a protected node `p` (which has a child `kid`) and the permission ZooKeeper checks for it. */
interface ProbeOp {
  name: string;
  needs: (perms: number) => boolean;
  run: (zk: ZooKeeperClient, p: string, acl: readonly ACL[]) => Promise<unknown>;
}

const has = (bit: number) => (perms: number) => (perms & bit) !== 0;

const probes = (version: ZooKeeperVersion): ProbeOp[] => [
  { name: 'getData', needs: has(Perms.READ), run: (zk, p) => zk.getData(p) },
  { name: 'getChildren', needs: has(Perms.READ), run: (zk, p) => zk.getChildren(p) },
  { name: 'getAllChildrenNumber', needs: has(Perms.READ), run: (zk, p) => zk.getAllChildrenNumber(p) },
  { name: 'getACL', needs: (perms) => (perms & (Perms.READ | Perms.ADMIN)) !== 0, run: (zk, p) => zk.getACL(p) },
  { name: 'setData', needs: has(Perms.WRITE), run: (zk, p) => zk.setData(p, 'changed') },
  { name: 'create child', needs: has(Perms.CREATE), run: (zk, p) => zk.create(`${p}/new`) },
  { name: 'delete child', needs: has(Perms.DELETE), run: (zk, p) => zk.delete(`${p}/kid`) },
  { name: 'setACL', needs: has(Perms.ADMIN), run: (zk, p, acl) => zk.setACL(p, acl) },
  // ZooKeeper 3.8 checks nothing for exists: a protected node's existence (and Stat) is public. 3.9 wants READ.
  { name: 'exists', needs: version === '3.8' ? () => true : has(Perms.READ), run: (zk, p) => zk.exists(p) },
];

/** The probes for the shared server's version, which the run chose. */
async function sharedProbes(): Promise<ProbeOp[]> {
  return probes(await zooKeeperVersionOf((await sharedServer()).connectString));
}

/** What each probe gives `zk` on a fresh protected node: 'resolved' or the error code. */
async function probeAll(owner: ZooKeeperClient, zk: ZooKeeperClient, acl: readonly ACL[]): Promise<Record<string, string>> {
  const PROBES = await sharedProbes();
  const path = uniquePath('sec');
  await owner.create(path, 'secret data', { acl });
  await owner.create(`${path}/kid`, null, { acl: OPEN_ACL_UNSAFE });
  const out: Record<string, string> = {};
  for (const probe of PROBES) out[probe.name] = await codeOf(probe.run(zk, path, acl));
  await owner.deleteRecursive(path);
  return out;
}

async function expected(perms: number): Promise<Record<string, string>> {
  return Object.fromEntries((await sharedProbes()).map((p) => [p.name, p.needs(perms) ? 'resolved' : 'NOAUTH']));
}

describe('digest ACLs', () => {
  const ownerPassword = `owner-${randomUUID()}`;
  const ownerAcl = digestAcl('owner', ownerPassword);

  it('a node with a digest ACL refuses clients without the credential, and a wrong password is no credential', async () => {
    await using owner = await connectShared({ authInfo: digest('owner', ownerPassword) });
    const aliceSecret = `alice-${randomUUID()}`;
    const acl = [ownerAcl, digestAcl('alice', aliceSecret)];
    const denied = await expected(0);
    delete denied['exists'];
    const existsForOutsiders = (await expected(0))['exists'];
    const outsiders: Record<string, ZooKeeperClient> = {
      anonymous: await connectShared(),
      'wrong password': await connectShared({ authInfo: digest('alice', 'not-the-password') }),
      'other user, same password': await connectShared({ authInfo: digest('mallory', aliceSecret) }),
    };
    try {
      for (const [who, zk] of Object.entries(outsiders)) {
        const got = await probeAll(owner, zk, acl);
        expect(got['exists'], who).toBe(existsForOutsiders);
        delete got['exists'];
        expect(got, who).toEqual(denied);
      }
    } finally {
      await Promise.all(Object.values(outsiders).map((zk) => zk.close()));
    }
    await using alice = await connectShared({ authInfo: digest('alice', aliceSecret) });
    expect(await probeAll(owner, alice, acl)).toEqual(await expected(Perms.ALL));
  });

  it.each([
    ['READ', Perms.READ],
    ['WRITE', Perms.WRITE],
    ['CREATE', Perms.CREATE],
    ['DELETE', Perms.DELETE],
    ['ADMIN', Perms.ADMIN],
    ['READ|WRITE', Perms.READ | Perms.WRITE],
  ])('a digest identity granted only %s can do exactly what that permission allows', async (_name, perms) => {
    await using owner = await connectShared({ authInfo: digest('owner', ownerPassword) });
    const password = randomUUID();
    await using user = await connectShared({ authInfo: digest('limited', password) });
    const got = await probeAll(owner, user, [ownerAcl, digestAcl('limited', password, perms)]);
    expect(got).toEqual(await expected(perms));
  });

  it('credentials added later with addAuth open the node on the same session', async () => {
    await using owner = await connectShared({ authInfo: digest('owner', ownerPassword) });
    const path = uniquePath('sec');
    const secret = randomUUID();
    await owner.create(path, 'v', { acl: [ownerAcl, digestAcl('late', secret, Perms.READ)] });
    await using zk = await connectShared();
    expect(await codeOf(zk.getData(path))).toBe('NOAUTH');
    await zk.addAuth('digest', `late:${secret}`);
    expect(new TextDecoder().decode((await zk.getData(path)).data)).toBe('v');
    expect(await codeOf(zk.setData(path, 'w'))).toBe('NOAUTH');
    await owner.delete(path);
  });

  it('digestAcl matches the server for non-ASCII credentials and for every SHA-1 padding edge', async () => {
    // "user:password" of 55, 56, 63, 64 and 120 bytes: one or two SHA-1 blocks, length field on either side.
    const lengths = [55, 56, 63, 64, 119, 120];
    const creds = lengths.map((n, i) => ({ user: `u${i}`, password: 'p'.repeat(n - `u${i}:`.length) }));
    creds.push({ user: 'zoë', password: 'pässwörd ✓ 密码 🔑' });
    await using owner = await connectShared();
    await using reader = await connectShared();
    const paths: string[] = [];
    for (const { user, password } of creds) {
      const path = uniquePath('sec');
      paths.push(path);
      await owner.create(path, user, { acl: [digestAcl(user, password, Perms.READ)] });
      await reader.addAuth('digest', `${user}:${password}`);
    }
    for (const [i, path] of paths.entries()) {
      expect(await codeOf(owner.getData(path)), creds[i]?.user).toBe('NOAUTH');
      expect(new TextDecoder().decode((await reader.getData(path)).data)).toBe(creds[i]?.user);
    }
    expect(await reader.whoAmI()).toEqual(expect.arrayContaining(creds.map((c) => ({ scheme: 'digest', user: c.user }))));
    // Deleting needs DELETE on the parent ("/", open), not on the node: the owner can clean up.
    await Promise.all(paths.map((p) => owner.delete(p)));
  });
});

describe('the auth: ACL scheme (CREATOR_ALL_ACL)', () => {
  it('expands to every digest identity of the creator, never to its ip identity', async () => {
    const [p1, p2] = [randomUUID(), randomUUID()];
    await using creator = await connectShared({ authInfo: digest('first', p1) });
    await creator.addAuth('digest', `second:${p2}`);
    expect(await creator.whoAmI()).toContainEqual({ scheme: 'ip', user: '127.0.0.1' });
    const path = uniquePath('sec');
    await creator.create(path, 'x', { acl: CREATOR_ALL_ACL });
    const { acl } = await creator.getACL(path);
    expect(acl).toHaveLength(2);
    expect(acl).toEqual(expect.arrayContaining([digestAcl('first', p1), digestAcl('second', p2)]));

    // Either identity alone now holds every permission; no identity holds none.
    await using onlySecond = await connectShared({ authInfo: digest('second', p2) });
    expect(await codeOf(onlySecond.setData(path, 'y'))).toBe('resolved');
    await using nobody = await connectShared();
    expect(await codeOf(nobody.getData(path))).toBe('NOAUTH');
    await onlySecond.delete(path);
  });

  it('combines with a world entry: CREATOR_ALL_ACL plus READ_ACL_UNSAFE lets anyone read and only the creator write', async () => {
    const secret = randomUUID();
    await using creator = await connectShared({ authInfo: digest('maker', secret) });
    const path = uniquePath('sec');
    await creator.create(path, 'public', { acl: [...CREATOR_ALL_ACL, ...READ_ACL_UNSAFE] });
    expect((await creator.getACL(path)).acl).toEqual(expect.arrayContaining([digestAcl('maker', secret), ...READ_ACL_UNSAFE]));
    await using anyone = await connectShared();
    expect(new TextDecoder().decode((await anyone.getData(path)).data)).toBe('public');
    expect(await codeOf(anyone.setData(path, 'defaced'))).toBe('NOAUTH');
    expect(await codeOf(anyone.setACL(path, OPEN_ACL_UNSAFE))).toBe('NOAUTH');
    await creator.delete(path);
  });
});
