/**
 * The cross-runtime smoke suite (smoke.ts) against a real ZooKeeper under Node, Deno and Bun, each loading
 * the BUILT package (dist/) through package.json `exports` from a throwaway consumer project. One process
 * per runtime and transport; each prints its results as JSON and must then exit by itself.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedServer } from '../harness/zookeeper.js';
import { makeConsumerProject, type ConsumerProject } from './consumer-project.js';
import { runScript, type Runtime } from './run-runtime.js';

interface Variant {
  readonly name: string;
  readonly runtime: Runtime;
  /** Runtime arguments before the entry script. */
  readonly flags: readonly string[];
  readonly transport: 'default' | 'node' | 'deno' | 'web';
}

const DENO_FLAGS = ['run', '--allow-net', '--allow-read', '--allow-env'];

const VARIANTS: readonly Variant[] = [
  { name: 'node, default transport (node:net)', runtime: 'node', flags: [], transport: 'default' },
  { name: 'deno, default transport', runtime: 'deno', flags: DENO_FLAGS, transport: 'default' },
  { name: 'deno, node:net through Node compatibility', runtime: 'deno', flags: DENO_FLAGS, transport: 'node' },
  { name: 'deno, Deno.connect transport', runtime: 'deno', flags: DENO_FLAGS, transport: 'deno' },
  { name: 'node, web-stream transport over Duplex.toWeb', runtime: 'node', flags: [], transport: 'web' },
  { name: 'bun, default transport (node:net)', runtime: 'bun', flags: [], transport: 'default' },
  { name: 'bun, web-stream transport over Duplex.toWeb', runtime: 'bun', flags: [], transport: 'web' },
];

const EXPECTED_STEPS = ['connect', 'create', 'getData', 'setData', 'error codes', 'watch fires', 'multi', 'observe', 'delete', 'close'];

let project: ConsumerProject;
let connectString: string;

beforeAll(async () => {
  project = makeConsumerProject();
  connectString = (await sharedServer()).connectString;
});

afterAll(() => project?.remove());

describe('smoke suite on every runtime', () => {
  for (const variant of VARIANTS) {
    it(variant.name, async () => {
      const run = await runScript(
        variant.runtime,
        [...variant.flags, project.entry, connectString, variant.transport],
        // A run takes about a second; the margin is for a loaded machine, and stays under the test timeout
        // so a process that hangs after printing is reported as such.
        { cwd: project.dir, timeoutMs: 20_000 },
      );
      const { runtime, transport, results } = run.output as {
        runtime: string;
        transport: string;
        results: Record<string, unknown>;
      };
      expect(runtime.startsWith(`${variant.runtime} `)).toBe(true);
      expect(transport).toBe(variant.transport);
      // Failures first, as [step, what went wrong] pairs, so a red run says why without digging.
      const failed = Object.entries(results).filter(([, outcome]) => outcome !== true);
      expect(failed, `${runtime}: ${JSON.stringify(failed)}`).toEqual([]);
      expect(Object.keys(results)).toEqual(EXPECTED_STEPS);
    });
  }
});

/**
 * zkwire/testing through each runtime's Node compatibility (node:child_process, node:net, node:fs): a server started
 * and restarted, killSession with the client renewing, a fault proxy. Deno needs --allow-run and --allow-write to
 * start the JVM in a temp directory, and --allow-sys, without which its fs.accessSync finds no executable java.
 */
describe('the testing kit on every runtime', () => {
  const KIT_VARIANTS: readonly { runtime: Runtime; flags: readonly string[] }[] = [
    { runtime: 'node', flags: [] },
    { runtime: 'deno', flags: [...DENO_FLAGS, '--allow-run', '--allow-write', '--allow-sys'] },
    { runtime: 'bun', flags: [] },
  ];
  for (const { runtime, flags } of KIT_VARIANTS) {
    it(runtime, { timeout: 60_000 }, async () => {
      const run = await runScript(runtime, [...flags, 'test/runtimes/testing-kit.js'], { cwd: project.dir, timeoutMs: 50_000 });
      const output = run.output as { runtime: string; steps: string[] };
      expect(output.runtime.startsWith(`${runtime} `)).toBe(true);
      expect(output.steps).toEqual(['server', 'killSession', 'proxy', 'restart']);
    });
  }
});

/** The in-memory ZooKeeper under each runtime, from `zkwire/testing`: no Java, no sockets, no permissions needed. */
describe('the in-memory ZooKeeper on every runtime', () => {
  const IN_MEMORY_VARIANTS: readonly { runtime: Runtime; flags: readonly string[] }[] = [
    { runtime: 'node', flags: [] },
    { runtime: 'deno', flags: ['run'] },
    { runtime: 'bun', flags: [] },
  ];
  for (const { runtime, flags } of IN_MEMORY_VARIANTS) {
    it(runtime, async () => {
      const run = await runScript(runtime, [...flags, 'test/runtimes/in-memory-entry.js'], { cwd: project.dir, timeoutMs: 20_000 });
      const output = run.output as { runtime: string; results: Record<string, unknown> };
      expect(output.runtime.startsWith(`${runtime} `)).toBe(true);
      expect(output.results).toEqual({ create: true, 'watch fires': true, 'ephemeral goes on expiry': true, mutex: true, discovery: true });
    });
  }
});
