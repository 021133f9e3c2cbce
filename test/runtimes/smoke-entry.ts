/**
 * Entry for one smoke run, under whichever runtime executes it (transpiled into a consumer project by
 * consumer-project.ts). Usage: `<runtime> smoke-entry.js <connectString> <transport>`, where transport is
 * `default` (what the package root gives this runtime), `node` (node:net from `zkwire/node`), `deno`
 * (Deno.connect) or `web` (the web-stream adapter over node:net sockets converted with Duplex.toWeb).
 * Prints one JSON line {runtime, transport, results}, then lets the process end on its own: a timer or
 * socket left behind by close() keeps it alive, and runtimes.test.ts reports that as a failure.
 */

import type { ClientFactory } from './smoke.js';
import { runSmoke } from './smoke.js';

/** The package root: the portable entry, or the Node entry where the `node` condition picks it. */
type Root = typeof import('../../src/index.js');
type NodeEntry = typeof import('../../src/node.js');

interface RuntimeGlobals {
  Deno?: { args: string[]; version: { deno: string } };
  Bun?: { version: string };
  process?: { argv: string[]; version: string };
}

const globals = globalThis as unknown as RuntimeGlobals;
const runtime =
  globals.Bun !== undefined
    ? `bun ${globals.Bun.version}`
    : globals.Deno !== undefined
      ? `deno ${globals.Deno.version.deno}`
      : `node ${globals.process?.version ?? '?'}`;
const args = globals.Deno !== undefined ? globals.Deno.args : (globals.process?.argv.slice(2) ?? []);
const [connectString = '', transportName = 'default'] = args;

// Specifiers in variables: TypeScript leaves them alone, and each runtime resolves them in the consumer
// project through package.json `exports`, picking its own condition.
const ROOT: string = 'zkwire';
const NODE_ENTRY: string = 'zkwire/node';

const zk = (await import(ROOT)) as Root;

async function transportOption(): Promise<{ transport?: ReturnType<Root['denoTransport']> }> {
  switch (transportName) {
    case 'default':
      return {};
    case 'node':
      return { transport: ((await import(NODE_ENTRY)) as NodeEntry).nodeTransport() };
    case 'deno':
      return { transport: zk.denoTransport() };
    case 'web': {
      // The edge-runtime adapter, fed node:net sockets turned into web streams: the whole client over it.
      const { nodeStreamSocket } = await import('../transport/node-stream-socket.js');
      return { transport: zk.streamSocketTransport((address) => nodeStreamSocket(address)) };
    }
    default:
      throw new Error(`unknown transport ${transportName}`);
  }
}

const options = await transportOption();
const factory: ClientFactory = (cs) => zk.ZooKeeperClient.connect(cs, { ...options, sessionTimeoutMs: 10_000 });
const results = await runSmoke(factory, connectString, zk.collectStats);
console.log(JSON.stringify({ runtime, transport: transportName, results }));
