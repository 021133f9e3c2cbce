/**
 * A test process that used the kit and is interrupted (SIGINT from Ctrl-C, SIGTERM from a runner ending its workers)
 * leaves no JVM and no temporary directory behind, and still ends by that signal. The child loads the built entry
 * (dist/testing.js) as a user's test process would, with no registry or clock passed in: the kit's own cleanup.
 */

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { alive } from '../tools/cli-process.js';

async function until(pred: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!pred()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const entry = join(process.cwd(), 'dist/testing.js');
const script = `
  const { TestingServer, TestingCluster } = await import(${JSON.stringify(entry)});
  const server = await TestingServer.start();
  const cluster = await TestingCluster.start({ size: 3 });
  console.log(JSON.stringify({ pids: [server.pid, ...cluster.servers.map((s) => s.pid)] }));
  setInterval(() => {}, 1000);
`;

describe('a test process using the kit, interrupted', () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`leaves no server process and no directory behind (${signal})`, { timeout: 90_000 }, async () => {
      expect(fs.existsSync(entry), 'run `npm run build` first').toBe(true);
      const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
        child.once('exit', (code, sig) => resolve({ code, signal: sig })),
      );
      const first = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout! }).once('line', resolve);
        void exited.then(({ code }) => reject(new Error(`child exited (${code}) before starting its servers`)));
      });
      const { pids } = JSON.parse(first) as { pids: number[] };
      expect(pids).toHaveLength(4);
      for (const pid of pids) expect(alive(pid)).toBe(true);
      // Each JVM's scratch directory, from its zoo.cfg argument: /tmp/zkwire-zk-<kind>-XXXXXX/ (a cluster member's is below).
      const dirs = pids.map((pid) => {
        const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
        const cfg = cmdline.find((a) => a.endsWith('zoo.cfg'))!;
        return cfg.slice(0, cfg.indexOf('/', cfg.indexOf('zkwire-zk-')) + 1 || undefined);
      });
      for (const dir of dirs) expect(fs.existsSync(dir), dir).toBe(true);

      child.kill(signal);
      expect(await exited).toEqual({ code: null, signal });
      await until(() => pids.every((pid) => !alive(pid)), 'every JVM to die');
      for (const dir of dirs) expect(fs.existsSync(dir), dir).toBe(false);
    });
  }
});
