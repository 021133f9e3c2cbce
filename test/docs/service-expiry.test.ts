/**
 * The service example of docs/watches-and-sessions.md, run as the program it is, survives a session expiry with no
 * code for it: its process is stopped (SIGSTOP) for longer than its session timeout, as a long GC pause would stop
 * it, while a Java Curator LeaderLatch takes over its election and its configuration changes. After SIGCONT it
 * must report LOST then RECONNECTED with a new session, see the new configuration, be a member again, take the lock
 * again and rejoin the election behind Curator, then lead once Curator leaves; on SIGTERM it exits 0 and leaves
 * no node behind.
 */

import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import ts from 'typescript';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ZooKeeperClient } from '../../src/node.js';
import { startCuratorPeer, type CuratorPeer } from '../interop/curator-peer.js';
import { startZooKeeper, type ZkServer } from '../harness/zookeeper.js';
import { eventually } from '../recipes/helpers.js';
import { assertBuilt } from '../runtimes/consumer-project.js';
import { REPO_ROOT } from '../runtimes/run-runtime.js';
import { extract } from './markdown-examples.js';

type Line = Record<string, unknown>;

let server: ZkServer;
let direct: ZooKeeperClient;
let curator: CuratorPeer;
let project: string;
let child: ChildProcess | undefined;

beforeAll(async () => {
  assertBuilt();
  // tickTime 500: the server notices the expiry within half a second of the 4 s session timeout
  server = await startZooKeeper({ tickTime: 500 });
  [direct, curator] = await Promise.all([ZooKeeperClient.connect(server.connectString), startCuratorPeer(server.connectString)]);
  project = fs.mkdtempSync(path.join(os.tmpdir(), 'zkwire-service-'));
  fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'zkwire-service', private: true, type: 'module' }));
  fs.mkdirSync(path.join(project, 'node_modules'));
  fs.symlinkSync(REPO_ROOT, path.join(project, 'node_modules', 'zkwire'), 'dir');
  const example = extract('docs/watches-and-sessions.md').find((e) => e.source.startsWith('// service.ts'));
  if (example === undefined) throw new Error('docs/watches-and-sessions.md has no block starting with // service.ts');
  const js = ts.transpileModule(example.source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
  fs.writeFileSync(path.join(project, 'service.mjs'), js);
});

afterAll(async () => {
  if (child?.exitCode === null) {
    child.kill('SIGCONT');
    child.kill('SIGKILL');
  }
  await Promise.all([direct?.close(), curator?.close()]);
  await server?.stop();
  if (project !== undefined) fs.rmSync(project, { recursive: true, force: true });
});

it('the service of docs/watches-and-sessions.md survives a process pause past its session timeout', { timeout: 90_000 }, async () => {
  const lines: Line[] = [];
  const proc = spawn(process.execPath, ['service.mjs', server.connectString, 'service-1'], { cwd: project, stdio: ['ignore', 'pipe', 'pipe'] });
  child = proc;
  let stderr = '';
  proc.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  readline.createInterface({ input: proc.stdout! }).on('line', (l) => lines.push(JSON.parse(l) as Line));
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  const last = (): Line | undefined => lines.filter((l) => 'locks' in l).at(-1);
  const until = (what: string, check: (l: Line) => boolean): Promise<void> => eventually(() => check(last() ?? {}), 20_000, `${what}; stderr: ${stderr}`);

  await until('leading, a member, locking', (l) => l.leader === true && (l.locks as number) >= 1 && JSON.stringify(l.members) === '["service-1"]');
  await direct.setData('/demo/config', 'v1');
  await until('config v1', (l) => l.config === 'v1');
  const n = await curator.latchStart('/demo/leader', 'java');
  await eventually(async () => (await curator.latchOurPath(n)) !== undefined, 10_000, 'Curator joined');
  const before = last() as Line;

  proc.kill('SIGSTOP');
  await direct.setData('/demo/config', 'v2');
  // Curator can lead only once the server has expired the paused service's session
  expect(await curator.latchAwait(n, 20_000)).toBe(true);
  expect(await direct.getChildren('/demo/members')).toEqual([]);
  const seen = lines.length;
  proc.kill('SIGCONT');

  await until('current again', (l) => l.config === 'v2' && JSON.stringify(l.members) === '["service-1"]' && (l.locks as number) > (before.locks as number) && l.session !== before.session);
  const after = lines.slice(seen);
  const events = after.map((l) => l.event).filter((e) => e !== undefined);
  expect(events.indexOf('LOST')).toBeGreaterThanOrEqual(0);
  expect(after.find((l) => l.event === 'RECONNECTED' && l.newSession === true)).toBeDefined();
  expect(events.indexOf('LOST')).toBeLessThan(events.lastIndexOf('RECONNECTED'));
  expect(after.some((l) => 'locks' in l && l.leader === true)).toBe(false); // never leads while Curator does
  expect(await curator.latchParticipants(n)).toEqual([
    { id: 'java', isLeader: true },
    { id: 'service-1', isLeader: false },
  ]);

  await curator.latchClose(n);
  await until('leading again', (l) => l.leader === true);
  proc.kill('SIGTERM');
  expect(await exited).toBe(0);
  for (const dir of ['/demo/members', '/demo/leader', '/demo/lock']) {
    expect(await direct.getChildren(dir).catch(() => [])).toEqual([]);
  }
});
