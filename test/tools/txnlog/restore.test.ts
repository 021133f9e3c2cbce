/**
 * `zkwire txnlog DIR --path P --at ZXID [--restore]` on the logs of a real server: the value at a zxid, the diff
 * and question before a write, the write itself (setData back, a deleted node re-created with its ACL), and the
 * refusals (an ephemeral, a node that did not exist then, no answer).
 */

import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/cli.js';
import { Perms, ZooKeeperClient } from '../../../src/node.js';
import { startZooKeeper, type ZkServer } from '../../harness/zookeeper.js';
import { zkwire } from '../cli-io.js';

let server: ZkServer;
let zk: ZooKeeperClient;
let dataDir: string;
beforeAll(async () => {
  server = await startZooKeeper();
  zk = new ZooKeeperClient(server.connectString);
  dataDir = path.join(server.directory, 'data');
}, 60_000);
afterAll(async () => {
  await zk?.close();
  await server?.stop();
});

const hex = (z: bigint): string => `0x${z.toString(16)}`;
const text = (d: Uint8Array): string => new TextDecoder().decode(d);

/** The CLI with `answer` typed on standard input. */
async function withAnswer(answer: string, ...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, {
    out: (t) => void (out += t),
    err: (t) => void (err += t),
    stdin: (async function* () {
      yield answer;
    })(),
  });
  return { code, out, err };
}

describe('zkwire txnlog --at / --restore', () => {
  it('shows the value at a zxid, and writes it back after the diff and a yes', async () => {
    const p = '/restore-me';
    await zk.create(p, 'good\nvalue');
    const good = (await zk.exists(p))!.mzxid;
    await zk.setData(p, 'bad value');
    const at = await zkwire('txnlog', dataDir, '--path', p, '--at', hex(good));
    expect(at.code, at.err).toBe(0);
    expect(at.out).toContain(`${p} at zxid ${hex(good)} (last changed at ${hex(good)}): 10 byte(s); ACL world:anyone cdrwa\ngood\nvalue\n`);

    const declined = await zkwire('txnlog', dataDir, '--path', p, '--at', hex(good), '--restore', '--server', server.connectString);
    expect(declined.code).toBe(1);
    expect(declined.out).toContain(`--- ${p} now (version 1)\n+++ ${p} at zxid ${hex(good)}\n-bad value\n+good\n+value\n`);
    expect(declined.err).toContain('Write /restore-me? [y/N] ');
    expect(declined.err).toContain('not written (no answer on standard input; --yes writes without asking)');
    expect(text((await zk.getData(p)).data)).toBe('bad value');

    const yes = await withAnswer('y\n', 'txnlog', dataDir, '--path', p, '--at', hex(good), '--restore', '--server', server.connectString);
    expect(yes.code, yes.err).toBe(0);
    expect(yes.out).toContain(`restored ${p} to its value at zxid ${hex(good)}`);
    expect(text((await zk.getData(p)).data)).toBe('good\nvalue');
    const again = await zkwire('txnlog', dataDir, '--path', p, '--at', hex(good), '--restore', '--yes', '--server', server.connectString);
    expect(again.out).toContain('already holds its value');
  });

  it('re-creates a deleted node with its ACL', async () => {
    const p = '/deleted-by-mistake';
    const acl = [{ perms: Perms.READ | Perms.ADMIN, id: { scheme: 'world', id: 'anyone' } }];
    await zk.create(p, 'keep me', { acl });
    const zxid = (await zk.exists(p))!.czxid;
    await zk.delete(p);
    const r = await zkwire('txnlog', dataDir, '--path', p, '--at', hex(zxid), '--restore', '--yes', '--server', server.connectString);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain(`--- ${p} now: does not exist\n+++ ${p} at zxid ${hex(zxid)}: re-created with ACL world:anyone ra\n+keep me\n`);
    expect(text((await zk.getData(p)).data)).toBe('keep me');
    expect((await zk.getACL(p)).acl).toEqual(acl);
  });

  it('refuses an ephemeral, a node that did not exist then, and --restore without --server', async () => {
    await zk.create('/eph-r', 'e', { mode: 'ephemeral' });
    const eph = (await zk.exists('/eph-r'))!.czxid;
    const r = await zkwire('txnlog', dataDir, '--path', '/eph-r', '--at', hex(eph), '--restore', '--yes', '--server', server.connectString);
    expect(r.code).toBe(1);
    expect(r.err).toContain('was an ephemeral node');
    const before = await zkwire('txnlog', dataDir, '--path', '/never', '--at', hex(eph), '--restore', '--yes', '--server', server.connectString);
    expect(before.code).toBe(1);
    expect(before.err).toContain('/never: no transaction on it up to');
    expect((await zkwire('txnlog', dataDir, '--path', '/x', '--at', '1', '--restore')).err).toContain('--restore needs --server');
    expect((await zkwire('txnlog', dataDir, '--restore', '--server', server.connectString)).err).toContain('--restore needs --at ZXID');
  });
});
