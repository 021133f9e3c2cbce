/**
 * The built `zkwire trace` end to end: a real client through it to a real server, live lines on stdout, the summary
 * on SIGINT, and an --out capture that `zkwire decode --check` replays with no error.
 */

import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { ZooKeeperClient } from '../../src/node.js';
import { freePort } from '../../src/testing/local-server/free-port.js';
import { sharedServer } from '../harness/zookeeper.js';

const main = join(process.cwd(), 'dist/cli/main.js');

/** Starts the built CLI and resolves once it says it is listening. */
async function startTrace(args: string[]): Promise<{ child: ReturnType<typeof spawn>; stdout: string[]; stderr: string[] }> {
  expect(fs.existsSync(main), 'run `npm run build` first').toBe(true);
  const child = spawn(process.execPath, [main, 'trace', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const stdout: string[] = [];
  const stderr: string[] = [];
  createInterface({ input: child.stdout! }).on('line', (l) => stdout.push(l));
  const errLines = createInterface({ input: child.stderr! });
  await new Promise<void>((resolve, reject) => {
    errLines.on('line', (l) => {
      stderr.push(l);
      if (/listening on/.test(l)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`trace exited (${code}): ${stderr.join('\n')}`)));
  });
  return { child, stdout, stderr };
}

function exitOf(child: ReturnType<typeof spawn>): Promise<number | null> {
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

describe('zkwire trace (built CLI)', () => {
  it('prints a line per frame, a summary on SIGINT, and writes a capture that replays through zkwire decode', async () => {
    const upstream = (await sharedServer()).connectString.split(',')[0]!;
    const port = await freePort();
    const out = join(fs.mkdtempSync(join(os.tmpdir(), 'zkwire-trace-')), 'capture.jsonl');
    const { child, stdout } = await startTrace(['--listen', `127.0.0.1:${port}`, '--upstream', upstream, '--out', out]);
    try {
      const path = `/trace-cli-${randomUUID()}`;
      // No ensemble tracker: the trace is checked against exactly the ops this client makes.
      const client = await ZooKeeperClient.connect(`127.0.0.1:${port}`, { sessionTimeoutMs: 10_000, trackEnsemble: false });
      try {
        await client.create(path, new TextEncoder().encode('x'));
        await expect(client.create(path)).rejects.toMatchObject({ code: 'NODEEXISTS' });
        await client.delete(path);
      } finally {
        await client.close();
      }
      const exited = exitOf(child);
      // Wait for the close line, so the summary covers the whole session.
      const deadline = Date.now() + 10_000;
      while (!stdout.some((l) => / closed by /.test(l)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      child.kill('SIGINT');
      expect(await exited).toBe(130);

      const text = stdout.join('\n');
      expect(text).toMatch(/#1 0x[0-9a-f]+ +s2c ← CONNECTED sessionId=0x[0-9a-f]+ /);
      expect(text).toMatch(new RegExp(`#1 0x[0-9a-f]+ +c2s → xid=1 +create ${path} `));
      expect(text).toMatch(new RegExp(`s2c ← xid=2 +create ${path} NODEEXISTS \\d+\\.\\d+ms`));
      expect(text).toMatch(/^trace summary: 1 connection\(s\)/m);
      expect(text).toMatch(/^create +2 +2 +1 /m);
      expect(text).toMatch(/^errors: NODEEXISTS 1$/m);

      const replay = spawnSync(process.execPath, [main, 'decode', '--check', out], { encoding: 'utf8' });
      expect(replay.stderr).toBe('');
      expect(replay.status).toBe(0);
      const decoded = replay.stdout.trim().split('\n').map((l) => JSON.parse(l) as { op?: string; err?: string; errCode?: number });
      expect(decoded.filter((d) => d.op === 'create').map((d) => d.err ?? null)).toEqual([null, 'OK', null, 'NODEEXISTS']);
      expect(decoded.filter((d) => d.op === 'create').map((d) => d.errCode ?? null)).toEqual([null, 0, null, -110]);
    } finally {
      child.kill('SIGKILL');
      fs.rmSync(join(out, '..'), { recursive: true, force: true });
    }
  });

  it('--json prints what `zkwire decode` prints for the same traffic, each connection opening and closing, and the summary last', async () => {
    const upstream = (await sharedServer()).connectString.split(',')[0]!;
    const { child, stdout, stderr } = await startTrace(['--listen', '127.0.0.1:0', '--upstream', upstream, '--json']);
    const port = Number(/listening on 127\.0\.0\.1:(\d+)/.exec(stderr.join('\n'))![1]);
    // No ensemble tracker (as above).
    const client = await ZooKeeperClient.connect(`127.0.0.1:${port}`, { sessionTimeoutMs: 10_000, trackEnsemble: false });
    await client.exists('/');
    await client.close();
    const exited = exitOf(child);
    const deadline = Date.now() + 10_000;
    while (!stdout.some((l) => l.includes('"kind":"close"')) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    child.kill('SIGTERM');
    expect(await exited).toBe(143);
    const events = stdout.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(events[0]).toMatchObject({ kind: 'open', conn: '1', server: upstream });
    const reply = events.find((e) => e['op'] === 'exists' && e['dir'] === 's2c');
    expect(reply).toMatchObject({ kind: 'reply', conn: '1', path: '/', err: 'OK', errCode: 0, session: expect.stringMatching(/^0x/) });
    expect(typeof reply!['latencyMs']).toBe('number');
    expect(reply!['decoded']).toMatchObject({ header: { err: 0 }, body: { stat: expect.any(Object) } });
    expect(events.at(-2)).toMatchObject({ kind: 'close', conn: '1', by: expect.stringMatching(/^(client|server)$/), bytes: { c2s: expect.any(Number), s2c: expect.any(Number) } });
    expect(events.at(-1)).toMatchObject({ kind: 'summary', connections: 1, ops: { exists: { requests: 1, replies: 1 } } });
  });

  it('refuses bad addresses with exit 2', () => {
    const r = spawnSync(process.execPath, [main, 'trace', '--listen', 'nowhere', '--upstream', '127.0.0.1:2181'], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--listen: bad port/);
  });
});
