/**
 * ACLs: each permission bit guarding its ops (NOAUTH), the world, auth, digest and ip schemes, addAuth and whoAmI,
 * getACL/setACL with the aversion, and INVALIDACL.
 */

import { expect } from 'vitest';
import { codeOf, dec } from '../../client/helpers.js';
import { CREATOR_ALL_ACL, digestAcl, OPEN_ACL_UNSAFE, Op, Perms, READ_ACL_UNSAFE, type ACL, type ZooKeeperClient } from '../../../src/node.js';
import type { CaseContext } from '../run.js';
import type { Topic } from '../suite.js';

const anyone = (perms: number): ACL[] => [{ perms, id: { scheme: 'world', id: 'anyone' } }];

/** A node (with one child `kid`) whose ACL allows everything but `missing`, made by a fresh client. */
async function nodeWithout(t: CaseContext, missing: number): Promise<{ zk: ZooKeeperClient; path: string }> {
  const zk = await t.client();
  const path = t.path();
  await zk.create(path, 'data');
  await zk.create(`${path}/kid`);
  await zk.setACL(path, anyone(Perms.ALL & ~missing));
  return { zk, path };
}

export const aclCases: Topic = {
  title: 'ACLs and authentication',
  define(c) {
    c('a node gets the open ACL by default, at aversion 0', async (t) => {
      const zk = await t.client();
      const path = t.path();
      await zk.create(path);
      const { acl, stat } = await zk.getACL(path);
      expect(acl).toEqual([...OPEN_ACL_UNSAFE]);
      expect(stat.aversion).toBe(0);
      expect(stat).toEqual(await zk.exists(path));
    });

    c('setACL bumps aversion (not version), checks the expected aversion, -1 matching any', async (t) => {
      const zk = await t.client();
      const path = t.path();
      await zk.create(path);
      const readAdmin = anyone(Perms.READ | Perms.ADMIN);
      const stat = await zk.setACL(path, readAdmin, { version: 0 });
      expect(stat).toMatchObject({ aversion: 1, version: 0, cversion: 0 });
      expect((await zk.getACL(path)).acl).toEqual(readAdmin);
      expect(await codeOf(zk.setACL(path, OPEN_ACL_UNSAFE, { version: 0 }))).toBe('BADVERSION');
      expect((await zk.setACL(path, OPEN_ACL_UNSAFE, { version: -1 })).aversion).toBe(2);
      expect(await codeOf(zk.setACL(path, OPEN_ACL_UNSAFE, { version: 1 }))).toBe('BADVERSION');
    });

    c('without READ: getData and getChildren are NOAUTH; exists answers on 3.8, is NOAUTH on 3.9', async (t) => {
      const { zk, path } = await nodeWithout(t, Perms.READ);
      expect(await codeOf(zk.getData(path))).toBe('NOAUTH');
      expect(await codeOf(zk.getChildren(path))).toBe('NOAUTH');
      expect(await codeOf(zk.getChildrenWithStat(path))).toBe('NOAUTH');
      if (t.byVersion({ '3.8': true, '3.9': false })) expect((await zk.exists(path))?.numChildren).toBe(1);
      else expect(await codeOf(zk.exists(path))).toBe('NOAUTH');
      // A missing node has no ACL to check: exists answers null on both.
      expect(await zk.exists(`${path}/missing`)).toBeNull();
    });

    c('without WRITE: setData is NOAUTH and the data stays', async (t) => {
      const { zk, path } = await nodeWithout(t, Perms.WRITE);
      expect(await codeOf(zk.setData(path, 'x'))).toBe('NOAUTH');
      expect(dec((await zk.getData(path)).data)).toBe('data');
    });

    c('without CREATE: creating a child is NOAUTH', async (t) => {
      const { zk, path } = await nodeWithout(t, Perms.CREATE);
      expect(await codeOf(zk.create(`${path}/new`))).toBe('NOAUTH');
      expect(await codeOf(zk.create(`${path}/seq-`, null, { mode: 'ephemeral-sequential' }))).toBe('NOAUTH');
      expect(await zk.getChildren(path)).toEqual(['kid']);
    });

    c("without DELETE: deleting a child is NOAUTH, while the node itself may be deleted under its parent's ACL", async (t) => {
      const { zk, path } = await nodeWithout(t, Perms.DELETE);
      expect(await codeOf(zk.delete(`${path}/kid`))).toBe('NOAUTH');
      const leaf = t.path();
      await zk.create(leaf, null, { acl: anyone(Perms.READ) });
      await zk.delete(leaf);
      expect(await zk.exists(leaf)).toBeNull();
    });

    c('without ADMIN: setACL is NOAUTH', async (t) => {
      const { zk, path } = await nodeWithout(t, Perms.ADMIN);
      expect(await codeOf(zk.setACL(path, OPEN_ACL_UNSAFE))).toBe('NOAUTH');
    });

    c('getACL needs READ or ADMIN', async (t) => {
      const zk = await t.client();
      const path = t.path();
      await zk.create(path, null, { acl: anyone(Perms.WRITE) });
      expect(await codeOf(zk.getACL(path))).toBe('NOAUTH');
      await zk.create(`${path}-r`, null, { acl: anyone(Perms.READ) });
      expect((await zk.getACL(`${path}-r`)).acl).toEqual(anyone(Perms.READ));
      await zk.create(`${path}-a`, null, { acl: anyone(Perms.ADMIN) });
      expect((await zk.getACL(`${path}-a`)).acl).toEqual(anyone(Perms.ADMIN));
    });

    c('a multi with an op it may not do fails as a whole with NOAUTH', async (t) => {
      const { zk, path } = await nodeWithout(t, Perms.WRITE);
      const other = t.path();
      expect(await codeOf(zk.multi([Op.create(other), Op.setData(path, 'x')]))).toBe('NOAUTH');
      expect(await zk.exists(other)).toBeNull();
    });

    c('digest auth: addAuth, whoAmI, a digest ACL readable with the credentials and NOAUTH without', async (t) => {
      const [alice, bob] = [await t.client(), await t.client()];
      await alice.addAuth('digest', 'alice:secret');
      expect(await alice.whoAmI()).toContainEqual({ scheme: 'digest', user: 'alice' });
      const path = t.path();
      await alice.create(path, 'mine', { acl: [digestAcl('alice', 'secret')] });
      expect(dec((await alice.getData(path)).data)).toBe('mine');
      expect(await codeOf(bob.getData(path))).toBe('NOAUTH');
      expect(await codeOf(bob.setData(path, 'x'))).toBe('NOAUTH');
      const withCredentials = await t.client({ authInfo: [{ scheme: 'digest', auth: 'alice:secret' }] });
      expect(dec((await withCredentials.getData(path)).data)).toBe('mine');
    });

    c('a wrong digest password is accepted by addAuth but grants nothing', async (t) => {
      const [alice, mallory] = [await t.client(), await t.client()];
      await alice.addAuth('digest', 'alice:secret');
      const path = t.path();
      await alice.create(path, 'mine', { acl: [digestAcl('alice', 'secret')] });
      await mallory.addAuth('digest', 'alice:guess');
      expect(await codeOf(mallory.getData(path))).toBe('NOAUTH');
    });

    c('the auth scheme stands for every identity the creator authenticated with', async (t) => {
      const zk = await t.client();
      await zk.addAuth('digest', 'alice:secret');
      await zk.addAuth('digest', 'carol:pw');
      expect((await zk.whoAmI()).filter((id) => id.scheme === 'digest').map((id) => id.user).sort()).toEqual(['alice', 'carol']);
      const path = t.path();
      await zk.create(path, null, { acl: CREATOR_ALL_ACL });
      const { acl } = await zk.getACL(path);
      expect(acl.sort((x, y) => x.id.id.localeCompare(y.id.id))).toEqual([digestAcl('alice', 'secret'), digestAcl('carol', 'pw')]);
      const carol = await t.client({ authInfo: [{ scheme: 'digest', auth: 'carol:pw' }] });
      await carol.setData(path, 'by carol');
    });

    c('INVALIDACL: the auth scheme without authentication, an unknown world id, a malformed digest id', async (t) => {
      const zk = await t.client();
      expect(await codeOf(zk.create(t.path(), null, { acl: CREATOR_ALL_ACL }))).toBe('INVALIDACL');
      expect(await codeOf(zk.create(t.path(), null, { acl: [{ perms: Perms.ALL, id: { scheme: 'world', id: 'nobody' } }] }))).toBe('INVALIDACL');
      expect(await codeOf(zk.create(t.path(), null, { acl: [{ perms: Perms.ALL, id: { scheme: 'digest', id: 'no-colon' } }] }))).toBe('INVALIDACL');
      const path = t.path();
      await zk.create(path);
      expect(await codeOf(zk.setACL(path, CREATOR_ALL_ACL))).toBe('INVALIDACL');
      expect((await zk.getACL(path)).stat.aversion).toBe(0);
    });

    c('ACL entries add up: world may read, the digest user may do everything', async (t) => {
      const [alice, bob] = [await t.client({ authInfo: [{ scheme: 'digest', auth: 'alice:secret' }] }), await t.client()];
      const path = t.path();
      await alice.create(path, 'v0', { acl: [...READ_ACL_UNSAFE, digestAcl('alice', 'secret')] });
      expect(dec((await bob.getData(path)).data)).toBe('v0');
      expect(await codeOf(bob.setData(path, 'bob'))).toBe('NOAUTH');
      expect((await alice.setData(path, 'alice')).version).toBe(1);
    });

    c("a child does not inherit its parent's ACL", async (t) => {
      const [alice, bob] = [await t.client({ authInfo: [{ scheme: 'digest', auth: 'alice:secret' }] }), await t.client()];
      const path = t.path();
      await alice.create(path, null, { acl: [digestAcl('alice', 'secret')] });
      await alice.create(`${path}/open`, 'o');
      expect((await bob.getACL(`${path}/open`)).acl).toEqual([...OPEN_ACL_UNSAFE]);
      expect(dec((await bob.getData(`${path}/open`)).data)).toBe('o');
      expect(await codeOf(bob.getChildren(path))).toBe('NOAUTH');
    });

    c('whoAmI of an unauthenticated session is its ip identity', async (t) => {
      const zk = await t.client();
      expect(await zk.whoAmI()).toEqual([{ scheme: 'ip', user: '127.0.0.1' }]);
    });

    c('an ip ACL admits the client at that address', async (t) => {
      const zk = await t.client();
      const path = t.path();
      await zk.create(path, 'ip', { acl: [{ perms: Perms.ALL, id: { scheme: 'ip', id: '127.0.0.1' } }] });
      expect(dec((await zk.getData(path)).data)).toBe('ip');
      await zk.create(`${path}-other`, 'no', { acl: [{ perms: Perms.ALL, id: { scheme: 'ip', id: '10.9.8.7' } }] });
      expect(await codeOf(zk.getData(`${path}-other`))).toBe('NOAUTH');
    });

    c('a read-only ACL lets others read but not write', async (t) => {
      const [owner, other] = [await t.client(), await t.client()];
      const path = t.path();
      await owner.create(path, 'r', { acl: [...READ_ACL_UNSAFE] });
      expect(dec((await other.getData(path)).data)).toBe('r');
      expect(await codeOf(other.setData(path, 'w'))).toBe('NOAUTH');
      expect(await codeOf(other.delete(path))).toBe('resolved');
    });

    c('an unknown auth scheme fails the session with AUTHFAILED', async (t) => {
      const zk = await t.client();
      expect(await codeOf(zk.addAuth('nosuchscheme', 'x'))).toBe('AUTHFAILED');
      expect(zk.state).toBe('auth-failed');
    });
  },
};
