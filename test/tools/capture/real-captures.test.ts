/**
 * Real captures made here: tcpdump on the loopback interface (`-i lo`, Ethernet) and on all interfaces (`-i any`,
 * Linux cooked) around a zkwire client talking to a real ZooKeeper server, in pcap (µs and ns) and pcapng (tshark's
 * conversion). `zkwire decode` must show exactly what the client did: its ops, paths, xids and errors, and
 * `zkwire analyze` its session and per-op counts. Then the Java client: Apache Curator 5.4 (the interop peer, a child
 * JVM) taking and releasing a mutex and setting a SharedCount, whose every frame must decode and whose lock analyze
 * must find with its one holder; and two Curator peers contending for one mutex, where analyze must name both
 * holders in order, the waiter's watch on the holder and the hand-off, with no violation. Then the live pipe: tcpdump's output piped into `zkwire decode --follow -` shows a
 * frame while the client is connected. (zkCli.sh is not captured: it comes with Debian's `zookeeper` package, which
 * setup does not install; the tests have only `libzookeeper-java`.)
 */

import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZooKeeperClient } from '../../../src/node.js';
import { ZooKeeperError } from '../../../src/errors.js';
import type { CaptureEvent } from '../../../src/tools/capture/index.js';
import type { AnalysisReport, OpRow } from '../../../src/tools/analyze/report.js';
import { trackChild } from '../../harness/exit-cleanup.js';
import { startZooKeeper, type ZkServer } from '../../harness/zookeeper.js';
import { startCuratorPeer } from '../../interop/curator-peer.js';
import { serverWatchesOf } from '../../recipes/helpers.js';
import { jsonLines, zkwire } from '../cli-io.js';
import { requireCaptureTools, startTcpdump, toPcapng, untilCaptured, type Tcpdump } from './tcpdump.js';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const main = join(process.cwd(), 'dist/cli/main.js');

let server: ZkServer;
let dir: string;
const running: Tcpdump[] = [];

beforeAll(async () => {
  requireCaptureTools('tcpdump', 'tshark');
  server = await startZooKeeper();
  dir = mkdtempSync(join(tmpdir(), 'zkwire-capture-'));
});

afterAll(async () => {
  for (const t of running) await t.stop();
  await server?.stop();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

async function capture(args: string[]): Promise<Tcpdump> {
  const t = await startTcpdump(args);
  running.push(t);
  return t;
}

interface Did {
  op: string;
  path: string;
  err: string;
}

/** One session's worth of ops with known outcomes; returns what the server must have been asked and answered. */
async function traffic(): Promise<{ did: Did[]; sessionId: string }> {
  const base = `/cap-${randomUUID()}`;
  const did: Did[] = [];
  // No ensemble tracker: the captures are checked against exactly the ops this client makes.
  const client = await ZooKeeperClient.connect(server.connectString, { sessionTimeoutMs: 30_000, trackEnsemble: false });
  const sessionId = `0x${client.sessionId.toString(16)}`;
  const step = async (op: string, path: string, run: () => Promise<unknown>): Promise<void> => {
    try {
      await run();
      did.push({ op, path, err: 'OK' });
    } catch (e) {
      if (!(e instanceof ZooKeeperError)) throw e;
      did.push({ op, path, err: e.code });
    }
  };
  await step('create', base, () => client.create(base, enc('hello')));
  await step('getData', base, () => client.getData(base));
  await step('setData', base, () => client.setData(base, enc('x'), { version: 7 }));
  await step('getData', `${base}/missing`, () => client.getData(`${base}/missing`));
  await step('create', base, () => client.create(base, enc('again')));
  await step('getChildren', base, () => client.getChildren(base));
  await step('delete', base, () => client.delete(base));
  await client.close();
  return { did, sessionId };
}

interface Line {
  kind: string;
  dir: string;
  xid?: number;
  op?: string;
  path?: string;
  err?: string;
  client?: string;
  server?: string;
  time?: string;
  unmatched?: boolean;
  decoded?: { sessionId?: string };
}

/** Checks decode's lines against what the client did: every request once, its reply with the same xid and op. */
function expectConversation(lines: Line[], did: Did[], sessionId: string): void {
  const real = lines.filter((l) => l.op !== 'ping');
  expect(real.filter((l) => l.kind === 'gap' || l.unmatched === true)).toStrictEqual([]);
  expect(real.map((l) => l.kind)).toStrictEqual([
    'connect-request',
    'connect-response',
    ...did.flatMap(() => ['request', 'reply']),
    'request',
    'reply', // closeSession
  ]);
  expect(`0x${BigInt(real[1]!.decoded!.sessionId!).toString(16)}`).toBe(sessionId);
  const requests = real.filter((l) => l.kind === 'request');
  const replies = real.filter((l) => l.kind === 'reply');
  expect(requests.map((r) => `${r.op} ${r.path ?? ''}`.trim())).toStrictEqual([...did.map((d) => `${d.op} ${d.path}`), 'closeSession']);
  expect(replies.map((r) => [r.op, r.path, r.err].filter((x) => x !== undefined).join(' '))).toStrictEqual([...did.map((d) => `${d.op} ${d.path} ${d.err}`), 'closeSession OK']);
  expect(replies.map((r) => r.xid)).toStrictEqual(requests.map((r) => r.xid));
  expect(new Set(requests.map((r) => r.xid)).size).toBe(requests.length);
  expect(new Set(lines.map((l) => `${l.client} ${l.server}`)).size).toBe(1);
  expect(lines[0]!.server).toBe(server.connectString);
  expect(lines[0]!.client).toMatch(/^127\.0\.0\.1:\d+$/);
  for (const l of lines) expect(l.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
}

function linkTypeOf(file: string): number {
  const b = readFileSync(file);
  return b.readUInt32LE(20) & 0xffff;
}

describe('tcpdump captures of a real session', () => {
  let did: Did[];
  let sessionId: string;
  const lo = (): string => join(dir, 'lo.pcap');
  const any = (): string => join(dir, 'any-ns.pcap');

  beforeAll(async () => {
    const port = String(server.port);
    const a = await capture(['-i', 'lo', '-U', '-w', lo(), 'tcp', 'port', port]);
    const b = await capture(['-i', 'any', '-U', '--time-stamp-precision=nano', '-w', any(), 'tcp', 'port', port]);
    ({ did, sessionId } = await traffic());
    // Both connection ends' FINs written to both files, then stop.
    const closed = (events: CaptureEvent[]): boolean => events.some((e) => e.type === 'close' && e.reason === 'fin');
    await untilCaptured(lo(), [server.port], closed);
    await untilCaptured(any(), [server.port], closed);
    await a.stop();
    await b.stop();
    expect(did.map((d) => d.err)).toStrictEqual(['OK', 'OK', 'BADVERSION', 'NONODE', 'NODEEXISTS', 'OK', 'OK']);
  });

  it('-i lo (Ethernet, µs pcap): every request and reply, in order, with the errors the client got', async () => {
    expect(linkTypeOf(lo())).toBe(1);
    const r = await zkwire('decode', '--port', String(server.port), lo());
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expectConversation(jsonLines(r.out) as Line[], did, sessionId);
  });

  it('-i any (Linux cooked, ns pcap): the same conversation', async () => {
    expect([113, 276]).toContain(linkTypeOf(any()));
    expect(readFileSync(any()).readUInt32LE(0)).toBe(0xa1b23c4d);
    const r = await zkwire('decode', '--port', String(server.port), any());
    expect(r.code, r.err).toBe(0);
    expectConversation(jsonLines(r.out) as Line[], did, sessionId);
  });

  it('pcapng (tshark -F pcapng) of both: the same conversation', async () => {
    for (const from of [lo(), any()]) {
      const ng = from.replace(/\.pcap$/, '.pcapng');
      toPcapng(from, ng);
      expect(readFileSync(ng).readUInt32BE(0)).toBe(0x0a0d0d0a);
      const r = await zkwire('decode', '--port', String(server.port), ng);
      expect(r.code, r.err).toBe(0);
      expectConversation(jsonLines(r.out) as Line[], did, sessionId);
    }
  });

  it('zkwire analyze --json: the one session, closed, and per op exactly the requests and errors the client had', async () => {
    const r = await zkwire('analyze', '--json', '--port', String(server.port), lo());
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.out) as AnalysisReport;
    expect(report.connections).toBe(1);
    expect(report.sessions.map((s) => [s.id, s.end.kind, s.connections.length, s.reconnects, s.ephemerals.length])).toStrictEqual([[sessionId, 'closed', 1, 0, 0]]);
    const want = new Map<string, { requests: number; errors: Record<string, number> }>([
      ['connect', { requests: 1, errors: {} }],
      ['closeSession', { requests: 1, errors: {} }],
    ]);
    for (const d of did) {
      const row = want.get(d.op) ?? { requests: 0, errors: {} };
      row.requests++;
      if (d.err !== 'OK') row.errors[d.err] = (row.errors[d.err] ?? 0) + 1;
      want.set(d.op, row);
    }
    // Pings depend on how long the run took; everything else is what traffic() did, no more, no less.
    const got = report.ops.byOp.filter((o) => o.key !== 'ping').map((o) => [o.key, o.requests, o.replies, o.errors]);
    expect(got.sort()).toStrictEqual([...want].map(([k, v]) => [k, v.requests, v.requests, v.errors]).sort());
    expect(report.locks).toStrictEqual([]);
    expect(report.guardrails.findings).toStrictEqual([]);
  });

  it('without --port: the server\'s random port is found by the shape of its frames and named on stderr, one line', async () => {
    const r = await zkwire('decode', lo());
    expect(r.code, r.err).toBe(0);
    expect(r.err).toBe(`zkwire decode: ${lo()}: ZooKeeper found on port ${server.port} (by the shape of its frames; --port P to choose)\n`);
    expectConversation(jsonLines(r.out) as Line[], did, sessionId);
    const a = await zkwire('analyze', '--json', any());
    expect(a.code, a.err).toBe(0);
    expect(a.err).toBe(`zkwire analyze: ${any()}: ZooKeeper found on port ${server.port} (by the shape of its frames; --port P to choose)\n`);
    expect((JSON.parse(a.out) as AnalysisReport).sessions.map((s) => s.id)).toStrictEqual([sessionId]);
  });

  it('the wrong --port decodes nothing and says so (exit 1); --pretty prints trace-style lines', async () => {
    const none = await zkwire('decode', '--port', '1', lo());
    expect(none).toMatchObject({ code: 1, out: '', err: `zkwire decode: ${lo()}: no ZooKeeper frame in the capture\n` });
    const pretty = await zkwire('decode', '--pretty', '--port', String(server.port), lo());
    expect(pretty.code).toBe(0);
    const text = pretty.out.split('\n');
    expect(text[0]).toMatch(new RegExp(`#1 open 127\\.0\\.0\\.1:\\d+ → ${server.connectString.replace(/\./g, '\\.')}$`));
    expect(text.some((l) => new RegExp(`#1 ${sessionId}\\s+s2c ← xid=\\d+\\s+getData ${did[3]!.path} NONODE`).test(l))).toBe(true);
    expect(text.filter((l) => / c2s → xid=/.test(l) && !/PING/.test(l))).toHaveLength(did.length + 1);
  });

  it('the built CLI: exit 0, a missing file named, a corrupt capture with its offset and no stack trace', () => {
    const ok = spawnSync(process.execPath, [main, 'decode', '--port', String(server.port), lo()], { encoding: 'utf8' });
    expect(ok.status, ok.stderr).toBe(0);
    const missing = spawnSync(process.execPath, [main, 'decode', join(dir, 'nonexistent.pcap')], { encoding: 'utf8' });
    expect(missing.status).toBe(1);
    expect(missing.stderr).toBe(`zkwire decode: ${join(dir, 'nonexistent.pcap')}: no such file\n`);
    const bytes = readFileSync(lo());
    bytes.writeUInt32LE(0x7fffffff, 24 + 8); // the first record's captured length
    const corrupt = spawnSync(process.execPath, [main, 'decode', '-'], { input: bytes, encoding: 'utf8' });
    expect(corrupt.status).toBe(1);
    expect(corrupt.stderr).toBe('zkwire decode: standard input: corrupt pcap record: captured length 2147483647 is impossible (at byte offset 24)\n');
  });
});

describe('tcpdump capture of the Java client (Apache Curator 5.4 in a child JVM)', () => {
  const pcap = (): string => join(dir, 'curator-lo.pcap');
  let curatorSession: string;
  let lockDir: string;
  let lockNode: string;
  let countPath: string;

  beforeAll(async () => {
    const port = String(server.port);
    const t = await capture(['-i', 'lo', '-U', '-w', pcap(), 'tcp', 'port', port]);
    const base = `/java-${randomUUID()}`;
    lockDir = `${base}/lock`;
    countPath = `${base}/count`;
    const peer = await startCuratorPeer(server.connectString, { sessionTimeoutMs: 30_000 });
    try {
      curatorSession = peer.sessionId;
      const held = await peer.mutexAcquire(lockDir, 10_000);
      if (!held.acquired) throw new Error('the Curator peer did not get its mutex');
      lockNode = held.node;
      await peer.release(held.id);
      const n = await peer.countStart(countPath, 5);
      await peer.countSet(n, 7);
      await peer.countClose(n);
    } finally {
      await peer.close(); // Curator closes its session (closeSession) before the JVM exits
    }
    await untilCaptured(pcap(), [server.port], (events) => events.some((e) => e.type === 'close' && e.reason === 'fin'));
    await t.stop();
  }, 120_000);

  it('zkwire decode decodes every frame of the Java connection, and shows the ops the lock and the count imply', async () => {
    const r = await zkwire('decode', '--port', String(server.port), pcap());
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const lines = jsonLines(r.out) as (Line & { error?: string | null; decoded?: { body?: { path?: string; type?: number } } })[];
    // Every frame decoded: no undecodable frame, no gap, every reply matched to its request, one connection.
    expect(lines.filter((l) => (l.error ?? null) !== null || l.kind === 'gap' || l.unmatched === true)).toStrictEqual([]);
    expect(new Set(lines.map((l) => `${l.client} ${l.server}`))).toStrictEqual(new Set([`${lines[0]!.client} ${server.connectString}`]));
    expect(lines.slice(0, 2).map((l) => l.kind)).toStrictEqual(['connect-request', 'connect-response']);
    expect(`0x${BigInt(lines[1]!.decoded!.sessionId!).toString(16)}`).toBe(curatorSession);
    const requests = lines.filter((l) => l.kind === 'request');
    const replies = lines.filter((l) => l.kind === 'reply');
    expect(replies.map((l) => l.xid).sort()).toStrictEqual(requests.map((l) => l.xid).sort());
    // What Curator's mutex and SharedCount send, in order (other requests, e.g. its EnsembleTracker's reads of
    // /zookeeper/config and the count's re-read after its watch fired, may come between).
    const said = replies.filter((l) => l.op !== 'ping').map((l) => [l.op, l.path, l.err].filter((x) => x !== undefined).join(' '));
    const prefix = `${lockDir}/_c_`;
    const esc = (t: string): string => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const protectedName = (err: string): RegExp => new RegExp(`^create2 ${esc(prefix)}[0-9a-f-]{36}-lock- ${err}$`);
    const expected: (string | RegExp)[] = [
      protectedName('NONODE'), // the parents do not exist yet: Curator creates them as containers and tries again
      `createContainer ${lockDir.slice(0, lockDir.lastIndexOf('/'))} OK`,
      `createContainer ${lockDir} OK`,
      protectedName('OK'),
      `getChildren2 ${lockDir} OK`,
      `delete ${lockNode} OK`,
      `create2 ${countPath} OK`,
      `setData ${countPath} OK`,
      'closeSession OK',
    ];
    let at = 0;
    for (const line of said) {
      const want = expected[at];
      if (want !== undefined && (typeof want === 'string' ? line === want : want.test(line))) at++;
    }
    expect(expected.slice(at), said.join('\n')).toStrictEqual([]);
    expect(lockNode).toMatch(new RegExp(`^${esc(prefix)}[0-9a-f-]{36}-lock-0000000000$`));
    // The sequential node's name the server gave comes back in create2's reply; the count's watch fires on setData.
    expect(replies.filter((l) => l.op === 'create2' && l.err === 'OK').map((l) => l.decoded?.body?.path)).toStrictEqual([lockNode, countPath]);
    expect(lines.filter((l) => l.kind === 'notification').map((l) => [l.decoded?.body?.type, l.decoded?.body?.path])).toContainEqual([3, countPath]);
    // The same capture as pcapng (tshark's conversion) decodes to the same lines.
    const ng = pcap().replace(/\.pcap$/, '.pcapng');
    toPcapng(pcap(), ng);
    expect((await zkwire('decode', '--port', String(server.port), ng)).out).toBe(r.out);
  });

  it('zkwire analyze --json finds the Curator session, its lock with the one holder it had, and no violation', async () => {
    const r = await zkwire('analyze', '--json', '--port', String(server.port), pcap());
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.out) as AnalysisReport;
    expect(report.connections).toBe(1);
    expect(report.sessions.map((s) => [s.id, s.end.kind, s.connections.length, s.reconnects])).toStrictEqual([[curatorSession, 'closed', 1, 0]]);
    expect(report.sessions[0]!.ephemerals.map((e) => [e.path, e.deletedAtMs !== null])).toStrictEqual([[lockNode, true]]);
    expect(report.locks).toHaveLength(1);
    const lock = report.locks[0]!;
    expect([lock.dir, lock.recipe, lock.kind, lock.contenders]).toStrictEqual([lockDir, 'Curator mutex', 'mutex', 1]);
    expect(lock.holders.map((h) => [h.node, h.session, h.mode, h.toMs !== null])).toStrictEqual([[lockNode, curatorSession, 'exclusive', true]]);
    expect([lock.violations, lock.orphans, lock.waits]).toStrictEqual([[], [], []]);
    const op = (key: string): OpRow | undefined => report.ops.byOp.find((o) => o.key === key);
    for (const row of report.ops.byOp) expect(row.replies, row.key).toBe(row.requests);
    expect(['connect', 'getChildren2', 'delete', 'setData', 'closeSession'].map((k) => [k, op(k)?.requests, op(k)?.errors])).toStrictEqual(
      ['connect', 'getChildren2', 'delete', 'setData', 'closeSession'].map((k) => [k, 1, {}]),
    );
    expect([op('createContainer')?.requests, op('create2')?.requests, op('create2')?.errors]).toStrictEqual([2, 3, { NONODE: 1 }]);
    const countWatches = report.watches.list.filter((w) => w.path === countPath && w.fired !== null);
    expect(countWatches.map((w) => [w.session, w.kind, w.fired!.event])).toContainEqual([curatorSession, 'data', 'NodeDataChanged']);
  });
});

describe('tcpdump capture of two Java clients contending for one Curator mutex', () => {
  it('zkwire analyze --json: both holders in order, the waiter watching the holder, the hand-off, no violation', async () => {
    const file = join(dir, 'curator-contention.pcap');
    const t = await capture(['-i', 'lo', '-U', '-w', file, 'tcp', 'port', String(server.port)]);
    const lockDir = `/java-${randomUUID()}/lock`;
    const peer = (): ReturnType<typeof startCuratorPeer> => startCuratorPeer(server.connectString, { sessionTimeoutMs: 30_000 });
    const [a, b] = await Promise.all([peer(), peer()]);
    let first: string;
    let second: string;
    try {
      const heldA = await a.mutexAcquire(lockDir, 10_000);
      if (!heldA.acquired) throw new Error('the first Curator peer did not get the mutex');
      first = heldA.node;
      const waiting = b.mutexAcquire(lockDir, 30_000);
      // B queues behind A and watches A's node: release only once the server holds that watch (B's node among the
      // participants is not enough: released earlier, B's read of A's node finds it gone and it never waits).
      while (!(await serverWatchesOf(server.connectString, b.sessionId)).includes(first)) await new Promise((resolve) => setTimeout(resolve, 20));
      await a.release(heldA.id);
      const heldB = await waiting;
      if (!heldB.acquired) throw new Error('the second Curator peer did not get the mutex after the first released it');
      second = heldB.node;
      await b.release(heldB.id);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
    const closes = (events: CaptureEvent[]): number => events.filter((e) => e.type === 'close' && e.reason === 'fin').length;
    await untilCaptured(file, [server.port], (events) => closes(events) >= 2);
    await t.stop();

    const r = await zkwire('analyze', '--json', '--port', String(server.port), file);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.out) as AnalysisReport;
    expect(report.sessions.map((s) => [s.id, s.end.kind]).sort()).toStrictEqual([[a.sessionId, 'closed'], [b.sessionId, 'closed']].sort());
    expect(report.locks).toHaveLength(1);
    const lock = report.locks[0]!;
    expect([lock.dir, lock.recipe, lock.contenders]).toStrictEqual([lockDir, 'Curator mutex', 2]);
    expect(lock.holders.map((h) => [h.node, h.session, h.toMs !== null])).toStrictEqual([
      [first, a.sessionId, true],
      [second, b.sessionId, true],
    ]);
    expect(lock.holders[1]!.fromMs).toBeGreaterThanOrEqual(lock.holders[0]!.toMs!);
    expect(lock.holders[1]!.handoffMs).not.toBeNull();
    expect(lock.waits.map((w) => [w.waiter, w.waiterSession, w.watched])).toContainEqual([second, b.sessionId, first]);
    expect([lock.violations, lock.orphans]).toStrictEqual([[], []]);
  }, 120_000);
});

describe('the live pipe', () => {
  it('tcpdump -U -w - | zkwire decode --follow - shows a request while the client is still connected', async () => {
    expect(existsSync(main), 'run `npm run build` first').toBe(true);
    const port = String(server.port);
    const decode = spawn(process.execPath, [main, 'decode', '--follow', '--port', port, '-'], { stdio: ['pipe', 'pipe', 'pipe'] });
    trackChild(decode);
    const dump = await startTcpdump(['-i', 'lo', '-U', '-w', '-', 'tcp', 'port', port], { stdout: decode.stdin! });
    running.push(dump);
    // tcpdump holds the pipe's write end now; ours must go, or decode never sees the end of its input.
    decode.stdin!.destroy();
    let out = '';
    let err = '';
    decode.stderr!.on('data', (d: Buffer) => void (err += d.toString()));
    const path = `/live-${randomUUID()}`;
    const waiters: { test: () => boolean; resolve: () => void }[] = [];
    const waitFor = (test: () => boolean): Promise<void> =>
      new Promise((resolve) => (test() ? resolve() : waiters.push({ test, resolve })));
    decode.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      for (const w of waiters.filter((w) => w.test())) w.resolve();
    });
    const replied = (op: string): boolean => jsonLines(out.slice(0, out.lastIndexOf('\n') + 1)).some((l) => (l as Line).kind === 'reply' && (l as Line).op === op);
    const seen = waitFor(() => out.includes(`"path":"${path}"`) && replied('create'));
    const decoded = new Promise<number | null>((resolve) => decode.once('exit', resolve));
    // No ensemble tracker (as above).
    const client = await ZooKeeperClient.connect(server.connectString, { sessionTimeoutMs: 30_000, trackEnsemble: false });
    try {
      await client.create(path, enc('live'));
      await seen; // the create and its reply are printed while the session is open
      expect(client.state).toBe('connected');
    } finally {
      await client.close();
    }
    // Stop tcpdump only once the session's end went through the pipe.
    await waitFor(() => replied('closeSession'));
    await dump.stop();
    expect(await decoded, err).toBe(0);
    const lines = jsonLines(out) as Line[];
    expect(lines.filter((l) => l.op === 'create').map((l) => `${l.kind} ${l.path} ${l.err ?? ''}`.trim())).toStrictEqual([`request ${path}`, `reply ${path} OK`]);
    expect(lines.filter((l) => l.op === 'closeSession').map((l) => l.kind)).toStrictEqual(['request', 'reply']);
  });
});
