/**
 * workerd in the runtime matrix: the packed package, bundled into a Worker, talks to a real ZooKeeper through
 * `cloudflare:sockets` and the stream-socket transport, and passes the same smoke suite as Node, Deno and Bun
 * (runtimes.test.ts) plus a mutex acquire/release and the in-memory ZooKeeper smoke (in-memory-smoke.ts).
 */

import { afterAll, beforeAll, expect, it } from 'vitest';
import { packAndInstall, type PackedPackage } from '../package/pack.js';
import { sharedServer } from '../harness/zookeeper.js';
import { prepareWorker, runWorkerd } from './workerd.js';

const EXPECTED_STEPS = ['connect', 'create', 'getData', 'setData', 'error codes', 'watch fires', 'multi', 'observe', 'delete', 'close', 'mutex', 'in-memory'];

let pkg: PackedPackage;
let workerDir: string;
let connectString: string;

beforeAll(async () => {
  pkg = await packAndInstall();
  workerDir = await prepareWorker(pkg);
  connectString = (await sharedServer()).connectString;
}, 120_000);

afterAll(() => pkg?.remove());

it('the smoke suite, a mutex and the in-memory ZooKeeper pass inside workerd', async () => {
  const run = await runWorkerd(workerDir, connectString, 25_000);
  const { runtime, transport, results } = run.output as { runtime: string; transport: string; results: Record<string, unknown> };
  expect(runtime).toMatch(/^workerd/);
  expect(transport).toBe('stream-socket');
  const failed = Object.entries(results).filter(([, outcome]) => outcome !== true);
  expect(failed, `${JSON.stringify(failed)}\n${run.stderr}`).toEqual([]);
  expect(Object.keys(results)).toEqual(EXPECTED_STEPS);
});
