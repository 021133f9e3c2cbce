import { describe, expect, it } from 'vitest';
import { CREATOR_ALL_ACL, digestAcl, digestId, OPEN_ACL_UNSAFE, Perms, READ_ACL_UNSAFE } from '../../src/client/acl.js';
import { codeOf, connectShared, uniquePath } from './helpers.js';

describe('ACLs and authentication', () => {
  it('derives digest ids like the server', () => {
    expect(digestId('alice', 'secret')).toBe('alice:aYXlLOpEooaV1cRAvUL1fp9Qt7E=');
  });

  it('getACL / setACL with versions and the errors they give', async () => {
    await using zk = await connectShared();
    const path = uniquePath();
    await zk.create(path);
    const before = await zk.getACL(path);
    expect(before.acl).toEqual([...OPEN_ACL_UNSAFE]);
    expect(before.stat.aversion).toBe(0);
    const stat = await zk.setACL(path, READ_ACL_UNSAFE, { version: 0 });
    expect(stat.aversion).toBe(1);
    expect(await codeOf(zk.setData(path, 'x'))).toBe('NOAUTH');
    expect(await codeOf(zk.setACL(path, OPEN_ACL_UNSAFE, { version: 0 }))).toBe('NOAUTH');
    expect(await codeOf(zk.create(`${uniquePath()}`, null, { acl: [] }))).toBe('BAD_ARGUMENT');
    expect(await codeOf(zk.create(`${uniquePath()}`, null, { acl: [{ perms: Perms.ALL, id: { scheme: 'world', id: 'nobody' } }] }))).toBe('INVALIDACL');
    expect(await codeOf(zk.create(`${uniquePath()}`, null, { acl: CREATOR_ALL_ACL }))).toBe('INVALIDACL');
    expect(await codeOf(zk.getACL(`${path}/none`))).toBe('NONODE');
    await zk.delete(path);
  });

  it('digest auth: addAuth, whoAmI, creator ACLs, and a second client without the credentials', async () => {
    await using alice = await connectShared();
    await alice.addAuth('digest', 'alice:secret');
    expect(await alice.whoAmI()).toContainEqual({ scheme: 'digest', user: 'alice' });
    const path = uniquePath();
    await alice.create(path, 'mine', { acl: CREATOR_ALL_ACL });
    expect((await alice.getACL(path)).acl).toEqual([digestAcl('alice', 'secret')]);
    await using bob = await connectShared();
    expect(await codeOf(bob.getData(path))).toBe('NOAUTH');
    await using alice2 = await connectShared({ authInfo: [{ scheme: 'digest', auth: 'alice:secret' }] });
    expect((await alice2.getData(path)).stat.version).toBe(0);
    await alice.delete(path);
  });

  it('AUTHFAILED for an unknown scheme ends the session as auth-failed', async () => {
    const zk = await connectShared();
    const pending = zk.getData('/');
    expect(await codeOf(zk.addAuth('nosuchscheme', 'x'))).toBe('AUTHFAILED');
    await pending.catch(() => undefined);
    expect(zk.state).toBe('auth-failed');
    expect(await codeOf(zk.getData('/'))).toBe('AUTHFAILED');
    await zk.close();
    expect(zk.state).toBe('auth-failed');
  });
});
