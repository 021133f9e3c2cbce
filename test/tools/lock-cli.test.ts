/**
 * `zkwire lock` against a real ZooKeeper. Acquire + release with JSON output; a second process times out (exit 2)
 * while the first holds; signals release (or give up the wait); and a lock lost while held (the link paused by the
 * fault proxy past the read timeout) is reported at once with exit 3.
 *
 * The built CLI runs in processes of its own wherever a lock is held across processes or a signal stops it; single
 * runs that only acquire and release, and usage errors, run in-process through runCli (what main.ts calls).
 */

import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZooKeeperClient } from '../../src/node.js';
import { startFaultProxy, type FaultProxy } from '../harness/fault-proxy.js';
import { sharedServer } from '../harness/zookeeper.js';
import { jsonLines, zkwireWithInput } from './cli-io.js';

const MAIN = join(process.cwd(), 'dist/cli/main.js');

interface Run {
  child: ChildProcessWithoutNullStreams;
  /** Resolves with the next stdout line parsed as JSON. */
  nextLine(): Promise<Record<string, unknown>>;
  exit: Promise<{ code: number | null; stderr: string; lines: Record<string, unknown>[] }>;
}

function zkwire(args: string[]): Run {
  const child = spawn(process.execPath, [MAIN, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  const lines: Record<string, unknown>[] = [];
  const waiting: ((l: Record<string, unknown>) => void)[] = [];
  let read = 0;
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  createInterface({ input: child.stdout }).on('line', (text) => {
    const parsed = JSON.parse(text) as Record<string, unknown>;
    lines.push(parsed);
    waiting.shift()?.(parsed);
  });
  const exit = new Promise<{ code: number | null; stderr: string; lines: Record<string, unknown>[] }>((resolve) =>
    child.on('close', (code) => resolve({ code, stderr, lines })),
  );
  return {
    child,
    exit,
    nextLine() {
      const i = read++;
      if (i < lines.length) return Promise.resolve(lines[i]!);
      return new Promise((resolve, reject) => {
        waiting.push(resolve);
        void exit.then((e) => reject(new Error(`zkwire exited ${e.code} before printing line ${i + 1}: ${e.stderr}`)));
      });
    },
  };
}

/** A `zkwire lock` run in-process to its end: its exit status, stderr, and stdout's JSON lines. */
async function inProcess(args: string[]): Promise<{ code: number; stderr: string; lines: Record<string, unknown>[] }> {
  const { code, out, err } = await zkwireWithInput(args);
  return { code, stderr: err, lines: jsonLines(out) as Record<string, unknown>[] };
}

let connectString: string;
beforeAll(async () => {
  connectString = (await sharedServer()).connectString;
});

describe('zkwire lock', () => {
  it('acquires, reports node, fencing token and wait as JSON, releases, exits 0 and leaves no node', async () => {
    const path = `/lock-cli-${randomUUID()}`;
    const { code, lines, stderr } = await inProcess(['lock', path, '--server', connectString, '--json', '--hold', '50']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(lines).toHaveLength(2);
    const [acquired, released] = lines;
    expect(acquired!['acquired']).toBe(true);
    expect(acquired!['node']).toMatch(new RegExp(`^${path}/_c_[0-9a-f-]{36}-lock-\\d{10}$`));
    expect(BigInt(acquired!['fencingToken'] as string)).toBeGreaterThan(0n);
    expect(typeof acquired!['waitedMs']).toBe('number');
    expect(released).toEqual({ released: true });
    await using zk = await ZooKeeperClient.connect(connectString);
    expect(await zk.getChildren(path).catch(() => [])).toEqual([]);
  });

  for (const kind of ['semaphore-mutex', 'read', 'write', 'semaphore'] as const) {
    it(`--kind ${kind} acquires and releases`, async () => {
      const path = `/lock-cli-${randomUUID()}`;
      const { code, lines } = await inProcess(['lock', path, '--kind', kind, '--server', connectString, '--json']);
      expect(code).toBe(0);
      expect(lines[0]!['acquired']).toBe(true);
      expect(String(lines[0]!['node'])).toContain(kind === 'read' ? '__READ__' : kind === 'write' ? '__WRIT__' : 'lease-');
      expect(lines[1]).toEqual({ released: true });
    });
  }

  // The holders hold until stopped, not for a fixed time a loaded machine could outlast before the second process
  // has even started (then it acquired, and exited 0): a finished --hold's exit 0 is the first test's.
  it('a second process times out with {acquired:false} and exit 2 while the first holds; the first then releases', async () => {
    const path = `/lock-cli-${randomUUID()}`;
    const holder = zkwire(['lock', path, '--server', connectString, '--json', '--hold', '600000']);
    expect((await holder.nextLine())['acquired']).toBe(true);
    const second = await zkwire(['lock', path, '--server', connectString, '--json', '--timeout', '300']).exit;
    expect(second.code).toBe(2);
    expect(second.lines).toHaveLength(1);
    expect(second.lines[0]!['acquired']).toBe(false);
    holder.child.kill('SIGTERM');
    const first = await holder.exit;
    expect(first.code).toBe(143);
    expect(first.lines[1]).toEqual({ released: true });
    // The timed-out attempt left no node behind.
    await using zk = await ZooKeeperClient.connect(connectString);
    expect(await zk.getChildren(path).catch(() => [])).toEqual([]);
  });

  it('two semaphore leases admit two holders and time out the third', async () => {
    const path = `/lock-cli-${randomUUID()}`;
    const args = ['lock', path, '--kind', 'semaphore', '--leases', '2', '--server', connectString, '--json'];
    const a = zkwire([...args, '--hold', '600000']);
    const b = zkwire([...args, '--hold', '600000']);
    expect((await a.nextLine())['acquired']).toBe(true);
    expect((await b.nextLine())['acquired']).toBe(true);
    const c = await zkwire([...args, '--timeout', '300']).exit;
    expect(c.code).toBe(2);
    expect(c.lines).toEqual([expect.objectContaining({ acquired: false })]);
    a.child.kill('SIGTERM');
    b.child.kill('SIGTERM');
    for (const holder of [await a.exit, await b.exit]) {
      expect(holder.code).toBe(143);
      expect(holder.lines[1]).toEqual({ released: true });
    }
  });

  it('with no --server it runs against a throwaway local ZooKeeper and says so on stderr', async () => {
    const r = await inProcess(['lock', '/cli-local', '--json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('no --server given');
    expect(r.lines.map((l) => Object.keys(l)[0])).toEqual(['acquired', 'released']);
  });

  it('usage errors exit 2 with the reason on stderr', async () => {
    const bad = await inProcess(['lock', '/x', '--kind', 'spinlock', '--server', connectString]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--kind must be one of');
    const noPath = await inProcess(['lock', '--server', connectString]);
    expect(noPath.code).toBe(2);
    expect(noPath.stderr).toContain('PATH');
  });

  it('a path the lock recipes refuse is a failure with a typed reason, not a crash', async () => {
    const r = await inProcess(['lock', 'relative/path', '--server', connectString, '--json']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('BAD_ARGUMENT');
  });
});

/** Resolves once `path` has `n` children (seen by a separate client). */
async function children(zk: ZooKeeperClient, path: string, n: number): Promise<string[]> {
  for (;;) {
    const list = await zk.getChildren(path).catch(() => [] as string[]);
    if (list.length === n) return list;
    await zk.sync(path).catch(() => {});
  }
}

describe('zkwire lock: long timeouts and signals', () => {
  it('--hold 99999999999 holds and --timeout 99999999999999 waits; SIGTERM releases (143) and the waiter then acquires', async () => {
    const path = `/lock-cli-${randomUUID()}`;
    await using zk = await ZooKeeperClient.connect(connectString);
    const holder = zkwire(['lock', path, '--server', connectString, '--json', '--hold', '99999999999']);
    const held = await holder.nextLine();
    expect(held['acquired']).toBe(true);
    const waiter = zkwire(['lock', path, '--server', connectString, '--json', '--timeout', '99999999999999']);
    let waiterExited = false;
    let holderExited = false;
    void waiter.exit.then(() => (waiterExited = true));
    void holder.exit.then(() => (holderExited = true));
    await children(zk, path, 2);
    // Real work while both wait: round trips through the server the two processes talk to.
    for (let i = 0; i < 20; i++) await zk.setData(path, `tick ${i}`);
    await zk.sync(path);
    expect([holderExited, waiterExited]).toEqual([false, false]);
    expect(await zk.exists(held['node'] as string)).not.toBeNull();
    holder.child.kill('SIGTERM');
    const first = await holder.exit;
    expect(first.code).toBe(143);
    expect(first.lines[1]).toEqual({ released: true });
    expect(first.stderr).toContain('SIGTERM');
    expect((await waiter.nextLine())['acquired']).toBe(true);
    const second = await waiter.exit;
    expect(second.code).toBe(0);
    expect(second.lines[1]).toEqual({ released: true });
    expect(await children(zk, path, 0)).toEqual([]);
  });

  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const)('%s while holding releases, closes the session and exits %i, leaving no node', async (sig, exitCode) => {
    const path = `/lock-cli-${randomUUID()}`;
    const holder = zkwire(['lock', path, '--server', connectString, '--json', '--hold', '600000']);
    const held = await holder.nextLine();
    expect(held['acquired']).toBe(true);
    holder.child.kill(sig);
    const { code, lines, stderr } = await holder.exit;
    expect(code).toBe(exitCode);
    expect(lines[1]).toEqual({ released: true });
    expect(stderr).toContain(`${sig}: stopping`);
    await using zk = await ZooKeeperClient.connect(connectString);
    expect(await zk.getChildren(path)).toEqual([]);
    expect(await zk.getEphemerals(path)).toEqual([]);
  });

  it('SIGINT while waiting gives up the wait (130) and leaves no waiting node', async () => {
    const path = `/lock-cli-${randomUUID()}`;
    await using zk = await ZooKeeperClient.connect(connectString);
    const holder = zkwire(['lock', path, '--server', connectString, '--json', '--hold', '600000']);
    expect((await holder.nextLine())['acquired']).toBe(true);
    const waiter = zkwire(['lock', path, '--server', connectString, '--json']);
    await children(zk, path, 2);
    waiter.child.kill('SIGINT');
    const w = await waiter.exit;
    expect(w.code).toBe(130);
    expect(w.lines).toEqual([{ acquired: false, interrupted: 'SIGINT' }]);
    expect(await children(zk, path, 1)).toHaveLength(1);
    holder.child.kill('SIGINT');
    expect((await holder.exit).code).toBe(130);
    expect(await zk.getChildren(path)).toEqual([]);
  });
});

describe('zkwire lock: lock lost while held', () => {
  // The shared server behind a proxy of this describe's own: only the links through the proxy stall.
  let proxy: FaultProxy;
  beforeAll(async () => {
    const [host, port] = connectString.split(',')[0]!.split(':') as [string, string];
    proxy = await startFaultProxy({ host, port: Number(port) });
  });
  afterAll(async () => {
    await proxy?.close();
  });

  it('prints {lost:true, reason} at once and exits 3 when the link stalls past the read timeout', async () => {
    const path = `/lock-cli-${randomUUID()}`;
    const run = zkwire(['lock', path, '--server', proxy.connectString, '--session-timeout', '4000', '--hold', '120000', '--json']);
    expect((await run.nextLine())['acquired']).toBe(true);
    proxy.pause();
    const lost = await run.nextLine();
    expect(lost['lost']).toBe(true);
    // The default policy ("suspended") fires on the lost connection: another client may hold the lock now.
    expect(lost['reason']).toBe('CONNECTIONLOSS');
    // The code reads once: "CONNECTIONLOSS: lock /path: lock lost: …", never "CONNECTIONLOSS: CONNECTIONLOSS (lock …)".
    expect(lost['message']).toMatch(/^CONNECTIONLOSS: lock \//);
    expect((lost['message'] as string).split('CONNECTIONLOSS')).toHaveLength(2);
    const { code, lines } = await run.exit;
    expect(code).toBe(3);
    expect(lines.some((l) => l['released'] === true)).toBe(false);
    proxy.pass();
  });

  it('SIGINT with the server paused says what it waits for, never claims the release, exits 130 in bounded time', async () => {
    const path = `/lock-cli-${randomUUID()}`;
    const run = zkwire(['lock', path, '--server', proxy.connectString, '--session-timeout', '4000', '--hold', '600000', '--json']);
    expect((await run.nextLine())['acquired']).toBe(true);
    proxy.pause();
    run.child.kill('SIGINT');
    const { code, lines, stderr } = await run.exit;
    proxy.pass();
    expect(code).toBe(130);
    expect(stderr).toMatch(/waiting for the delete of .* to reach the server/);
    expect(lines.some((l) => l['released'] === true)).toBe(false);
    expect(lines[1]).toMatchObject({ released: false, error: { code: expect.any(String) } });
    // On the server: the node goes (with the session) — nothing is left once the session is gone.
    await using zk = await ZooKeeperClient.connect(connectString);
    for (;;) {
      if ((await zk.getChildren(path).catch(() => [])).length === 0) break;
      await zk.sync(path);
    }
    expect(await zk.getChildren(path).catch(() => [])).toEqual([]);
  });

  it('a second signal while it waits on the paused server exits at once, naming what it stopped waiting for', async () => {
    const path = `/lock-cli-${randomUUID()}`;
    const run = zkwire(['lock', path, '--server', proxy.connectString, '--session-timeout', '4000', '--hold', '600000', '--json']);
    expect((await run.nextLine())['acquired']).toBe(true);
    proxy.pause();
    run.child.kill('SIGTERM');
    let stderr = '';
    run.child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    while (!/waiting for the delete/.test(stderr)) await new Promise((r) => run.child.stderr.once('data', r));
    run.child.kill('SIGINT');
    const { code, lines, stderr: all } = await run.exit;
    proxy.pass();
    expect(code).toBe(143);
    expect(all).toMatch(/SIGINT again: exiting now without waiting for the delete of /);
    expect(lines.some((l) => 'released' in l)).toBe(false);
  });
});
