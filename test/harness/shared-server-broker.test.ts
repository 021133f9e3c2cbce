/**
 * The run's shared server (shared-server-broker.ts, global-setup.ts): started once, at the first file's request, in
 * vitest's main process; nothing started when nobody asks, so a unit run needs no Java.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, inject, it } from 'vitest';
import { fourLetterWord } from '../../src/testing/local-server/four-letter-client.js';
import type { ServerProcess } from '../../src/testing/local-server/server-process.js';
import { askSharedServerBroker, startSharedServerBroker } from './shared-server-broker.js';
import { sharedServer } from './zookeeper.js';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** What the broker uses of a server: its address, its pid and stop(); each stop() is counted. */
function fakeServer(port: number): ServerProcess & { stops: number } {
  const server = {
    connectString: `127.0.0.1:${port}`,
    pid: 40_000 + port,
    stops: 0,
    stop: async () => {
      server.stops++;
    },
  };
  return server as unknown as ServerProcess & { stops: number };
}

describe('the shared-server broker', () => {
  it('starts nothing until asked, then one server for every question, stopped by close()', async () => {
    const server = fakeServer(1);
    let starts = 0;
    const broker = await startSharedServerBroker(async () => {
      starts++;
      return server;
    });
    expect(starts).toBe(0);
    expect(broker.pid).toBeUndefined();
    const answers = await Promise.all([askSharedServerBroker(broker.address), askSharedServerBroker(broker.address)]);
    expect(answers).toEqual(['127.0.0.1:1', '127.0.0.1:1']);
    expect(await askSharedServerBroker(broker.address)).toBe('127.0.0.1:1');
    expect(starts).toBe(1);
    expect(broker.pid).toBe(40_001);
    await broker.close();
    expect(server.stops).toBe(1);
    await expect(askSharedServerBroker(broker.address)).rejects.toThrow(/broker at 127\.0\.0\.1:\d+ did not answer/);
  });

  it('reports a failed start to the file that asked, and tries again at the next question', async () => {
    const server = fakeServer(2);
    let starts = 0;
    const broker = await startSharedServerBroker(async () => {
      if (++starts === 1) throw new Error('zkwire tests need a real ZooKeeper server, and none was found.');
      return server;
    });
    try {
      await expect(askSharedServerBroker(broker.address)).rejects.toThrow('zkwire tests need a real ZooKeeper server');
      expect(broker.pid).toBeUndefined();
      expect(await askSharedServerBroker(broker.address)).toBe('127.0.0.1:2');
      expect(starts).toBe(2);
    } finally {
      await broker.close();
    }
    expect(server.stops).toBe(1);
  });

  it('close() during a start waits for it and stops the server it made', async () => {
    const server = fakeServer(3);
    let finish: (() => void) | undefined;
    const broker = await startSharedServerBroker(() => new Promise((resolve) => (finish = () => resolve(server))));
    const asked = askSharedServerBroker(broker.address);
    // The start runs once the broker has the question: wait for that, not for time.
    await expect.poll(() => finish !== undefined, { timeout: 10_000, interval: 10 }).toBe(true);
    const closed = broker.close();
    finish?.();
    await closed;
    expect(server.stops).toBe(1);
    expect(await asked).toBe('127.0.0.1:3');
  });
});

describe('sharedServer() in a vitest run', () => {
  it("is the global setup's server, serving, the same for every caller", async () => {
    const broker = inject('zkwireSharedServerBroker');
    expect(broker).toBeDefined();
    const [a, b] = await Promise.all([sharedServer(), sharedServer()]);
    expect(a.connectString).toBe(b.connectString);
    expect(a.connectString).toBe(await askSharedServerBroker(broker as string));
    expect(await fourLetterWord(a.host, a.port, 'ruok')).toBe('imok');
  });

  it('a run of unit tests passes with no Java and no ZooKeeper here: the shared server is never started', async () => {
    // PATH holds node only, so neither java nor the system's jars can be found (ZOOKEEPER_JAR_DIR points nowhere).
    const bin = fs.mkdtempSync(path.join(os.tmpdir(), 'zkwire-nojava-'));
    try {
      fs.symlinkSync(process.execPath, path.join(bin, 'node'));
      const env: NodeJS.ProcessEnv = { HOME: os.tmpdir(), PATH: bin, ZOOKEEPER_JAR_DIR: path.join(bin, 'none'), CI: '1' };
      const vitest = path.join(REPO_ROOT, 'node_modules', 'vitest', 'vitest.mjs');
      const run = await new Promise<{ code: number | null; output: string }>((resolve) => {
        const child = execFile(process.execPath, [vitest, 'run', 'test/protocol/hex.test.ts'], { cwd: REPO_ROOT, env }, (_e, stdout, stderr) =>
          resolve({ code: child.exitCode, output: stdout + stderr }),
        );
      });
      expect(run.output).toContain('zkwire tests need a real ZooKeeper server, and none was found.');
      expect(run.output).toMatch(/\d+ passed, 0 failed/);
      expect(run.code, run.output).toBe(0);
    } finally {
      fs.rmSync(bin, { recursive: true, force: true });
    }
  }, 60_000);
});
