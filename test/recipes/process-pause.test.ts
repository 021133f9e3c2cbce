/**
 * The second way issue #18 forces an expiry: the whole client process stopped (SIGSTOP) past its session timeout
 * while its server keeps running, as a long GC pause or a frozen VM would stop it. The worker
 * (test/recipes/paused/worker.ts) runs a LeaderSelector, a SharedValue and a SharedCount, an ephemeral PersistentNode
 * and a PersistentTtlNode, a DistributedBarrier waiter, a DistributedAtomicLong, a semaphore and a read/write lock on a
 * plain client, with no code for an expiry. After SIGCONT it must be on a new session with the selector leading
 * again, the value and count changed during the pause seen (the value's change once), its node made again, the
 * barrier waiter released when the barrier goes, and the counter and the locks working; SIGTERM then leaves nothing
 * behind. (The cache, latch, group member and
 * mutex go through the same in test/docs/service-expiry.test.ts.)
 */

import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import ts from 'typescript';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ZooKeeperClient } from '../../src/node.js';
import { startZooKeeper, type ZkServer } from '../harness/zookeeper.js';
import { assertBuilt } from '../runtimes/consumer-project.js';
import { REPO_ROOT } from '../runtimes/run-runtime.js';
import { eventually } from './helpers.js';

type Line = Record<string, unknown>;

let server: ZkServer;
let direct: ZooKeeperClient;
let project: string;
let child: ChildProcess | undefined;

beforeAll(async () => {
  assertBuilt();
  server = await startZooKeeper({ tickTime: 500 });
  direct = await ZooKeeperClient.connect(server.connectString);
  project = fs.mkdtempSync(path.join(os.tmpdir(), 'zkwire-paused-'));
  fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'zkwire-paused', private: true, type: 'module' }));
  fs.mkdirSync(path.join(project, 'node_modules'));
  fs.symlinkSync(REPO_ROOT, path.join(project, 'node_modules', 'zkwire'), 'dir');
  const source = fs.readFileSync(path.join(REPO_ROOT, 'test/recipes/paused/worker.ts'), 'utf8');
  const js = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
  fs.writeFileSync(path.join(project, 'worker.mjs'), js);
});

afterAll(async () => {
  if (child?.exitCode === null) {
    child.kill('SIGCONT');
    child.kill('SIGKILL');
  }
  await direct?.close();
  await server?.stop();
  if (project !== undefined) fs.rmSync(project, { recursive: true, force: true });
});

it('selector, shared value and count, persistent and TTL nodes, barrier, atomic long, semaphore and read/write lock carry on after the process is paused past its session timeout', { timeout: 90_000 }, async () => {
  const base = '/paused';
  await direct.mkdirp(base);
  await direct.create(`${base}/barrier`); // set: the worker's waiter waits until it goes
  const lines: Line[] = [];
  const proc = spawn(process.execPath, ['worker.mjs', server.connectString, base], { cwd: project, stdio: ['ignore', 'pipe', 'pipe'] });
  child = proc;
  let stderr = '';
  proc.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  readline.createInterface({ input: proc.stdout! }).on('line', (l) => lines.push(JSON.parse(l) as Line));
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  const last = (): Line => lines.filter((l) => 'increments' in l).at(-1) ?? {};
  const until = (what: string, check: (l: Line) => boolean): Promise<void> => eventually(() => check(last()), 20_000, `${what}; last: ${JSON.stringify(last())}; stderr: ${stderr}`);

  await until('running', (l) => l.leading === true && (l.increments as number) >= 1 && (l.leases as number) >= 1 && (l.writes as number) >= 1);
  const before = last();
  const owner = (await direct.exists(`${base}/node`))?.ephemeralOwner;

  proc.kill('SIGSTOP');
  await direct.setData(`${base}/value`, 'v1');
  await direct.setData(`${base}/count`, new Uint8Array([0, 0, 0, 5]));
  // the server expires the stopped process's session: its ephemeral node goes with it
  await eventually(async () => (await direct.exists(`${base}/node`)) === null, 20_000, 'the server expired the session');
  const seen = lines.length;
  proc.kill('SIGCONT');

  await until(
    'carrying on',
    (l) =>
      l.session !== before.session &&
      l.leading === true &&
      l.value === 'v1' &&
      l.count === 5 &&
      (l.increments as number) > (before.increments as number) &&
      (l.leases as number) > (before.leases as number) &&
      (l.writes as number) > (before.writes as number),
  );
  expect(last().barrierPassed).toBe(false);
  await direct.delete(`${base}/barrier`);
  await until('the barrier waiter released', (l) => l.barrierPassed === true);
  expect((await direct.exists(`${base}/ttl`)) !== null && (await direct.exists(`${base}/ttl/touch`)) !== null).toBe(true);
  const after = lines.slice(seen);
  expect(after.some((l) => l.event === 'LOST')).toBe(true);
  expect(after.some((l) => l.event === 'RECONNECTED' && l.newSession === true)).toBe(true);
  expect(last().valueChanges).toEqual(['v1']); // the change made during the pause, once
  expect((last().terms as number) >= 2).toBe(true); // leadership ended with the session and was taken again
  const stat = await direct.exists(`${base}/node`);
  expect(stat).not.toBeNull();
  expect(stat?.ephemeralOwner).not.toBe(owner);
  const counted = (await direct.getData(`${base}/counter`)).data;
  expect(new DataView(counted.buffer, counted.byteOffset).getBigInt64(0)).toBeGreaterThanOrEqual(BigInt(last().increments as number));

  proc.kill('SIGTERM');
  expect(await exited).toBe(0);
  expect(await direct.exists(`${base}/node`)).toBeNull();
  expect(await direct.getChildren(`${base}/election`)).toEqual([]);
  expect(await direct.getChildren(`${base}/semaphore/leases`).catch(() => [])).toEqual([]);
  expect(await direct.getChildren(`${base}/rw`).catch(() => [])).toEqual([]);
  expect(await direct.exists(`${base}/ttl`)).toBeNull();
});
