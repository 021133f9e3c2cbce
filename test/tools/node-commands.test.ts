/**
 * The node commands as users run them, against a real ZooKeeper and checked against what a separate client sees:
 * text and --json output, exit statuses (0 / 1 with the error's code name / 2 for usage), --help, globals on either
 * side of the command, and `watch` streaming events until SIGTERM/SIGINT/SIGHUP.
 *
 * The commands' logic runs in-process through runCli, the dispatcher the executable's main.ts calls with the
 * process's streams (a spawned node costs a few hundred ms of CPU, and this file runs seventy-odd commands). The
 * built CLI runs in processes of its own where the process is what is tested: that it exists and is fresh, that
 * its exit status and streams are the ones runCli returns (0, 1 and 2, text and --json), and `watch`'s signals.
 */

import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZooKeeperClient, type Stat } from '../../src/node.js';
import { sharedServer } from '../harness/zookeeper.js';
import { zooKeeperVersionOf } from '../harness/zookeeper-versions.js';
import { zkwireWithInput } from './cli-io.js';
import { runCli as runCliProcess } from './cli-process.js';

const MAIN = join(process.cwd(), 'dist/cli/main.js');
const COMMANDS = ['ls', 'get', 'set', 'create', 'rm', 'stat', 'watch', 'whoami'] as const;

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A command run in-process: what main.ts would write to stdout and stderr, and the exit status it would set. */
async function zkwire(...args: string[]): Promise<Result> {
  const { code, out, err } = await zkwireWithInput(args);
  return { code, stdout: out, stderr: err };
}

/** The built CLI in a process of its own (cli-process.ts), as main.ts's exit status and streams. */
async function spawned(...args: string[]): Promise<Result> {
  const { code, stdout, stderr } = await runCliProcess(args);
  return { code, stdout, stderr };
}

/** A `watch` process: its stdout lines as they come, stderr so far, and its exit. */
function startWatch(...args: string[]) {
  const child = spawn(process.execPath, [MAIN, 'watch', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  const waiters: (() => void)[] = [];
  let stderr = '';
  const poke = (): void => void waiters.splice(0).forEach((w) => w());
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
    poke();
  });
  createInterface({ input: child.stdout }).on('line', (l) => {
    lines.push(l);
    poke();
  });
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => {
      resolve({ code, signal });
      poke();
    }),
  );
  let exited = false;
  void exit.then(() => (exited = true));
  /** Resolves once `done()` holds; rejects if the process exits first. */
  const until = async (what: string, done: () => boolean): Promise<void> => {
    while (!done()) {
      if (exited) throw new Error(`zkwire watch exited before ${what}; stderr: ${stderr}`);
      await new Promise<void>((r) => waiters.push(r));
    }
  };
  return {
    child,
    exit,
    lines,
    stderr: () => stderr,
    armed: () => until('arming the watch', () => stderr.includes('watching ')),
    events: (n: number) => until(`${n} event line(s)`, () => lines.length >= n).then(() => lines.slice(0, n).map((l) => JSON.parse(l) as unknown)),
  };
}

function statJson(s: Stat): Record<string, string | number> {
  return {
    czxid: s.czxid.toString(),
    mzxid: s.mzxid.toString(),
    ctime: s.ctime.toString(),
    mtime: s.mtime.toString(),
    version: s.version,
    cversion: s.cversion,
    aversion: s.aversion,
    ephemeralOwner: s.ephemeralOwner.toString(),
    dataLength: s.dataLength,
    numChildren: s.numChildren,
    pzxid: s.pzxid.toString(),
  };
}

let server: string;
let zk: ZooKeeperClient;
let base: string;

beforeAll(async () => {
  server = (await sharedServer()).connectString;
  zk = await ZooKeeperClient.connect(server);
  base = `/node-cli-${randomUUID()}`;
  await zk.create(base);
});

afterAll(async () => {
  await zk?.deleteRecursive(base);
  await zk?.close();
});

describe('the built CLI', () => {
  it('exists and is newer than the command sources (npm test builds first)', () => {
    expect(existsSync(MAIN), 'run `npm run build` first').toBe(true);
    for (const name of [...COMMANDS, 'node-client', 'index']) {
      const src = statSync(join(process.cwd(), `src/cli/commands/${name}.ts`)).mtimeMs;
      const built = join(process.cwd(), `dist/cli/commands/${name}.js`);
      expect(existsSync(built) && statSync(built).mtimeMs >= src, `dist is stale for ${name}.ts: run \`npm run build\``).toBe(true);
    }
  });

  it('exits and writes as runCli says: 0 with the output, 1 with the code name, 2 with the usage, --json errors', async () => {
    const node = `${base}/process`;
    await zk.create(node, 'p');
    const cases: [string[], number][] = [
      [['get', node, '--server', server], 0],
      [['--json', 'stat', node, '--server', server], 0],
      [['get', `${node}/missing`, '--server', server], 1],
      [['--json', 'get', `${node}/missing`, '--server', server], 1],
      [['set', node, '--server', server], 2],
      [['get', '--help'], 0],
    ];
    const results = await Promise.all(cases.map(([args]) => spawned(...args)));
    for (const [i, [args, code]] of cases.entries()) {
      const r = results[i]!;
      expect(r.code, args.join(' ')).toBe(code);
      expect(r, args.join(' ')).toEqual(await zkwire(...args));
    }
    expect(results[0]!.stdout).toBe('p\n');
    expect(JSON.parse(results[3]!.stderr)).toMatchObject({ error: { code: 'NONODE' } });
  });
});

describe('create / get / set / stat / ls / rm', () => {
  it('round-trips in text mode, agreeing with a separate client', async () => {
    const dir = `${base}/rt`;
    expect(await zkwire('create', dir, 'hello', '--server', server)).toEqual({ code: 0, stdout: `${dir}\n`, stderr: '' });
    expect((await zkwire('create', `${dir}/b`, '--server', server)).code).toBe(0);
    expect((await zkwire('create', `${dir}/a`, 'x', '--server', server)).code).toBe(0);
    expect(new TextDecoder().decode((await zk.getData(dir)).data)).toBe('hello');

    expect(await zkwire('get', dir, '--server', server)).toEqual({ code: 0, stdout: 'hello\n', stderr: '' });

    const set = await zkwire('set', dir, 'world', '--server', server);
    expect(set.code).toBe(0);
    const afterSet = (await zk.getData(dir)).stat;
    expect(new TextDecoder().decode((await zk.getData(dir)).data)).toBe('world');
    expect(set.stdout).toMatch(/^version += 1$/m);
    expect(set.stdout).toContain(`mzxid          = 0x${afterSet.mzxid.toString(16)}\n`);

    const stat = await zkwire('stat', dir, '--server', server);
    expect(stat.code).toBe(0);
    expect(stat.stdout).toBe(set.stdout);
    const fields = Object.fromEntries(stat.stdout.trim().split('\n').map((l) => l.split(/ += /) as [string, string]));
    expect(Object.keys(fields)).toEqual(['czxid', 'ctime', 'mzxid', 'mtime', 'pzxid', 'cversion', 'version', 'aversion', 'ephemeralOwner', 'dataLength', 'numChildren']);
    expect(fields['czxid']).toBe(`0x${afterSet.czxid.toString(16)}`);
    expect(fields['pzxid']).toBe(`0x${afterSet.pzxid.toString(16)}`);
    expect(fields['ctime']).toBe(`${new Date(Number(afterSet.ctime)).toISOString()} (${afterSet.ctime})`);
    expect(fields['numChildren']).toBe('2');
    expect(fields['dataLength']).toBe('5');

    expect(await zkwire('ls', dir, '--server', server)).toEqual({ code: 0, stdout: 'a\nb\n', stderr: '' });

    const notEmpty = await zkwire('rm', dir, '--server', server);
    expect(notEmpty.code).toBe(1);
    expect(notEmpty.stderr).toBe(`zkwire rm: NOTEMPTY: delete ${dir}\n`);
    expect(await zkwire('rm', `${dir}/a`, '--server', server)).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(await zk.getChildren(dir)).toEqual(['b']);
    expect(await zkwire('rm', dir, '-r', '--server', server)).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(await zk.exists(dir)).toBeNull();
  });

  it('set and rm honour --version (BADVERSION on a mismatch)', async () => {
    const node = `${base}/versioned`;
    await zk.create(node, 'v0');
    const wrong = await zkwire('set', node, 'v1', '--version', '3', '--server', server);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toBe(`zkwire set: BADVERSION: setData ${node}\n`);
    expect((await zkwire('set', node, 'v1', '--version=0', '--server', server)).code).toBe(0);
    expect((await zkwire('rm', node, '--version', '0', '--server', server)).code).toBe(1);
    expect((await zkwire('rm', node, '--version', '1', '--server', server)).code).toBe(0);
    expect(await zk.exists(node)).toBeNull();
  });

  it('creates in every mode: sequential suffix, ephemeral gone with the session, container, ttl', async () => {
    const seq = await zkwire('create', `${base}/seq-`, 'd', '--mode', 'persistent-sequential', '--server', server);
    expect(seq.code).toBe(0);
    expect(seq.stdout).toMatch(new RegExp(`^${base}/seq-\\d{10}\\n$`));
    expect(await zk.exists(seq.stdout.trim())).not.toBeNull();

    const eph = await zkwire('create', `${base}/eph`, '--mode', 'ephemeral', '--server', server, '--json');
    expect(eph.code).toBe(0);
    const created = JSON.parse(eph.stdout) as { path: string; stat: { ephemeralOwner: string } };
    expect(created.path).toBe(`${base}/eph`);
    expect(BigInt(created.stat.ephemeralOwner)).not.toBe(0n);
    expect(eph.stderr).toMatch(/is ephemeral/);
    expect(await zk.exists(`${base}/eph`)).toBeNull();

    const ephSeq = await zkwire('create', `${base}/es-`, '--mode', 'ephemeral-sequential', '--server', server);
    expect(ephSeq.stdout).toMatch(new RegExp(`^${base}/es-\\d{10}\\n$`));

    expect((await zkwire('create', `${base}/box`, '--mode', 'container', '--server', server)).code).toBe(0);
    expect(await zk.exists(`${base}/box`)).not.toBeNull();

    expect((await zkwire('create', `${base}/ttl`, 'x', '--mode', 'ttl', '--ttl', '60000', '--server', server)).code).toBe(0);
    expect(new TextDecoder().decode((await zk.getData(`${base}/ttl`)).data)).toBe('x');

    const exists = await zkwire('create', `${base}/ttl`, '--server', server);
    expect(exists.code).toBe(1);
    expect(exists.stderr).toBe(`zkwire create: NODEEXISTS: create ${base}/ttl\n`);
  });

  it('takes a negative number as data, not as an option', async () => {
    expect((await zkwire('create', `${base}/neg`, '-1', '--server', server)).code).toBe(0);
    expect((await zkwire('get', `${base}/neg`, '--server', server)).stdout).toBe('-1\n');
  });
});

describe('--json output', () => {
  it('gives Stat longs as decimal strings, data as UTF-8 text or hex, children sorted', async () => {
    const dir = `${base}/json`;
    const created = await zkwire('--json', 'create', dir, 'héllo', '--server', server);
    expect(created.code).toBe(0);
    const createdJson = JSON.parse(created.stdout) as Record<string, unknown>;
    const stat0 = (await zk.exists(dir))!;
    expect(createdJson).toStrictEqual({ path: dir, stat: statJson(stat0) });

    const get = JSON.parse((await zkwire('get', dir, '--json', '--server', server)).stdout) as unknown;
    expect(get).toStrictEqual({ path: dir, data: 'héllo', encoding: 'utf8', stat: statJson(stat0) });

    await zk.create(`${dir}/z`, new Uint8Array([0xff, 0x00, 0x80]));
    await zk.create(`${dir}/m`);
    const bin = JSON.parse((await zkwire('get', `${dir}/z`, '--json', '--server', server)).stdout) as Record<string, unknown>;
    expect(bin).toMatchObject({ path: `${dir}/z`, data: 'ff0080', encoding: 'hex' });
    const binText = await zkwire('get', `${dir}/z`, '--server', server);
    expect(binText.stdout).toBe(`${'00000000  ff 00 80'.padEnd(60)}|...|\n`);
    expect(binText.stderr).toMatch(/not text; shown as a hex dump/);

    const set = JSON.parse((await zkwire('set', dir, 'again', '--json', '--server', server)).stdout) as unknown;
    const stat1 = (await zk.exists(dir))!;
    expect(stat1.version).toBe(1);
    expect(set).toStrictEqual({ path: dir, stat: statJson(stat1) });

    expect(JSON.parse((await zkwire('stat', dir, '--json', '--server', server)).stdout)).toStrictEqual({ path: dir, stat: statJson(stat1) });
    expect(JSON.parse((await zkwire('ls', dir, '--json', '--server', server)).stdout)).toStrictEqual({
      path: dir,
      children: ['m', 'z'],
      stat: statJson(stat1),
    });
    expect(await zkwire('rm', dir, '-r', '--json', '--server', server)).toEqual({
      code: 0,
      stdout: `${JSON.stringify({ path: dir, deleted: true })}\n`,
      stderr: '',
    });
    expect(await zk.exists(dir)).toBeNull();
  });

  it('whoami lists the identities the server sees, as a client gets them', async () => {
    const json = await zkwire('whoami', '--server', server, '--json');
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toStrictEqual({ identities: await zk.whoAmI() });
    expect(await zkwire('whoami', '--server', server)).toEqual({ code: 0, stdout: 'ip 127.0.0.1\n', stderr: '' });
  });
});

describe('errors and usage', () => {
  it('NONODE: the code name and the path on stderr, exit 1, nothing on stdout', async () => {
    const missing = `${base}/missing`;
    for (const [cmd, op] of [
      ['get', 'getData'],
      ['stat', 'exists'],
      ['ls', 'getChildren'],
      ['rm', 'delete'],
    ] as const) {
      const r = await zkwire(cmd, missing, '--server', server);
      expect(r, cmd).toMatchObject({ code: 1, stdout: '' });
      expect(r.stderr, cmd).toBe(`zkwire ${cmd}: NONODE: ${op} ${missing}\n`);
    }
    expect(await zkwire('rm', '-r', missing, '--server', server)).toEqual({ code: 1, stdout: '', stderr: `zkwire rm: NONODE: delete ${missing}\n` });
    expect((await zkwire('set', missing, 'x', '--server', server)).stderr).toBe(`zkwire set: NONODE: setData ${missing}\n`);
    expect((await zkwire('create', `${missing}/child`, '--server', server)).stderr).toBe(`zkwire create: NONODE: create ${missing}/child\n`);
  });

  it('control characters of a path are printed escaped in the error (a terminal escape cannot act)', async () => {
    const r = await zkwire('get', `${base}/a\u001b[2Jb`, '--server', server);
    expect(r.code).toBe(1);
    expect(r.stderr).not.toContain('\u001b');
    expect(r.stderr).toContain(`${base}/a\\x1b[2Jb`);
  });

  it('a bad path and an unreachable server are errors (exit 1), not crashes', async () => {
    const bad = await zkwire('get', 'no-slash', '--server', server);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^zkwire get: BAD_ARGUMENT: getData no-slash: path must start with "\/"\n$/);
    // Port 1 on loopback: refused at once, so the connect gives up at once with the reason (the default 30 s
    // session timeout would otherwise be waited out).
    const down = await zkwire('stat', '/', '--server', '127.0.0.1:1');
    expect(down.code).toBe(1);
    expect(down.stderr).toMatch(/^zkwire stat: CONNECTIONLOSS: connect: cannot connect: 127\.0\.0\.1:1: .*ECONNREFUSED/);
  });

  it('usage errors exit 2 with the usage text', async () => {
    const cases: [string[], RegExp][] = [
      [['get'], /give PATH/],
      [['get', '/a', '/b'], /unexpected argument \/b/],
      [['set', '/a'], /give DATA/],
      [['ls', '/a', '--long'], /unknown option --long/],
      [['create', '/a', '--mode', 'forever'], /--mode must be one of persistent, ephemeral/],
      [['create', '/a', '--mode', 'ttl'], /--mode ttl needs --ttl MS/],
      [['create', '/a', '--ttl', '100'], /--ttl only applies/],
      [['create', '/a', '--mode', 'ttl', '--ttl', 'soon'], /--ttl needs an integer/],
      [['rm', '/a', '-r', '--version', '1'], /cannot be combined with -r/],
      [['set', '/a', 'x', '--version'], /--version needs a value/],
      [['watch'], /give PATH/],
      [['whoami', 'me'], /unexpected argument me/],
    ];
    for (const [args, message] of cases) {
      const r = await zkwire(...args, '--server', server);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr, args.join(' ')).toMatch(message);
      expect(r.stderr).toMatch(new RegExp(`Usage: zkwire ${args[0]!} `));
    }
  });

  it.each(COMMANDS)('%s --help (after or before the command) prints its usage and exits 0', async (cmd) => {
    const after = await zkwire(cmd, '--help');
    expect(after.code).toBe(0);
    expect(after.stdout).toMatch(new RegExp(`^Usage: zkwire ${cmd} `));
    expect(after.stdout).toMatch(/Exit status/);
    expect(await zkwire('--help', cmd)).toEqual(after);
  });

  it('lists the commands in the main help', async () => {
    const help = await zkwire('--help');
    for (const cmd of COMMANDS) expect(help.stdout).toMatch(new RegExp(`^  ${cmd} +\\S`, 'm'));
  });

  it('accepts the global options before the command as well as after it', async () => {
    const node = `${base}/globals`;
    await zk.create(node, 'g');
    const before = await zkwire('--server', server, '--json', '--session-timeout', '5000', 'get', node);
    const after = await zkwire('get', node, '--session-timeout=5000', '--json', `--server=${server}`);
    expect(before.code).toBe(0);
    expect(after).toEqual(before);
    expect(JSON.parse(before.stdout)).toMatchObject({ data: 'g' });
  });

  it('with no --server, starts a throwaway server and says so', async () => {
    const r = await zkwire('whoami');
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^no --server given: started a throwaway ZooKeeper/);
    expect(r.stdout).toBe('ip 127.0.0.1\n');
  });
});

describe('watch', () => {
  it('prints an event line per change of the node, then closes cleanly on SIGTERM (exit 143)', async () => {
    const node = `${base}/watched`;
    const w = startWatch(node, '--server', server);
    await w.armed();
    await zk.create(node, 'a');
    const created = await zk.exists(node);
    const first = await w.events(1);
    // toMatchObject: a 3.9 server adds the zxid of the change, printed as a decimal string (it crashed the command).
    expect(first).toMatchObject([{ type: 'NodeCreated', state: 'SyncConnected', path: node }]);
    if ((await zooKeeperVersionOf(server)).startsWith('3.9')) expect(first[0]).toMatchObject({ zxid: String(created?.czxid) });
    await zk.setData(node, 'b');
    await zk.create(`${node}/child`);
    await zk.create(`${node}/child/grandchild`); // not an event for a non-recursive watch
    await zk.deleteRecursive(node);
    expect(await w.events(5)).toMatchObject([
      { type: 'NodeCreated', state: 'SyncConnected', path: node },
      { type: 'NodeDataChanged', state: 'SyncConnected', path: node },
      { type: 'NodeChildrenChanged', state: 'SyncConnected', path: node },
      { type: 'NodeChildrenChanged', state: 'SyncConnected', path: node },
      { type: 'NodeDeleted', state: 'SyncConnected', path: node },
    ]);
    w.child.kill('SIGTERM');
    expect(await w.exit).toEqual({ code: 143, signal: null });
    expect(w.lines).toHaveLength(5);
    expect(w.stderr()).toMatch(new RegExp(`^watching ${node} \\(persistent\\)\nzkwire watch: SIGTERM: stopping`));
  });

  it('--recursive sees descendants; SIGINT ends it with exit 130', async () => {
    const node = `${base}/tree`;
    const w = startWatch('--json', node, '--recursive', '--server', server);
    await w.armed();
    await zk.create(node);
    await zk.create(`${node}/a`);
    await zk.setData(`${node}/a`, 'x');
    expect(await w.events(3)).toMatchObject([
      { type: 'NodeCreated', state: 'SyncConnected', path: node },
      { type: 'NodeCreated', state: 'SyncConnected', path: `${node}/a` },
      { type: 'NodeDataChanged', state: 'SyncConnected', path: `${node}/a` },
    ]);
    w.child.kill('SIGINT');
    expect(await w.exit).toEqual({ code: 130, signal: null });
    expect(w.stderr()).toMatch(new RegExp(`^watching ${node} \\(persistent-recursive\\)\nzkwire watch: SIGINT: stopping`));
  });

  it('SIGHUP ends it like the others (exit 129), and its session is gone from the server', async () => {
    const node = `${base}/hup`;
    const w = startWatch(node, '--server', server);
    await w.armed();
    const before = await zk.getChildren('/zookeeper').catch(() => []); // a round trip after arming
    expect(before).toBeDefined();
    w.child.kill('SIGHUP');
    expect(await w.exit).toEqual({ code: 129, signal: null });
    expect(w.stderr()).toContain('SIGHUP: stopping');
    await zk.create(node); // no one is left to see it: the watch process printed nothing more
    expect(w.lines).toEqual([]);
  });
});
