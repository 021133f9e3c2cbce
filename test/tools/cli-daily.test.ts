/**
 * The CLI as a daily zkCli.sh replacement, against a real server: node data from a file or standard input and
 * binary-safe both ways, `--` before data that starts with "-", --auth with getacl/setacl, --version,
 * --connect-timeout, --max-frame-size, connection failures that say why at once (or say that they wait), and --json
 * errors as JSON on stderr.
 *
 * Commands run in-process through runCli, wired as the executable's main.ts wires it (cli-io.ts): a spawned node
 * per command cost more CPU than the commands themselves. The binary round trip runs the built CLI in processes of
 * their own, since what it checks is bytes through a real process's stdin and stdout.
 */

import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digestId, ZooKeeperClient } from '../../src/node.js';
import { startFaultProxy, type FaultProxy } from '../harness/fault-proxy.js';
import { sharedServer } from '../harness/zookeeper.js';
import { zkwireWithInput as zkwire, type CliBytesRun } from './cli-io.js';

const MAIN = join(process.cwd(), 'dist/cli/main.js');

/** `node dist/cli/main.js ...args` in a process of its own, `input` piped to its stdin. */
function spawned(args: string[], input?: Uint8Array | string): Promise<Omit<CliBytesRun, 'code'> & { code: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const stdout = Buffer.concat(out);
      resolve({ code, stdout, out: stdout.toString(), err });
    });
    child.stdin.end(input);
  });
}

let server: string;
let zk: ZooKeeperClient;
let base: string;
let dir: string;

beforeAll(async () => {
  server = (await sharedServer()).connectString;
  zk = await ZooKeeperClient.connect(server);
  base = `/cli-daily-${randomUUID()}`;
  await zk.create(base);
  dir = mkdtempSync(join(tmpdir(), 'zkwire-cli-daily-'));
});

afterAll(async () => {
  await zk?.deleteRecursive(base).catch(() => {});
  await zk?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('node data in and out', () => {
  it('binary data from a file and from standard input round-trips byte for byte (get --raw), and get --hex shows it', async () => {
    const bytes = new Uint8Array(randomBytes(3000));
    bytes[0] = 0xff; // never valid UTF-8
    const file = join(dir, 'data.bin');
    writeFileSync(file, bytes);
    const node = `${base}/bin`;
    expect((await zkwire(['create', node, '--file', file, '--server', server])).code).toBe(0);
    expect(new Uint8Array((await zk.getData(node)).data)).toEqual(bytes);
    const raw = await spawned(['get', node, '--raw', '--server', server]);
    expect(raw.code).toBe(0);
    expect(new Uint8Array(raw.stdout)).toEqual(bytes);
    const hex = await zkwire(['get', node, '--hex', '--server', server]);
    expect(hex.out).toBe(`${Buffer.from(bytes).toString('hex')}\n`);
    expect(hex.err).toBe('');

    const other = new Uint8Array(randomBytes(500));
    other[0] = 0xfe;
    expect((await spawned(['set', node, '-', '--server', server], other)).code).toBe(0);
    expect(new Uint8Array((await zk.getData(node)).data)).toEqual(other);
  });

  it('non-UTF-8 data is never printed as text: a hex dump with a note, and "encoding": "hex" with --json', async () => {
    const node = `${base}/latin1`;
    await zk.create(node, new Uint8Array([0x63, 0x61, 0x66, 0xe9])); // "café" in Latin-1
    const text = await zkwire(['get', node, '--server', server]);
    expect(text.out).toBe(`${'00000000  63 61 66 e9'.padEnd(60)}|caf.|\n`);
    expect(text.out).not.toContain('\uFFFD');
    expect(text.err).toContain('4 byte(s) that are not text; shown as a hex dump');
    const json = JSON.parse((await zkwire(['get', node, '--json', '--server', server])).out) as { data: string; encoding: string };
    expect(json).toMatchObject({ data: '636166e9', encoding: 'hex' });
  });

  it('--hex takes hex data (argument, standard input, file); bad hex is a usage error', async () => {
    const node = `${base}/hex`;
    expect((await zkwire(['create', node, '--hex', '00ff10', '--server', server])).code).toBe(0);
    expect([...(await zk.getData(node)).data]).toEqual([0x00, 0xff, 0x10]);
    expect((await zkwire(['set', node, '-', '--hex', '--server', server], 'c3 a9\n')).code).toBe(0);
    expect(new TextDecoder().decode((await zk.getData(node)).data)).toBe('é');
    const bad = await zkwire(['set', node, 'xyz', '--hex', '--server', server]);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('not hex');
  });

  it('-- ends the options, so data may start with "-"', async () => {
    const node = `${base}/dash`;
    expect((await zkwire(['create', node, '--server', server, '--', '--not-an-option'])).code).toBe(0);
    expect(new TextDecoder().decode((await zk.getData(node)).data)).toBe('--not-an-option');
    expect((await zkwire(['--server', server, 'set', node, '--', '-x'])).code).toBe(0);
    expect(new TextDecoder().decode((await zk.getData(node)).data)).toBe('-x');
    const without = await zkwire(['set', node, '--x', '--server', server]);
    expect(without.code).toBe(2);
    expect(without.err).toContain('unknown option --x');
  });

  it('a missing --file is a usage error naming the file', async () => {
    const r = await zkwire(['set', `${base}/x`, '--file', join(dir, 'missing.bin'), '--server', server]);
    expect(r.code).toBe(2);
    expect(r.err).toContain('missing.bin: no such file');
  });
});

describe('--auth, getacl, setacl', () => {
  it('protects a node with digest ACLs, reads it only with the credentials, and shows the ACL as zkCli letters', async () => {
    const node = `${base}/secret`;
    const alice = ['--auth', 'digest:alice:pw'];
    expect((await zkwire(['create', node, 'hidden', ...alice, '--server', server])).code).toBe(0);
    const set = await zkwire(['setacl', node, 'auth::cdrwa,world:anyone:c', ...alice, '--server', server]);
    expect(set.code, set.err).toBe(0);
    const id = digestId('alice', 'pw');
    expect(set.out).toBe(`digest:${id} cdrwa\nworld:anyone c\n`);

    const refused = await zkwire(['get', node, '--server', server]);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('NOAUTH');
    const allowed = await zkwire(['get', node, ...alice, '--server', server]);
    expect(allowed.out).toBe('hidden\n');

    const acl = JSON.parse((await zkwire(['getacl', node, '--json', ...alice, '--server', server])).out) as { acl: unknown[] };
    expect(acl.acl).toEqual([
      { scheme: 'digest', id, perms: 'cdrwa', permsMask: 31 },
      { scheme: 'world', id: 'anyone', perms: 'c', permsMask: 4 },
    ]);
    const who = await zkwire(['whoami', '--auth', 'digest:alice:pw', '--auth=digest:bob:pw2', '--server', server]);
    expect(who.out).toContain('digest alice');
    expect(who.out).toContain('digest bob');
  });

  it('a malformed --auth or ACL is a usage error', async () => {
    expect((await zkwire(['ls', '/', '--auth', 'nocolon', '--server', server])).code).toBe(2);
    const bad = await zkwire(['setacl', base, 'world:anyone:rx', '--server', server]);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('permission letters');
  });
});

describe('globals and connecting', () => {
  let proxy: FaultProxy;
  beforeAll(async () => {
    const [host, port] = server.split(',')[0]!.split(':') as [string, string];
    proxy = await startFaultProxy({ host, port: Number(port) });
  });
  afterAll(async () => {
    await proxy?.close();
  });

  it('--version prints the package version', async () => {
    const version = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;
    expect(await zkwire(['--version'])).toMatchObject({ code: 0, out: `zkwire ${version}\n` });
  });

  it('a refused connection and an unknown host fail at once with the reason, not after the session timeout', async () => {
    // The default session timeout (30 s) is the connect deadline; a test timeout far below it proves "at once".
    const refused = await zkwire(['stat', '/', '--server', '127.0.0.1:1']);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/CONNECTIONLOSS: connect: cannot connect: 127\.0\.0\.1:1: .*ECONNREFUSED/);
    const unknown = await zkwire(['stat', '/', '--server', 'no-such-host.invalid:2181', '--json']);
    expect(unknown.code).toBe(1);
    const error = JSON.parse(unknown.err) as { error: { code: string; message: string } };
    expect(error.error.code).toBe('CONNECTIONLOSS');
    expect(error.error.message).toMatch(/no-such-host\.invalid:2181: .*(ENOTFOUND|EAI_AGAIN)/);
  }, 15_000);

  it('a server that does not answer keeps the wait, saying on stderr that it waits; --connect-timeout bounds it', async () => {
    proxy.pause();
    try {
      const waited = await zkwire(['stat', '/', '--server', proxy.connectString, '--session-timeout', '4000']);
      expect(waited.code).toBe(1);
      expect(waited.err).toMatch(/zkwire stat: waiting for a session with .* \(no answer yet; giving up after 4000 ms\)/);
      expect(waited.err).toMatch(/TIMEOUT: connect: no session established within 4000 ms/);
      const bounded = await zkwire(['stat', '/', '--server', proxy.connectString, '--connect-timeout', '1000']);
      expect(bounded.code).toBe(1);
      expect(bounded.err).toMatch(/TIMEOUT: connect: no session established within 1000 ms/);
    } finally {
      proxy.pass();
    }
  });

  it('--max-frame-size limits the replies accepted', async () => {
    const node = `${base}/big`;
    await zk.create(node, new Uint8Array(5000));
    const small = await zkwire(['get', node, '--hex', '--max-frame-size', '1000', '--server', server]);
    expect(small.code).toBe(1);
    expect(small.err).toContain('frame length');
    expect((await zkwire(['get', node, '--hex', '--max-frame-size', '10000', '--server', server])).code).toBe(0);
    expect((await zkwire(['get', node, '--max-frame-size', 'lots', '--server', server])).code).toBe(2);
  });

  it('--json errors are JSON on stderr, usage errors too', async () => {
    const missing = await zkwire(['get', `${base}/missing`, '--json', '--server', server]);
    expect(missing.code).toBe(1);
    expect(missing.out).toBe('');
    expect(JSON.parse(missing.err)).toEqual({ error: { code: 'NONODE', message: `NONODE (getData ${base}/missing)` } });
    const usage = await zkwire(['get', '--json', '--server', server]);
    expect(usage.code).toBe(2);
    expect(JSON.parse(usage.err)).toMatchObject({ error: { code: 'USAGE' } });
    const lock = await zkwire(['lock', 'relative', '--json', '--server', server]);
    expect(lock.code).toBe(1);
    expect(JSON.parse(lock.err)).toMatchObject({ error: { code: 'BAD_ARGUMENT' } });
  });
});
