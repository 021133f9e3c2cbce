/**
 * The built `zkwire trace --analyze` end to end: many real clients at once through it to a real server, periodic
 * snapshots while it runs, and on SIGINT the full report and an HTML page naming every session and lock.
 */

import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { expect, it } from 'vitest';
import { ZooKeeperClient } from '../../src/node.js';
import { InterProcessMutex } from '../../src/recipes/locks/mutex.js';
import { freePort } from '../../src/testing/local-server/free-port.js';
import { sharedServer } from '../harness/zookeeper.js';
import { zkwire } from './cli-io.js';

const main = join(process.cwd(), 'dist/cli/main.js');

it('keeps the analysis while forwarding many connections, shows snapshots, and reports on SIGINT', async () => {
  expect(fs.existsSync(main), 'run `npm run build` first').toBe(true);
  const upstream = (await sharedServer()).connectString.split(',')[0]!;
  const port = await freePort();
  const dir = fs.mkdtempSync(join(os.tmpdir(), 'zkwire-trace-analyze-'));
  const html = join(dir, 'report.html');
  const child = spawn(process.execPath, [main, 'trace', '--listen', `127.0.0.1:${port}`, '--upstream', upstream, '--analyze', '--every', '0.2', '--html', html], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stdout: string[] = [];
  const stderr: string[] = [];
  createInterface({ input: child.stdout! }).on('line', (l) => stdout.push(l));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    await new Promise<void>((resolve, reject) => {
      createInterface({ input: child.stderr! }).on('line', (l) => {
        stderr.push(l);
        if (/listening on/.test(l)) resolve();
      });
      void exited.then((code) => reject(new Error(`trace exited (${code}): ${stderr.join('\n')}`)));
    });
    const n = 12;
    const lock = `/trace-analyze-${randomUUID()}/lock`;
    const clients = await Promise.all(Array.from({ length: n }, () => ZooKeeperClient.connect(`127.0.0.1:${port}`, { sessionTimeoutMs: 10_000 })));
    const ids = clients.map((c) => c.sessionIdHex);
    // Twice over, every client takes the same mutex, all at the same time: a queue of twelve, replies of twelve
    // connections racing each other through the proxy.
    for (let round = 0; round < 2; round++) {
      await Promise.all(
        clients.map(async (c) => {
          const lease = await new InterProcessMutex(c, lock).acquire();
          await c.exists(lease.node);
          await lease.release();
        }),
      );
    }
    // A snapshot taken after all of them connected shows them.
    const seen = stdout.length;
    const deadline = Date.now() + 10_000;
    while (!stdout.slice(seen).some((l) => /^--- /.test(l)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await Promise.all(clients.map((c) => c.close()));
    child.kill('SIGINT');
    expect(await exited).toBe(130); // 128 + SIGINT, as every long-running command ends on a signal

    const text = stdout.join('\n');
    expect(text).toMatch(/^zkwire trace --analyze .* connections open \d+/m);
    expect(text).toMatch(new RegExp(`sessions: ${n} seen, ${n} open`));
    // The final report: every session, closed, and the lock with one hold per client and no violation.
    const report = text.slice(text.lastIndexOf('Capture: '));
    for (const id of ids) expect(report).toMatch(new RegExp(`^\\| ${id} .*closed`, 'm'));
    expect(report).toContain(`${lock} — Curator mutex, ${2 * n} contender node(s), ${2 * n} hold(s)`);
    expect(report).not.toContain('VIOLATION');
    const page = fs.readFileSync(html, 'utf8');
    for (const id of ids) expect(page).toContain(`data-session="${id}"`);
    expect(page).toContain(`data-lock="${lock}"`);
  } finally {
    child.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);

it('refuses analysis options without --analyze, and bad values, as usage errors', async () => {
  const html = await zkwire('trace', '--html', 'report.html');
  expect(html.code).toBe(2);
  expect(html.err).toMatch(/--html needs --analyze/);
  const every = await zkwire('trace', '--analyze', '--every', '0');
  expect(every.code).toBe(2);
  expect(every.err).toMatch(/--every must be a number/);
});
