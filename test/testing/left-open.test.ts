/**
 * A test that forgets to close the kit's server must not hang its runner (issue #29 item 3): a child `node` process
 * that creates an unused InMemoryZooKeeper, from the built package as a user imports it, exits by itself; the
 * server's timers (its 60 s container check among them) are unref'd.
 */

import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, it } from 'vitest';
import { assertBuilt } from '../runtimes/consumer-project.js';
import { REPO_ROOT } from '../runtimes/run-runtime.js';
import { connect } from '../../src/index.js';
import { InMemoryZooKeeper } from '../../src/testing/in-memory/server.js';

/** Runs `source` as an ES module in a child node; resolves with its exit code, or 'hung' after `ms`. */
function runChild(source: string, ms: number): Promise<number | null | 'hung'> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', source], { stdio: 'ignore' });
    const deadline = setTimeout(() => {
      child.kill('SIGKILL');
      resolve('hung');
    }, ms);
    child.on('exit', (code) => {
      clearTimeout(deadline);
      resolve(code);
    });
  });
}

it('a process with an InMemoryZooKeeper nobody closed exits by itself', { timeout: 30_000 }, async () => {
  assertBuilt();
  const testing = pathToFileURL(join(REPO_ROOT, 'dist', 'testing.js')).href;
  const source = `import { InMemoryZooKeeper } from ${JSON.stringify(testing)};\nnew InMemoryZooKeeper();\n`;
  expect(await runChild(source, 15_000)).toBe(0);
});

it('openSessions() names the sessions a test left open, in hex, and is empty once they are closed', async () => {
  const server = new InMemoryZooKeeper();
  try {
    expect(server.openSessions()).toEqual([]);
    const zk = await connect(server.connectString, { transport: server.transport, sessionTimeoutMs: 10_000 });
    expect(server.openSessions()).toEqual([`0x${zk.sessionId.toString(16)}`]);
    await zk.close();
    expect(server.openSessions()).toEqual([]);
  } finally {
    await server.close();
  }
});
