/**
 * The throwaway-server launcher behind the CLI's "no --server given" path: it serves, stops without leaving a JVM
 * or a directory behind, and the same holds when the process that started it is interrupted or exits.
 */

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { fourLetterWord, parseServerMode } from '../../src/testing/local-server/four-letter-client.js';
import { missingInstallMessage } from '../../src/testing/local-server/install.js';
import { startLocalServer } from '../../src/testing/local-server/standalone.js';
import { withServer } from '../../src/testing/local-server/with-server.js';
import { alive } from './cli-process.js';

async function until(pred: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!pred()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('startLocalServer', () => {
  it('serves on loopback with its own directory, and stop() leaves no JVM and no directory', async () => {
    const server = await startLocalServer();
    const pid = server.pid!;
    const dir = server.directory;
    expect(server.host).toBe('127.0.0.1');
    expect(parseServerMode(await server.fourLetter('srvr'))).toBe('standalone');
    expect(alive(pid)).toBe(true);
    expect(fs.existsSync(join(dir, 'zoo.cfg'))).toBe(true);
    await server.stop();
    expect(alive(pid)).toBe(false);
    expect(fs.existsSync(dir)).toBe(false);
    await expect(fourLetterWord(server.host, server.port, 'ruok', 2000)).rejects.toThrow(/ECONNREFUSED/);
  });
});

describe('withServer', () => {
  it('uses --server as given and starts nothing', async () => {
    const said: string[] = [];
    const got = await withServer({ server: 'zk1:2181,zk2:2181/app' }, { err: (t) => said.push(t) }, async (s) => s);
    expect(got).toEqual({ connectString: 'zk1:2181,zk2:2181/app', local: undefined, version: undefined });
    expect(said).toEqual([]);
  });

  it('without --server starts a throwaway server, says so, and stops it even when the command fails', async () => {
    const said: string[] = [];
    let dir = '';
    let pid = 0;
    const failure = await withServer({}, { err: (t) => said.push(t) }, async (s) => {
      dir = s.local!.directory;
      pid = s.local!.pid!;
      const [host, port] = s.connectString.split(':');
      expect(await fourLetterWord(host!, Number(port), 'ruok')).toBe('imok');
      throw new Error('the command failed');
    }).catch((e: unknown) => e);
    expect((failure as Error).message).toBe('the command failed');
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(/^no --server given: started a throwaway ZooKeeper 3\.\d+\.\d+ at 127\.0\.0\.1:\d+\n$/);
    expect(alive(pid)).toBe(false);
    expect(fs.existsSync(dir)).toBe(false);
  });

  it('tells a CLI user to pass --server when nothing is installed', () => {
    const message = missingInstallMessage({ PATH: '/nonexistent', ZOOKEEPER_HOME: '/nonexistent' }, 'cli');
    expect(message).toMatch(/^No --server given/);
    expect(message).toContain('--server host:port');
    expect(message).not.toContain('ZK_CONNECT');
  });
});

describe('a process that started a throwaway server and then ends', () => {
  const entry = join(process.cwd(), 'dist/testing/local-server/index.js');
  const script = `
    const { startLocalServer } = await import(${JSON.stringify(entry)});
    const s = await startLocalServer({ purpose: 'cli' });
    console.log(JSON.stringify({ pid: s.pid, dir: s.directory }));
    if (process.argv[1] === 'exit') setTimeout(() => process.exit(0), 50);
    else setInterval(() => {}, 1000);
  `;

  async function startChild(mode: string): Promise<{ child: ReturnType<typeof spawn>; pid: number; dir: string }> {
    expect(fs.existsSync(entry), 'run `npm run build` first').toBe(true);
    const child = spawn(process.execPath, ['--input-type=module', '-e', script, mode], { stdio: ['ignore', 'pipe', 'inherit'] });
    const lines = createInterface({ input: child.stdout! });
    const first = await new Promise<string>((resolve, reject) => {
      lines.once('line', resolve);
      child.once('exit', (code) => reject(new Error(`child exited (${code}) before starting a server`)));
    });
    const { pid, dir } = JSON.parse(first) as { pid: number; dir: string };
    expect(alive(pid)).toBe(true);
    return { child, pid, dir };
  }

  for (const how of ['SIGINT', 'SIGTERM', 'exit'] as const) {
    it(`takes the JVM and its directory with it (${how})`, async () => {
      const { child, pid, dir } = await startChild(how);
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
        child.once('exit', (code, signal) => resolve({ code, signal })),
      );
      if (how !== 'exit') child.kill(how);
      const result = await exited;
      // A signal still ends the process the way it was asked to.
      expect(result).toEqual(how === 'exit' ? { code: 0, signal: null } : { code: null, signal: how });
      await until(() => !alive(pid), 'the JVM to die');
      expect(fs.existsSync(dir)).toBe(false);
    });
  }
});
