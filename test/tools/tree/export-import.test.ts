/**
 * `zkwire export` and `zkwire import` against a real server: the round trip (export → import into an empty server
 * → export again gives the same file), text and binary data, kinds, ACLs, --to, --dry-run, --overwrite, resuming
 * a partly imported file, batches past the frame limit, and bad files.
 */

import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Perms, ZooKeeperClient } from '../../../src/node.js';
import { parseExport } from '../../../src/tools/tree/index.js';
import { startZooKeeper, type ZkServer } from '../../harness/zookeeper.js';
import { zkwire } from '../cli-io.js';
import { importCommand } from '../../../src/cli/commands/import.js';
import { runCli } from '../../../src/cli/cli.js';

let source: ZkServer;
let target: ZkServer;
let a: ZooKeeperClient;
let b: ZooKeeperClient;
let dir: string;
beforeAll(async () => {
  [source, target] = await Promise.all([startZooKeeper(), startZooKeeper()]);
  a = new ZooKeeperClient(source.connectString);
  b = new ZooKeeperClient(target.connectString);
  dir = await mkdtemp(join(tmpdir(), 'zkwire-export-'));
}, 60_000);
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
  await Promise.all([source?.stop(), target?.stop(), rm(dir, { recursive: true, force: true })]);
});

const READ_ONLY = [{ perms: Perms.READ | Perms.ADMIN, id: { scheme: 'world', id: 'anyone' } }];

const text = (d: Uint8Array): string => new TextDecoder().decode(d);

/** A subtree with text, binary, empty data, a container, a TTL node, an ephemeral and a restricted ACL. */
async function seed(root: string): Promise<void> {
  await a.create(root, 'root data');
  await a.create(`${root}/config`, '{"db":"pg://x"}');
  await a.create(`${root}/config/bin`, new Uint8Array([0, 1, 0xfe, 0xff]));
  await a.create(`${root}/config/empty`);
  await a.create(`${root}/ctr`, 'c', { mode: 'container' });
  await a.create(`${root}/ctr/keep`, 'k');
  await a.create(`${root}/ttl`, 't', { mode: 'ttl', ttl: 3_600_000 });
  await a.create(`${root}/eph`, 'session-bound', { mode: 'ephemeral' });
  await a.create(`${root}/locked`, 'ro', { acl: READ_ONLY });
}

describe('zkwire export / import', () => {
  it('round trip: export, import into an empty server, export again: the same file', async () => {
    const root = `/rt-${randomUUID()}`;
    await seed(root);
    const first = join(dir, 'first.json');
    const second = join(dir, 'second.json');
    const e1 = await zkwire('export', root, '--out', first, '--server', source.connectString);
    expect(e1.code, e1.err).toBe(0);
    expect(e1.err).toContain('9 node(s)');
    expect(e1.err).toContain('1 ephemeral');
    const written = await readFile(first, 'utf8');
    const file = parseExport(written);
    if (typeof file === 'string') throw new Error(file);
    const byPath = new Map(file.nodes.map((n) => [n.path, n]));
    expect(byPath.get('')).toMatchObject({ data: 'root data', encoding: 'utf8', kind: 'persistent' });
    expect(byPath.get('config/bin')).toMatchObject({ data: 'AAH+/w==', encoding: 'base64' });
    expect(byPath.get('config/empty')).toMatchObject({ data: '', encoding: 'utf8' });
    // ZooKeeper shows clients a container's or TTL node's ephemeralOwner as 0 (DataTree.getClientEphemeralOwner):
    // to a client they are persistent nodes, and so they are exported.
    expect(byPath.get('ctr')).toMatchObject({ kind: 'persistent' });
    expect(byPath.get('ttl')).toMatchObject({ kind: 'persistent' });
    expect(byPath.get('eph')).toMatchObject({ kind: 'ephemeral' });
    expect(byPath.get('eph')?.owner).toMatch(/^0x[0-9a-f]+$/);
    expect(byPath.get('locked')?.acl).toEqual([{ scheme: 'world', id: 'anyone', perms: 'ra' }]);
    // One node per line, children sorted.
    expect(written.split('\n').filter((l) => l.startsWith('{"path"')).map((l) => (JSON.parse(l.replace(/,$/, '')) as { path: string }).path)).toEqual(['', 'config', 'config/bin', 'config/empty', 'ctr', 'ctr/keep', 'eph', 'locked', 'ttl']);

    const imp = await zkwire('import', first, '--server', target.connectString);
    expect(imp.code, imp.err).toBe(0);
    expect(imp.out).toContain(`created ${root}/config/bin`);
    expect(imp.out).toContain(`skipped ${root}/eph: ephemeral`);
    expect(imp.out).toMatch(/import: 8 created, 0 changed, 0 unchanged, 0 left as they were, 1 skipped/);
    expect([...(await b.getData(`${root}/config/bin`)).data]).toEqual([0, 1, 0xfe, 0xff]);
    expect((await b.getACL(`${root}/locked`)).acl).toEqual(READ_ONLY);
    expect(await b.exists(`${root}/eph`)).toBeNull();

    // The ephemeral is the one node the copy lacks; with it made on the target too, the files are equal.
    await b.create(`${root}/eph`, 'session-bound', { mode: 'ephemeral' });
    const e2 = await zkwire('export', root, '--out', second, '--server', target.connectString);
    expect(e2.code, e2.err).toBe(0);
    const again = (await readFile(second, 'utf8')).replace(/"owner":"0x[0-9a-f]+"/, '"owner":"X"');
    expect(again).toBe(written.replace(/"owner":"0x[0-9a-f]+"/, '"owner":"X"'));
  });

  it('--stats adds each Stat; --gzip writes gzip that import reads', async () => {
    const root = `/gz-${randomUUID()}`;
    await a.create(root, 'x');
    const file = join(dir, 'gz.json.gz');
    expect((await zkwire('export', root, '--out', file, '--gzip', '--stats', '--server', source.connectString)).code).toBe(0);
    const parsed = parseExport(gunzipSync(await readFile(file)).toString('utf8'));
    if (typeof parsed === 'string') throw new Error(parsed);
    expect(parsed.nodes[0]?.stat).toMatchObject({ version: 0, dataLength: 1 });
    const r = await zkwire('import', file, '--to', `${root}-copy/deep`, '--server', source.connectString);
    expect(r.code, r.err).toBe(0);
    expect(text((await a.getData(`${root}-copy/deep`)).data)).toBe('x');
  });

  it('--dry-run writes nothing; a second run is a no-op; --overwrite replaces what differs', async () => {
    const root = `/ow-${randomUUID()}`;
    await a.create(root, 'v1');
    await a.create(`${root}/child`, 'c1');
    const file = join(dir, 'ow.json');
    expect((await zkwire('export', root, '--out', file, '--server', source.connectString)).code).toBe(0);
    const to = `/ow-target-${randomUUID()}`;
    const dry = await zkwire('import', file, '--to', to, '--dry-run', '--server', source.connectString);
    expect(dry.out).toContain(`would create ${to}/child`);
    expect(dry.out).toContain('dry run: nothing written');
    expect(await a.exists(to)).toBeNull();
    expect((await zkwire('import', file, '--to', to, '--server', source.connectString)).code).toBe(0);
    const again = await zkwire('import', file, '--to', to, '--server', source.connectString, '--json');
    expect(JSON.parse(again.out)).toEqual({ created: [], changed: [], left: [], skipped: [], unchanged: 2, dryRun: false });

    await a.setData(`${to}/child`, 'edited');
    await a.setACL(`${to}/child`, READ_ONLY);
    const left = await zkwire('import', file, '--to', to, '--server', source.connectString);
    expect(left.code).toBe(0);
    expect(left.out).toContain(`left ${to}/child: differs (data, acl); --overwrite replaces it`);
    expect(text((await a.getData(`${to}/child`)).data)).toBe('edited');
    const over = await zkwire('import', file, '--to', to, '--overwrite', '--server', source.connectString);
    expect(over.out).toContain(`changed ${to}/child (data, acl)`);
    expect(text((await a.getData(`${to}/child`)).data)).toBe('c1');
    expect((await a.getACL(`${to}/child`)).acl).toEqual([{ perms: Perms.ALL, id: { scheme: 'world', id: 'anyone' } }]);
  });

  it('writes past the frame limit in several batches, and a partly imported file is finished by a rerun', async () => {
    const root = `/big-${randomUUID()}`;
    const value = 'x'.repeat(200_000);
    const nodes = Array.from({ length: 12 }, (_, i) => `{"path":"n${String(i).padStart(2, '0')}","kind":"persistent","data":"${value}","encoding":"utf8","acl":[{"scheme":"world","id":"anyone","perms":"cdrwa"}]}`);
    const big = `{"format":"zkwire-export","version":1,"root":"${root}","nodes":[\n{"path":"","kind":"persistent","data":"","encoding":"utf8","acl":[{"scheme":"world","id":"anyone","perms":"cdrwa"}]},\n${nodes.join(',\n')}\n]}\n`;
    const file = join(dir, 'big.json');
    await writeFile(file, big);
    // As if an earlier run stopped part way: the root and three children are there already.
    await b.create(root);
    for (const i of ['00', '01', '02']) await b.create(`${root}/n${i}`, value);
    const r = await zkwire('import', file, '--server', target.connectString, '--json');
    expect(r.code, r.err).toBe(0);
    const report = JSON.parse(r.out) as { created: string[]; unchanged: number };
    expect(report.created).toHaveLength(9); // 2.4 MB in all: more than one multi could carry
    expect(report.unchanged).toBe(4);
    expect(await b.getAllChildrenNumber(root)).toBe(12);
  });

  it('Ctrl-C between two batches: stops, says how far it got, and the same command finishes the job', async () => {
    const root = `/int-${randomUUID()}`;
    const value = 'z'.repeat(300_000);
    const nodes = Array.from({ length: 5 }, (_, i) => `{"path":"n${i}","kind":"persistent","data":"${value}","encoding":"utf8","acl":[{"scheme":"world","id":"anyone","perms":"cdrwa"}]}`);
    const file = join(dir, 'int.json');
    await writeFile(file, `{"format":"zkwire-export","version":1,"root":"${root}","nodes":[\n{"path":"","kind":"persistent","data":"","encoding":"utf8","acl":[{"scheme":"world","id":"anyone","perms":"cdrwa"}]},\n${nodes.join(',\n')}\n]}\n`);
    // Run as the shell runs a command: its Ctrl-C is the session's signal, pressed here once the first batch is in.
    const ctrlC = new AbortController();
    let out = '';
    let err = '';
    const code = await importCommand.run([file], {
      out: (t) => void (out += t),
      err: (t) => {
        err += t;
        if (t.includes('batch 1 of')) ctrlC.abort();
      },
      stdin: (async function* () {})(),
      globals: { json: false },
      session: { client: b, signal: ctrlC.signal, keep: () => {} },
    });
    expect(code).toBe(130);
    expect(err).toMatch(/zkwire import: interrupted after 1 of (\d+) batch\(es\): 2 created, 0 changed; run the same command again to finish/);
    expect(out).toContain(`created ${root}/n0`);
    expect(out).not.toContain(`created ${root}/n1`);
    expect(await b.getAllChildrenNumber(root)).toBe(1);
    const again = await zkwire('import', file, '--server', target.connectString);
    expect(again.code, again.err).toBe(0);
    expect(again.out).toContain('import: 4 created, 0 changed, 2 unchanged');
    expect(await b.getAllChildrenNumber(root)).toBe(5);
  });

  it('import - reads the export from standard input (a pipe from export)', async () => {
    const root = `/pipe-${randomUUID()}`;
    await a.create(root, 'piped');
    const exported = await zkwire('export', root, '--server', source.connectString);
    let out = '';
    const code = await runCli(['import', '-', '--server', target.connectString], {
      out: (t) => void (out += t),
      err: () => {},
      stdin: (async function* () {
        yield exported.out;
      })(),
    });
    expect(code).toBe(0);
    expect(out).toContain(`created ${root}`);
    expect(text((await b.getData(root)).data)).toBe('piped');
  });

  it('refuses a file that is not an export, with the reason', async () => {
    const file = join(dir, 'bad.json');
    await writeFile(file, '{"format":"zkwire-export","version":2,"root":"/","nodes":[]}');
    const r = await zkwire('import', file, '--server', target.connectString);
    expect(r.code).toBe(2);
    expect(r.err).toContain('version 2 is not one this zkwire reads');
    await writeFile(file, '{"format":"zkwire-export","version":1,"root":"/","nodes":[{"path":"a","kind":"odd","data":"","encoding":"utf8","acl":[]}]}');
    expect((await zkwire('import', file, '--server', target.connectString)).err).toContain('node 0: "a": kind must be one of');
    expect((await zkwire('export', '/no-such-node', '--server', target.connectString)).err).toMatch(/NONODE/);
  });

  it('leaves ZooKeeper\'s own /zookeeper out of an export of /', async () => {
    const r = await zkwire('export', '/', '--server', target.connectString);
    expect(r.code, r.err).toBe(0);
    const file = parseExport(r.out);
    if (typeof file === 'string') throw new Error(file);
    expect(file.nodes[0]?.path).toBe('');
    expect(file.nodes.filter((n) => n.path === 'zookeeper' || n.path.startsWith('zookeeper/'))).toEqual([]);
  });
});
