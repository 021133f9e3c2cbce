/**
 * The shell as a zkCli.sh user types in it, run directly (lines in, output out) against a real ZooKeeper: zkCli.sh's
 * names and one-letter options, "did you mean" for a slip, usage text that fits the shell, and zkCli.sh's own
 * commands (addauth, sync, getEphemerals, getAllChildrenNumber, removewatches, quotas, connect/close, status).
 */

import { randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCommands } from '../../../src/cli/commands/index.js';
import { SHELL_ONLY_COMMANDS } from '../../../src/cli/shell/commands/index.js';
import { digestId, ZooKeeperClient } from '../../../src/node.js';
import { sharedServer } from '../../harness/zookeeper.js';
import { runShellLines } from './run-shell.js';

const commands = await loadCommands();

let server: string;
let zk: ZooKeeperClient;
let base: string;

beforeAll(async () => {
  server = (await sharedServer()).connectString;
  zk = await ZooKeeperClient.connect(server);
  base = `/shell-zkcli-${randomUUID()}`;
  await zk.create(base);
});

afterAll(async () => {
  await zk?.deleteRecursive(base).catch(() => {});
  await zk?.close();
});

const data = async (path: string): Promise<string> => new TextDecoder().decode((await zk.getData(path)).data);

describe("zkCli.sh's habits", () => {
  it('create -e/-s/-c/-t make the node in that mode', async () => {
    const b = `${base}/create`;
    const run = await runShellLines(server, [
      `create ${b}`,
      `create -s ${b}/seq- one`,
      `create -e ${b}/eph two`,
      `create -e -s ${b}/es-`,
      `create -c ${b}/box`,
      `create -t 60000 ${b}/ttl three`,
      `create -s -t 60000 ${b}/ttls-`,
      `stat ${b}/eph`,
    ]);
    expect(run.code).toBe(0);
    expect(run.output).toContain(`${b}/seq-0000000000\n`);
    expect(run.output).toContain(`${b}/es-0000000002\n`);
    expect(run.output).toMatch(new RegExp(`^ephemeralOwner = 0x${run.sessionId.toString(16)}$`, 'm'));
    expect(await data(`${b}/seq-0000000000`)).toBe('one');
    expect(await data(`${b}/ttl`)).toBe('three');
    // The shell has left: its ephemerals are gone, the rest stay.
    expect((await zk.getChildren(b)).sort()).toEqual(['box', 'seq-0000000000', 'ttl', 'ttls-0000000005']);
    const box = await zk.exists(`${b}/box`);
    expect(box).not.toBeNull();
  });

  it('delete [-v], deleteall, set -v, get -s, ls -s, ls -R and stat do what zkCli.sh does', async () => {
    const b = `${base}/habits`;
    await zk.create(b, 'root');
    await zk.create(`${b}/a`, 'x');
    await zk.create(`${b}/a/deep`);
    await zk.create(`${b}/b`);
    await zk.create(`${b}/gone`);
    await zk.create(`${b}/versioned`);
    const run = await runShellLines(server, [
      `ls -R ${b}`,
      `ls -s ${b}`,
      `get -s ${b}/a`,
      `set -v 0 ${b}/a y`,
      `set -v 0 ${b}/a z`,
      `delete -v 3 ${b}/versioned`,
      `delete ${b}/gone`,
      `deleteall ${b}/a`,
      'quit',
      'ls / # not run: the shell has left',
    ]);
    expect(run.code).toBe(0);
    const out = run.output;
    expect(out).toContain([b, `${b}/a`, `${b}/b`, `${b}/gone`, `${b}/versioned`, `${b}/a/deep`].join('\n'));
    expect(out).toMatch(/^a\nb\ngone\nversioned\nczxid +=/m); // ls -s: the children, then the Stat
    expect(out).toMatch(/^x\nczxid +=/m); // get -s: the data, then the Stat
    expect(out).toContain(`zkwire set: BADVERSION: setData ${b}/a`);
    expect(out).toContain(`zkwire rm: BADVERSION: delete ${b}/versioned`);
    expect(out).not.toContain('not run');
    expect((await zk.getChildren(b)).sort()).toEqual(['b', 'versioned']);
  });

  it('a slip gets one line with the nearest command; zkCli.sh options that make no sense here say why', async () => {
    const run = await runShellLines(server, ['lss /', 'gett /', 'getEphemeral', 'deletall /x', 'frobnicate', 'trace', `get -w ${base}`, 'create -e -c /x']);
    expect(run.output.split('\n').filter((l) => l !== '')).toEqual([
      expect.stringMatching(/^Connected to /),
      'zkwire shell: lss: unknown command; did you mean ls? ("help" lists the commands)',
      'zkwire shell: gett: unknown command; did you mean get? ("help" lists the commands)',
      'zkwire shell: getEphemeral: unknown command; did you mean getEphemerals? ("help" lists the commands)',
      'zkwire shell: deletall: unknown command; did you mean deleteall? ("help" lists the commands)',
      'zkwire shell: frobnicate: unknown command ("help" lists the commands)',
      'zkwire shell: trace: not available in the shell (run it as `zkwire trace`) ("help" lists the commands)',
      'zkwire shell: get: the shell watches with "watch PATH" (persistent, printed in the background) instead of -w',
      'zkwire shell: create: -c (a container) cannot be combined with -s, -e or -t',
    ]);
  });

  it('usage shown inside the shell has no --server and no throwaway server, for every command', async () => {
    const names = [...commands.map((c) => c.name), ...SHELL_ONLY_COMMANDS.map((c) => c.name)];
    const run = await runShellLines(server, [...names.map((n) => `help ${n}`), 'get', 'help delete']);
    const out = run.output;
    expect(out).toContain('Usage: get PATH [--format F | --hex | --raw] [--json]\n');
    expect(out).toContain('Usage: setquota (-n COUNT');
    expect(out).toContain('zkwire get: give PATH\nUsage: get PATH [--format F | --hex | --raw] [--json]\n("help get" for more)\n');
    expect(out).toContain('delete [-v VERSION] PATH: runs as rm PATH [--version VERSION]');
    expect(out).not.toMatch(/--server|throwaway|Usage: zkwire/);
  });
});

describe("zkCli.sh's commands", () => {
  it('addauth makes a digest-protected node readable; sync, getEphemerals and getAllChildrenNumber answer', async () => {
    const b = `${base}/cmds`;
    await zk.create(b);
    await zk.create(`${b}/secret`, 'hidden', { acl: [{ perms: 31, id: { scheme: 'digest', id: digestId('alice', 'pw') } }] });
    await zk.create(`${b}/t`);
    await zk.create(`${b}/t/1`);
    await zk.create(`${b}/t/1/2`);
    const run = await runShellLines(server, [
      `get ${b}/secret`,
      'addauth digest alice:pw',
      `get ${b}/secret`,
      `sync ${b}`,
      `create -e ${b}/mine`,
      `create -e ${b}/t/mine-too`,
      `getEphemerals ${b}`,
      `getEphemerals ${b}/t`,
      `getAllChildrenNumber ${b}/t`,
    ]);
    const out = run.output;
    expect(out).toContain(`zkwire get: NOAUTH: getData ${b}/secret`);
    expect(out).toMatch(/^hidden$/m);
    expect(out).toContain(`synced ${b}\n`);
    expect(out).toContain(`${b}/mine\n${b}/t/mine-too\n${b}/t/mine-too\n3\n`);
  });

  it('removewatches removes the session’s watch on the server and ends the background watch', async () => {
    const b = `${base}/rw`;
    await zk.create(b);
    const run = await runShellLines(server, [`watch ${b}`, `removewatches ${b}`, `removewatches ${b}`, 'watches']);
    expect(run.output).toMatch(/\[1\] watch .* ended/);
    expect(run.output).toContain(`zkwire removewatches: NOWATCHER`);
    expect(run.output).toContain('no watches running');
  });

  it('close ends the session (commands then say so), connect opens one on the given servers', async () => {
    const b = `${base}/cc`;
    await zk.create(b);
    const [host, port] = server.split(':') as [string, string];
    const run = await runShellLines(server, [`create -e ${b}/first`, 'close', `ls ${b}`, 'status', 'close', `connect localhost:${port}`, `create -e ${b}/second`, `ls ${b}`]);
    const out = run.output;
    expect(out).toContain('closed the session; "connect HOST:PORT" opens a new one');
    expect(out).toContain('zkwire ls: CONNECTIONLOSS: the session is closed; nothing was sent. "connect HOST:PORT" opens a new one');
    expect(out).toMatch(/^\| \S+ +\| standalone +\|/m); // status needs no session: the connect string's servers
    expect(out).toContain('zkwire close: the session is closed already');
    expect(out).toMatch(new RegExp(`Connected to (localhost|${host.replace(/\./g, '\\.')}):${port}, session 0x[0-9a-f]+\\.`));
    expect(out).toMatch(/^second$/m);
    expect(out).not.toMatch(/^first$/m); // gone with the first session
    expect(await zk.getChildren(b)).toEqual([]); // and the second one's left with the shell
  });

  it('connect to servers that cannot be reached says why and keeps the current session', async () => {
    const run = await runShellLines(server, ['connect 127.0.0.1:1', 'connect', `stat ${base}`]);
    expect(run.output).toMatch(/^zkwire connect: \S+/m);
    expect(run.output).toContain('zkwire connect: give HOST:PORT[,HOST:PORT...][/chroot]');
    expect(run.output).toMatch(/^numChildren += \d+$/m);
  });

  it('status shows each member once when the output is not a terminal', async () => {
    const run = await runShellLines(server, ['status']);
    expect(run.output).toMatch(/^ensemble status at \d\d:\d\d:\d\d UTC\n\| server +\| mode +\| +zxid/m);
    expect(run.output).toMatch(new RegExp(`^\\| ${server.replace(/\./g, '\\.')} +\\| standalone +\\| +0x[0-9a-f]+ \\| +\\d+ \\|`, 'm'));
  });

  it('get shows gzip data (Curator\'s .compressed()) inflated, saying "gzip, N bytes → M bytes"', async () => {
    const path = `${base}/gz`;
    const json = JSON.stringify({ limits: { rps: 100 }, note: 'x'.repeat(200) });
    const stored = gzipSync(json);
    await zk.create(path, new Uint8Array(stored));
    const run = await runShellLines(server, [`get ${path}`, `get -s ${path}`]);
    expect(run.code).toBe(0);
    expect(run.output.match(new RegExp(`gzip, ${stored.length} bytes → ${json.length} bytes`, 'g'))).toHaveLength(2);
    expect(run.output).toContain('"rps": 100');
    expect(run.output).toMatch(new RegExp(`^dataLength\\s+= ${stored.length}$`, 'm'));
  });
});
