/**
 * The Deno.connect transport (src/transport/deno.ts), run inside Deno against a real ZooKeeper. Deno runs
 * the TypeScript sources directly (`--sloppy-imports` maps our `.js` import suffixes to the `.ts` files),
 * so this needs no build. The checks themselves live in stream-checks.ts, portable across runtimes.
 */

import { createServer } from 'node:net';
import { beforeAll, expect, it } from 'vitest';
import { sharedServer } from '../harness/zookeeper.js';
import { runScript } from '../runtimes/run-runtime.js';

let host = '';
let port = 0;

beforeAll(async () => {
  const { connectString } = await sharedServer();
  const first = connectString.split(',')[0] ?? '';
  const colon = first.lastIndexOf(':');
  host = first.slice(0, colon);
  port = Number(first.slice(colon + 1));
});

it('the Deno transport passes the stream checks under Deno', async () => {
  const closedPort = await unusedPort();
  const run = await runScript('deno', [
    'run',
    '--sloppy-imports',
    '--allow-net',
    'test/transport/deno-probe.ts',
    host,
    String(port),
    String(closedPort),
  ]);
  const { runtime, results } = run.output as { runtime: string; results: Record<string, unknown> };
  expect(runtime).toMatch(/^deno \d/);
  expect(Object.keys(results).length).toBeGreaterThanOrEqual(5);
  expect(results).toEqual(Object.fromEntries(Object.keys(results).map((name) => [name, true])));
});

async function unusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const p = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return p;
}
