/** `zkwire ls -R`, `find`, `cp`, `mv` and `setacl -R` against a real server, one shared server for the file. */

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Perms, ZooKeeperClient } from '../../../src/node.js';
import { sharedServer } from '../../harness/zookeeper.js';
import { jsonLines, zkwire } from '../cli-io.js';

let server: string;
let zk: ZooKeeperClient;
beforeAll(async () => {
  server = (await sharedServer()).connectString;
  zk = new ZooKeeperClient(server);
});
afterAll(async () => {
  await zk?.close();
});

const text = (d: Uint8Array): string => new TextDecoder().decode(d);

/** /t-x with a/b, a/c (data "port=5432"), d; returns the root. */
async function tree(): Promise<string> {
  const root = `/t-${randomUUID()}`;
  await zk.create(root);
  await zk.create(`${root}/a`, 'a');
  await zk.create(`${root}/a/b`, 'b');
  await zk.create(`${root}/a/c`, 'port=5432');
  await zk.create(`${root}/d`, new Uint8Array([0xff, 0x00]));
  return root;
}

describe('zkwire ls -R', () => {
  it('prints every path, each before its children, sorted', async () => {
    const root = await tree();
    const r = await zkwire('ls', '-R', root, '--server', server);
    expect(r).toEqual({ code: 0, out: [root, `${root}/a`, `${root}/a/b`, `${root}/a/c`, `${root}/d`].map((p) => `${p}\n`).join(''), err: '' });
    const json = await zkwire('ls', '--recursive', `${root}/a`, '--server', server, '--json');
    expect(jsonLines(json.out)).toEqual([
      { path: `${root}/a`, numChildren: 2, ephemeral: false },
      { path: `${root}/a/b`, numChildren: 0, ephemeral: false },
      { path: `${root}/a/c`, numChildren: 0, ephemeral: false },
    ]);
    expect((await zkwire('ls', '-R', `${root}/nope`, '--server', server)).err).toMatch(/NONODE/);
  });
});

describe('zkwire find', () => {
  it('matches by name glob, data regex, ephemeral and owner', async () => {
    const root = await tree();
    const other = new ZooKeeperClient(server);
    try {
      await other.create(`${root}/a/lease-1`, 'x', { mode: 'ephemeral' });
      await zk.create(`${root}/lease-2`, 'y', { mode: 'ephemeral' });
      const find = async (...args: string[]): Promise<string[]> => {
        const r = await zkwire('find', root, ...args, '--server', server);
        expect(r.code, r.err).toBe(0);
        return r.out.split('\n').filter((l) => l !== '');
      };
      expect(await find('--name', '[bc]')).toEqual([`${root}/a/b`, `${root}/a/c`]);
      expect(await find('--name', 'lease-*')).toEqual([`${root}/a/lease-1`, `${root}/lease-2`]);
      expect(await find('--data', 'port=\\d+')).toEqual([`${root}/a/c`]);
      expect(await find('--ephemeral')).toEqual([`${root}/a/lease-1`, `${root}/lease-2`]);
      const owner = `0x${other.sessionId.toString(16)}`;
      expect(await find('--owner', owner)).toEqual([`${root}/a/lease-1`]);
      const json = jsonLines((await zkwire('find', root, '--owner', owner, '--server', server, '--json')).out);
      expect(json).toEqual([{ path: `${root}/a/lease-1`, ephemeralOwner: owner, dataLength: 1, numChildren: 0 }]);
      const bad = await zkwire('find', root, '--data', '(', '--server', server);
      expect(bad.code).toBe(2);
      expect(bad.err).toContain('--data:');
    } finally {
      await other.close();
    }
  });
});

describe('zkwire cp and mv', () => {
  it('cp copies data and ACLs; a rerun is a no-op; refuses ephemerals, sequential names and DST inside SRC', async () => {
    const root = await tree();
    await zk.setACL(`${root}/a/b`, [{ perms: Perms.READ | Perms.ADMIN, id: { scheme: 'world', id: 'anyone' } }]);
    const r = await zkwire('cp', `${root}/a`, `${root}/copy`, '--server', server);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('cp: 3 created, 0 changed, 0 unchanged');
    expect(text((await zk.getData(`${root}/copy/c`)).data)).toBe('port=5432');
    expect((await zk.getACL(`${root}/copy/b`)).acl[0]?.perms).toBe(Perms.READ | Perms.ADMIN);
    expect((await zkwire('cp', `${root}/a`, `${root}/copy`, '--server', server)).out).toContain('0 created, 0 changed, 3 unchanged');

    expect((await zkwire('cp', root, `${root}/a/in`, '--server', server)).err).toContain('is inside');
    await zk.create(`${root}/a/e`, 'e', { mode: 'ephemeral' });
    const eph = await zkwire('cp', `${root}/a`, `${root}/copy2`, '--server', server);
    expect(eph.code).toBe(1);
    expect(eph.err).toContain(`ephemeral node(s), which belong to a session and cannot be copied: ${root}/a/e; nothing written`);
    await zk.delete(`${root}/a/e`);
    await zk.create(`${root}/a/job-`, 'q', { mode: 'persistent-sequential' });
    const seq = await zkwire('cp', `${root}/a`, `${root}/copy2`, '--server', server);
    expect(seq.code).toBe(1);
    expect(seq.err).toMatch(/job-\d{10}: named as sequential nodes are/);
    expect(await zk.exists(`${root}/copy2`)).toBeNull();
    expect((await zkwire('cp', `${root}/a`, `${root}/copy2`, '--allow-sequential', '--server', server)).code).toBe(0);
    expect(await zk.getAllChildrenNumber(`${root}/copy2`)).toBe(3);
  });

  it('cp refuses a DST that holds different nodes', async () => {
    const root = await tree();
    await zk.create(`${root}/copy`, 'other');
    const r = await zkwire('cp', `${root}/a`, `${root}/copy`, '--server', server);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`${root}/copy already holds node(s) that differ`);
  });

  it('mv copies, then deletes the source; a source changed meanwhile is left', async () => {
    const root = await tree();
    const r = await zkwire('mv', `${root}/a`, `${root}/moved`, '--server', server);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('mv: deleted 3 node(s)');
    expect(await zk.exists(`${root}/a`)).toBeNull();
    expect(text((await zk.getData(`${root}/moved/b`)).data)).toBe('b');
    const dry = await zkwire('mv', `${root}/moved`, `${root}/again`, '--dry-run', '--server', server);
    expect(dry.out).toContain(`would create ${root}/again/b`);
    expect(await zk.exists(`${root}/again`)).toBeNull();
    expect(await zk.exists(`${root}/moved`)).not.toBeNull();
  });
});

describe('zkwire setacl -R', () => {
  it('sets the ACL of every node of the subtree', async () => {
    const root = await tree();
    const r = await zkwire('setacl', '-R', `${root}/a`, 'world:anyone:rca', '--server', server);
    expect(r).toEqual({ code: 0, out: `ACL set on 3 node(s) under ${root}/a\n`, err: '' });
    for (const p of ['a', 'a/b', 'a/c']) expect((await zk.getACL(`${root}/${p}`)).acl).toEqual([{ perms: Perms.READ | Perms.CREATE | Perms.ADMIN, id: { scheme: 'world', id: 'anyone' } }]);
    expect((await zk.getACL(`${root}/d`)).acl[0]?.perms).toBe(Perms.ALL);
    expect((await zkwire('setacl', '-R', root, 'world:anyone:r', '--version', '1', '--server', server)).code).toBe(2);
  });
});
