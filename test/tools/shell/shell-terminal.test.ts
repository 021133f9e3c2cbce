/**
 * `zkwire shell` in a real terminal (tmux) against a real ZooKeeper: path completion from the server, history
 * across runs, Ctrl-C stopping a watch and a running command without leaving the shell, Ctrl-D releasing a held
 * lock, and a server lost and back while the shell is open (the same session, and a new one after an expiry).
 * Every wait polls the screen with a bound.
 */

import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ZooKeeperClient } from '../../../src/node.js';
import { InterProcessMutex } from '../../../src/index.js';
import { sharedServer, startZooKeeper, type ZkServer } from '../../harness/zookeeper.js';
import { TmuxTerminal } from './tmux.js';

const MAIN = join(process.cwd(), 'dist/cli/main.js');

let dir: string;
let connectString: string;
let zk: ZooKeeperClient;
const terminals: TmuxTerminal[] = [];

/** The shell in a terminal, its history in `history`; resolves once its first prompt shows it connected. */
async function shell(server: string, history: string, ...extra: string[]): Promise<TmuxTerminal> {
  const t = TmuxTerminal.start(`ZKWIRE_HISTORY=${history} ${process.execPath} ${MAIN} shell --server ${server} ${extra.join(' ')}`);
  terminals.push(t);
  await t.waitFor('the first prompt', /\[zk: \S+\(connected\) 0\] $/m);
  return t;
}

/** The screen's last line that starts with a prompt (the current one). */
const promptLine = (screen: string): string => screen.split('\n').filter((l) => l.startsWith('[zk: ')).at(-1) ?? '';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'zkw-shell-'));
  connectString = (await sharedServer()).connectString;
  zk = await ZooKeeperClient.connect(connectString);
});

afterEach(() => {
  for (const t of terminals.splice(0)) t.close();
});

afterAll(async () => {
  await zk.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('zkwire shell in a terminal', () => {
  it('completes a node path from the server with Tab, and runs the completed command', async () => {
    const root = `/t-${randomUUID()}`;
    await zk.create(root);
    await zk.create(`${root}/alpha-node`, 'hello from alpha');
    await zk.create(`${root}/beta`);
    const t = await shell(connectString, join(dir, 'h-complete'));
    t.type(`get ${root}/al`);
    t.keys('Tab');
    await t.waitFor('the completed path', (s) => promptLine(s).endsWith(`get ${root}/alpha-node`));
    t.keys('Enter');
    await t.waitFor('the data', /^hello from alpha$/m);
    await t.waitFor('the next prompt', /\(connected\) 1\] $/m);
    t.type('qui');
    t.keys('Tab');
    await t.waitFor('the completed command', (s) => promptLine(s).endsWith('] quit'));
    t.keys('Enter');
    expect(await t.exited()).toBe(0);
  });

  it('Tab on a node with children adds the "/", and the next Tab goes on into it', async () => {
    const root = `/t-${randomUUID()}`;
    await zk.create(root);
    await zk.create(`${root}/alpha`);
    await zk.create(`${root}/alpha/only-child`, 'found it');
    await zk.create(`${root}/leaf`);
    const t = await shell(connectString, join(dir, 'h-slash'));
    t.type(`get ${root}/al`);
    t.keys('Tab');
    await t.waitFor('the parent completed with its slash', (s) => promptLine(s).endsWith(`get ${root}/alpha/`));
    t.keys('Tab');
    await t.waitFor('its only child completed', (s) => promptLine(s).endsWith(`get ${root}/alpha/only-child`));
    t.keys('Enter');
    await t.waitFor('the data', /^found it$/m);
    t.type(`get ${root}/le`);
    t.keys('Tab');
    await t.waitFor('a leaf completed without a slash', (s) => promptLine(s).endsWith(`get ${root}/leaf`));
  });

  it('status redraws the ensemble in place until a key is pressed, and the key is not taken as typed text', async () => {
    const t = await shell(connectString, join(dir, 'h-status'));
    t.type('status');
    t.keys('Enter');
    const first = await t.waitFor('the status view', /^\| 127\.0\.0\.1:\d+ +\| standalone +\| +0x[0-9a-f]+ \|/m);
    expect(first).toContain('press any key to stop');
    const time = (s: string): string | undefined => /ensemble status at (\d\d:\d\d:\d\d) UTC/.exec(s)?.[1];
    const shownFirst = time(first);
    // Redrawn (a new time in the title) in place: still one view on the screen, not one per refresh.
    const later = await t.waitFor('a redraw', (s) => time(s) !== undefined && time(s) !== shownFirst, 5000);
    expect(later.match(/ensemble status at/g)).toHaveLength(1);
    t.type('q');
    await t.waitFor('the prompt back', (s) => promptLine(s).endsWith('(connected) 1] '));
    t.type('ls /');
    t.keys('Enter');
    await t.waitFor('the next command run as typed', /^zookeeper$/m);
    expect(t.screen()).not.toMatch(/qls|unknown command/);
  });

  it('recalls the previous run’s command with Up after a restart', async () => {
    const history = join(dir, 'h-restart');
    const root = `/t-${randomUUID()}`;
    await zk.create(root, 'kept');
    const first = await shell(connectString, history);
    first.type(`stat ${root} --json`);
    first.keys('Enter');
    await first.waitFor('the stat', /"dataLength":4/);
    first.keys('C-d');
    expect(await first.exited()).toBe(0);
    expect(readFileSync(history, 'utf8')).toBe(`stat ${root} --json\n`);

    const second = await shell(connectString, history);
    second.keys('Up');
    await second.waitFor('the recalled command', (s) => promptLine(s).endsWith(`] stat ${root} --json`));
    second.keys('Enter');
    await second.waitFor('its output again', /"dataLength":4/);
  });

  it('Ctrl-C stops a background watch and a running command; the shell stays', async () => {
    const root = `/t-${randomUUID()}`;
    await zk.create(root, 'v0');
    const t = await shell(connectString, join(dir, 'h-watch'));
    t.type(`watch ${root}`);
    t.keys('Enter');
    await t.waitFor('the watch armed', new RegExp(`^watching ${root} \\(persistent\\)$`, 'm'));
    t.type('ls /'); // typed, not entered: an event must not lose it
    await zk.setData(root, 'v1');
    await t.waitFor('the event', new RegExp(`"type":"NodeDataChanged".*"path":"${root}"`));
    await t.waitFor('the typed text kept under the event', (s) => promptLine(s).endsWith('] ls /'));
    t.keys('C-c'); // clears the typed line
    await t.waitFor('an empty prompt', (s) => promptLine(s).endsWith('] '));
    t.keys('C-c'); // stops the watch
    await t.waitFor('the watch stopped', /\^C stopped 1 watch$/m);
    await zk.setData(root, 'v2');

    // A lock held elsewhere: the shell's lock waits until Ctrl-C cancels it, leaving nothing behind.
    const held = await new InterProcessMutex(zk, `${root}/lock`).acquire();
    t.type(`lock ${root}/lock`);
    t.keys('Enter');
    await expectEventually(async () => (await zk.getChildren(`${root}/lock`)).length === 2);
    t.keys('C-c');
    await t.waitFor('the cancel', /^zkwire lock: cancelled$/m);
    await t.waitFor('the prompt back', /\(connected\) 2\] $/m);
    expect(await zk.getChildren(`${root}/lock`)).toHaveLength(1);
    await held.release();
    expect(t.exitStatus()).toBeUndefined();
    t.type(`get ${root}`);
    t.keys('Enter');
    const screen = await t.waitFor('a command working after it all', /^v2$/m);
    // The server sends a session its events before later replies: no event for v2 came, the watch is gone.
    expect(screen.match(/NodeDataChanged/g)).toHaveLength(1);
  });

  it('Ctrl-D while holding a lock releases it, closes the session and exits 0', async () => {
    const root = `/t-${randomUUID()}`;
    await zk.create(root);
    const t = await shell(connectString, join(dir, 'h-lock'));
    t.type(`lock ${root}/lock --hold 600000`);
    t.keys('Enter');
    await t.waitFor('the lock held', /^acquired \S+ fencingToken=/m);
    t.keys('C-d');
    expect(await t.exited()).toBe(0);
    expect(t.screen()).toMatch(/^released \S+$/m);
    expect(await zk.getChildren(`${root}/lock`)).toEqual([]);
  });
});

describe('zkwire shell with its server lost and back', () => {
  let server: ZkServer;
  beforeAll(async () => {
    // tickTime 500: sessions may be as short as 1 s, so an expiry takes about a second to come.
    server = await startZooKeeper({ tickTime: 500 });
  });
  afterAll(async () => {
    await server.stop();
  });

  it('shows the state in the prompt, fails commands clearly, and works again once the server is back', async () => {
    const t = await shell(server.connectString, join(dir, 'h-lost'), '--session-timeout', '30000');
    await server.kill();
    await t.waitFor('the prompt showing the link down', (s) => /\((disconnected|connecting)\) 0\] $/.test(promptLine(s)));
    t.type('ls /');
    t.keys('Enter');
    await t.waitFor('a clear failure', /^zkwire ls: CONNECTIONLOSS: not connected \(the session is (disconnected|connecting)\)/m);
    await server.restart();
    await t.waitFor('the prompt showing it connected', (s) => /\(connected\) 1\] $/.test(promptLine(s)), 20_000);
    t.type('create /back-again');
    t.keys('Enter');
    await t.waitFor('the command working', /^\/back-again$/m);
  });

  it('after the session expired while the server was away, says so and the prompt shows the new session', async () => {
    const t = await shell(server.connectString, join(dir, 'h-expiry'), '--session-timeout', '1000');
    await server.kill();
    // The client gives the session up after 4T/3 without a server, and says so at once.
    await t.waitFor('the expiry said', /^zkwire shell: session expired/m);
    await t.waitFor('the prompt showing no session yet', (s) => /\((connecting|disconnected|expired)\) 0\] $/.test(promptLine(s)));
    await server.restart();
    await t.waitFor('the new session said', /^zkwire shell: new session 0x[0-9a-f]+ on /m, 20_000);
    await t.waitFor('the prompt showing it connected', (s) => /\(connected\) 0\] $/.test(promptLine(s)));
    t.type('whoami');
    t.keys('Enter');
    await t.waitFor('a command on the new session', /^ip 127\.0\.0\.1$/m);
  });
});

/** Polls `check` until it holds, within 10 s. */
async function expectEventually(check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met within 10 s');
    await new Promise((r) => setTimeout(r, 25));
  }
}
