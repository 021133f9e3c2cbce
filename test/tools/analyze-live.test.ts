/**
 * `zkwire analyze` on real traffic: zkwire clients and a real Apache Curator client drive sessions, ephemeral
 * nodes, watches and contended locks through the tracing proxy against a real ZooKeeper; the analysis of what
 * the proxy saw (live events, and the same traffic replayed from its JSON-lines capture) must match what the test
 * itself did — every session, holder, wait and watch, with exact counts, nothing invented.
 */

import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZooKeeperClient } from '../../src/node.js';
import { InterProcessMutex } from '../../src/recipes/locks/mutex.js';
import { InterProcessReadWriteLock } from '../../src/recipes/locks/read-write-lock.js';
import { InterProcessSemaphoreV2 } from '../../src/recipes/locks/semaphore-v2.js';
import { analyzeEvents, type AnalysisReport } from '../../src/tools/analyze/index.js';
import { readCaptureEvents } from '../../src/tools/capture/index.js';
import { renderReportHtml } from '../../src/tools/analyze/render-html.js';
import type { CaptureEvent } from '../../src/tools/capture/events.js';
import { JsonLinesWriter } from '../../src/tools/capture/jsonl-writer.js';
import { startTraceProxy, type TraceProxy } from '../../src/tools/trace/index.js';
import { startFaultProxy, type FaultProxy } from '../harness/fault-proxy.js';
import { sharedServer } from '../harness/zookeeper.js';
import { startCuratorPeer } from '../interop/curator-peer.js';
import { eventually } from '../recipes/helpers.js';
import { loadInChromium } from './chromium.js';
import { zkwire } from './cli-io.js';

/** What the test did, to check the analysis against. */
interface Expected {
  sessions: { a: string; b: string; c: string; d: string; e: string; curator: string };
  mutex: { dir: string; first: string; second: string };
  rw: { dir: string; readA: string; readC: string; writeB: string };
  curatorMutex: { dir: string; curatorNode: string; zkwireNode: string };
  semaphore: { dir: string; leaseA: string; leaseC: string };
  ephemerals: Record<string, string[]>;
  base: string;
}

let proxy: TraceProxy;
let fault: FaultProxy;
const events: CaptureEvent[] = [];
const capture: string[] = [];
let expected: Expected;
let live: AnalysisReport;
let work: string;

const s = (c: ZooKeeperClient): string => c.sessionIdHex;

/** True once the proxy has passed a successful reply to `op` on `path` (a watch the recipe set is in place). */
function sawReply(ops: readonly string[], p: string): boolean {
  return events.some((r) => r.type === 'frame' && r.dir === 's2c' && r.frame.kind === 'reply' && ops.includes(r.frame.op ?? '') && r.frame.path === p && r.frame.err === 0);
}

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'zkwire-analyze-'));
  const first = (await sharedServer()).connectString.split(',')[0]!;
  const colon = first.lastIndexOf(':');
  const upstream = { host: first.slice(0, colon), port: Number(first.slice(colon + 1)) };
  const writer = new JsonLinesWriter();
  proxy = await startTraceProxy({
    listen: { host: '127.0.0.1', port: 0 },
    upstream,
    onEvent: (e) => {
      events.push(e);
      const line = writer.line(e);
      if (line !== undefined) capture.push(line);
    },
  });
  const via = `127.0.0.1:${proxy.port}`;
  // e goes through a fault proxy in front of the trace proxy, so its connection can be cut and resumed.
  fault = await startFaultProxy({ host: '127.0.0.1', port: proxy.port });
  const direct = await ZooKeeperClient.connect(first, { sessionTimeoutMs: 10_000 });
  const base = `/analyze-${randomUUID()}`;
  await direct.mkdirp(`${base}/w`);
  await direct.create(`${base}/herd`, 'h');
  await direct.create(`${base}/w/data`, 'd');
  await direct.create(`${base}/w/e`, 'e');

  // No ensemble tracker: the analysis is checked against exactly the ops these clients make.
  const connect = (to = via): Promise<ZooKeeperClient> => ZooKeeperClient.connect(to, { sessionTimeoutMs: 10_000, trackEnsemble: false });
  const [a, b, c, d, e] = await Promise.all([connect(), connect(), connect(), connect(), connect(fault.connectString)]);
  const curator = await startCuratorPeer(via);
  // d: a session that only says hello and goodbye.
  await d.close();

  // Ephemeral nodes: a deletes its own; b's goes with its session.
  const ephA = await a.create(`${base}/eph-a`, null, { mode: 'ephemeral' });
  const ephB = await b.create(`${base}/eph-b-`, null, { mode: 'ephemeral-sequential' });
  await a.delete(ephA);

  // Watches: a data watch fired by a change, an exists watch fired by a creation, a herd of three.
  const dataWatch = await a.getData(`${base}/w/data`, { watch: true });
  const existsWatch = await c.exists(`${base}/w/new`, { watch: true });
  await b.setData(`${base}/w/data`, 'changed');
  await b.create(`${base}/w/new`, 'n');
  await Promise.all([dataWatch.watch, existsWatch.watch]);
  const herd = await Promise.all([a, b, c].map((x) => x.getData(`${base}/herd`, { watch: true })));
  await direct.setData(`${base}/herd`, 'changed');
  await Promise.all(herd.map((h) => h.watch));
  // c keeps a child watch armed to the end.
  await c.getChildren(`${base}/w`, { watch: true });

  // e: a watch, a cut connection, a resumed session that must re-register the watch.
  const eWatch = await e.getData(`${base}/w/e`, { watch: true });
  const eSession = e.sessionId;
  const connsBefore = events.filter((r) => r.type === 'open').length;
  fault.resetAll();
  await eventually(() => events.filter((r) => r.type === 'open').length > connsBefore && e.state === 'connected' && e.sessionId === eSession, 15_000, 'e to resume its session');
  await eventually(() => events.some((r) => r.type === 'frame' && r.dir === 'c2s' && r.frame.op?.startsWith('setWatches') === true), 10_000, 'setWatches');
  await direct.setData(`${base}/w/e`, 'changed');
  await eWatch.watch;

  // A contended mutex: a holds, b queues behind it (watching a's node), a releases, b takes over.
  const mutexDir = `${base}/mutex`;
  const leaseA = await new InterProcessMutex(a, mutexDir).acquire();
  const waitingB = new InterProcessMutex(b, mutexDir).acquire();
  await eventually(() => sawReply(['getData', 'exists'], leaseA.node), 10_000, 'b to watch a');
  await leaseA.release();
  const leaseB = await waitingB;
  await leaseB.release();

  // A read/write lock: a and c read together, b's write waits for both.
  const rwDir = `${base}/rw`;
  const readA = await new InterProcessReadWriteLock(a, rwDir).readLock.acquire();
  const readC = await new InterProcessReadWriteLock(c, rwDir).readLock.acquire();
  const waitingW = new InterProcessReadWriteLock(b, rwDir).writeLock.acquire();
  // A writer watches the node just ahead of it: the second reader, then the first.
  await eventually(() => sawReply(['getData', 'exists'], readC.node), 10_000, 'the writer to watch the second reader');
  await readC.release();
  await eventually(() => sawReply(['getData', 'exists'], readA.node), 10_000, 'the writer to watch the first reader');
  await readA.release();
  const writeB = await waitingW;
  await writeB.release();

  // Curator and zkwire on one mutex: Curator holds first, a waits for it.
  const curatorDir = `${base}/curator`;
  const held = await curator.mutexAcquire(curatorDir, 10_000);
  if (!held.acquired) throw new Error('Curator did not get an uncontended mutex');
  const waitingA = new InterProcessMutex(a, curatorDir).acquire();
  await eventually(() => sawReply(['getData', 'exists'], held.node), 10_000, 'a to watch Curator');
  await curator.release(held.id);
  const leaseCur = await waitingA;
  await leaseCur.release();

  // A semaphore of two leases: a and c hold one each at the same time (nobody is at its locks/ gate, so neither
  // takes it: each makes its lease node at once).
  const semDir = `${base}/sem`;
  const [leaseSemA] = await new InterProcessSemaphoreV2(a, semDir, 2).acquire(1);
  const [leaseSemC] = await new InterProcessSemaphoreV2(c, semDir, 2).acquire(1);
  await leaseSemA!.release();
  await leaseSemC!.release();

  expected = {
    sessions: { a: s(a), b: s(b), c: s(c), d: s(d), e: s(e), curator: curator.sessionId },
    mutex: { dir: mutexDir, first: leaseA.node, second: leaseB.node },
    rw: { dir: rwDir, readA: readA.node, readC: readC.node, writeB: writeB.node },
    curatorMutex: { dir: curatorDir, curatorNode: held.node, zkwireNode: leaseCur.node },
    semaphore: { dir: semDir, leaseA: leaseSemA!.node, leaseC: leaseSemC!.node },
    ephemerals: {
      [s(a)]: [ephA, leaseA.node, readA.node, leaseCur.node, leaseSemA!.node].sort(),
      [s(b)]: [ephB, leaseB.node, writeB.node].sort(),
      [s(c)]: [readC.node, leaseSemC!.node].sort(),
      [curator.sessionId]: [held.node],
    },
    base,
  };

  await Promise.all([a.close(), b.close(), e.close(), curator.close()]);
  // c is still open when the capture ends.
  await proxy.stop();
  await fault.close();
  await c.close().catch(() => undefined);
  await direct.deleteRecursive(base);
  await direct.close();
  live = await analyzeEvents(events);
}, 120_000);

afterAll(async () => {
  await proxy?.stop();
  await fault?.close();
  if (work !== undefined) rmSync(work, { recursive: true, force: true });
});

const lock = (r: AnalysisReport, dir: string) => {
  const l = r.locks.find((x) => x.dir === dir);
  if (l === undefined) throw new Error(`no lock ${dir} in the report: ${r.locks.map((x) => x.dir).join(', ')}`);
  return l;
};

describe('analysis of real traffic through the proxy', () => {
  it('finds exactly the sessions the test opened, how each ended, and their ephemeral nodes', () => {
    const x = expected.sessions;
    expect(live.sessions.map((s) => s.id).sort()).toEqual([x.a, x.b, x.c, x.d, x.e, x.curator].sort());
    const by = (id: string) => live.sessions.find((s) => s.id === id)!;
    for (const id of [x.a, x.b, x.d, x.e, x.curator]) expect(by(id).end.kind, id).toBe('closed');
    expect(by(x.c).end.kind).toBe('open');
    for (const id of [x.a, x.b, x.c, x.d]) expect(by(id)).toMatchObject({ timeoutMs: 10_000, reconnects: 0, disconnects: 0 });
    expect(by(x.e)).toMatchObject({ reconnects: 1, disconnects: 1 });
    expect(by(x.e).connections).toHaveLength(2);
    for (const [id, nodes] of Object.entries(expected.ephemerals)) {
      // None in the semaphore's gate (locks/): its two users found nobody there and did not take it.
      expect(by(id).ephemerals.map((e) => e.path).sort(), id).toEqual(nodes);
      // Every one of them was removed by the end: deleted, released, or gone with its closed session.
      expect(by(id).ephemerals.every((e) => e.deletedAtMs !== null), id).toBe(true);
    }
    expect(by(x.d).ephemerals).toEqual([]);
  });

  it('sees each lock holder the test had, in order, with the waits, and no violation or orphan', () => {
    const x = expected.sessions;
    const m = lock(live, expected.mutex.dir);
    expect(m).toMatchObject({ recipe: 'Curator mutex', kind: 'mutex', contenders: 2, violations: [], orphans: [] });
    expect(m.holders.map((h) => [h.node, h.session, h.how])).toEqual([
      [expected.mutex.first, x.a, 'released (node deleted)'],
      [expected.mutex.second, x.b, 'released (node deleted)'],
    ]);
    expect(m.waits.map((w) => [w.waiter, w.watched])).toEqual([[expected.mutex.second, expected.mutex.first]]);
    expect(m.holders[1]!.handoffMs).not.toBeNull();
    expect(m.handoffMs?.count).toBe(1);

    const rw = lock(live, expected.rw.dir);
    expect(rw).toMatchObject({ recipe: 'Curator read/write lock', kind: 'read-write', contenders: 3, violations: [], orphans: [] });
    expect(rw.holders.map((h) => [h.node, h.session, h.mode])).toEqual([
      [expected.rw.readA, x.a, 'read'],
      [expected.rw.readC, x.c, 'read'],
      [expected.rw.writeB, x.b, 'write'],
    ]);
    // The two readers overlapped (they share the lock) and the writer came after both.
    expect(rw.holders[1]!.fromMs).toBeLessThan(rw.holders[0]!.toMs!);
    expect(rw.holders[2]!.fromMs).toBeGreaterThanOrEqual(Math.max(rw.holders[0]!.toMs!, rw.holders[1]!.toMs!));
    expect(rw.waits.map((w) => [w.waiterSession, w.watched])).toEqual([
      [x.b, expected.rw.readC],
      [x.b, expected.rw.readA],
    ]);

    const cur = lock(live, expected.curatorMutex.dir);
    expect(cur).toMatchObject({ contenders: 2, violations: [], orphans: [] });
    expect(cur.holders.map((h) => [h.node, h.session])).toEqual([
      [expected.curatorMutex.curatorNode, x.curator],
      [expected.curatorMutex.zkwireNode, x.a],
    ]);
    expect(cur.waits.map((w) => [w.waiterSession, w.watched])).toEqual([[x.a, expected.curatorMutex.curatorNode]]);
    const leases = lock(live, `${expected.semaphore.dir}/leases`);
    expect(leases).toMatchObject({ recipe: 'Curator semaphore leases', kind: 'semaphore-leases', contenders: 2, violations: [], orphans: [] });
    expect(leases.holders.map((h) => [h.node, h.session, h.mode])).toEqual([
      [expected.semaphore.leaseA, x.a, 'lease'],
      [expected.semaphore.leaseC, x.c, 'lease'],
    ]);
    // Two leases of two: held at the same time, which is no violation for a semaphore.
    expect(leases.holders[1]!.fromMs).toBeLessThan(leases.holders[0]!.toMs!);
    // The semaphore's gate (Curator's mutex under locks/) was never taken: nobody else was at it.
    expect(live.locks.find((l) => l.dir === `${expected.semaphore.dir}/locks`)).toBeUndefined();
    expect(live.locks).toHaveLength(4);
  });

  it('links the watches the test set to the notifications that fired them, and finds the herd', () => {
    const x = expected.sessions;
    const w = live.watches;
    const mine = w.list.filter((v) => v.path.startsWith(`${expected.base}/w`) || v.path === `${expected.base}/herd`);
    const row = (p: string, session: string) => mine.filter((v) => v.path === `${expected.base}${p}` && v.session === session);
    expect(row('/w/data', x.a)).toEqual([expect.objectContaining({ kind: 'data', fired: expect.objectContaining({ event: 'NodeDataChanged' }) })]);
    expect(row('/w/new', x.c)).toEqual([expect.objectContaining({ kind: 'exists', fired: expect.objectContaining({ event: 'NodeCreated' }) })]);
    for (const id of [x.a, x.b, x.c]) expect(row('/herd', id)).toEqual([expect.objectContaining({ fired: expect.objectContaining({ event: 'NodeDataChanged' }) })]);
    expect(row('/w', x.c)).toEqual([expect.objectContaining({ kind: 'child', fired: null, dropped: null })]);
    expect(row('/w/e', x.e)).toEqual([expect.objectContaining({ kind: 'data', fired: expect.objectContaining({ event: 'NodeDataChanged' }) })]);
    expect(mine).toHaveLength(7);
    // Lock waiters watched their predecessors: one watch per wait, each fired by the predecessor's deletion.
    // Curator's ensemble tracker watches the dynamic configuration of its own accord.
    const config = w.list.filter((v) => v.path === '/zookeeper/config');
    expect(config.every((v) => v.session === x.curator && v.kind === 'data')).toBe(true);
    // A semaphore user waits by its lease's position, watching the leases ahead of it: with a lease free for each
    // of the two users, neither watches anything there.
    const sem = w.list.filter((v) => v.path.startsWith(`${expected.semaphore.dir}/leases`));
    expect(sem).toEqual([]);
    // A zkwire waiter also watches its own node, to notice it deleted under it while it waits.
    const ownNodes = new Set(live.sessions.flatMap((x2) => x2.ephemerals.map((e) => `${x2.id} ${e.path}`)));
    const own = w.list.filter((v) => !mine.includes(v) && ownNodes.has(`${v.session} ${v.path}`));
    const lockWatches = w.list.filter((v) => !mine.includes(v) && !config.includes(v) && !sem.includes(v) && !own.includes(v));
    const waits = live.locks.flatMap((l) => l.waits);
    expect(lockWatches.map((v) => v.path).sort()).toEqual(waits.map((x2) => x2.watched).sort());
    expect([...lockWatches, ...own].every((v) => v.fired?.event === 'NodeDeleted')).toBe(true);
    expect(w.set).toBe(mine.length + waits.length + config.length + sem.length + own.length);
    expect(w.armedAtEnd).toBe(1);
    expect(w.notRestored).toEqual([]);
    expect(w.herds).toEqual([expect.objectContaining({ path: `${expected.base}/herd`, event: 'NodeDataChanged', sessions: 3 })]);
  });

  it('counts ops and reports no guardrail on healthy traffic', () => {
    const create = live.ops.byOp.filter((o) => o.key === 'create' || o.key === 'create2');
    expect(create.reduce((n, o) => n + o.requests, 0)).toBeGreaterThanOrEqual(8);
    const close = live.ops.byOp.find((o) => o.key === 'closeSession');
    expect(close).toMatchObject({ requests: 5, replies: 5 });
    expect(live.ops.byOp.find((o) => o.key === 'connect')).toMatchObject({ requests: 7, replies: 7 });
    expect(live.guardrails.counts).toEqual({});
  });

  it('reads the same story from the JSON-lines capture of the same traffic', async () => {
    const fromFile = await analyzeEvents(readCaptureEvents((async function* () { yield `${capture.join('\n')}\n`; })(), { strictLines: true }));
    expect(fromFile.sessions.map((x) => [x.id, x.ephemerals.length, x.reconnects])).toEqual(live.sessions.map((x) => [x.id, x.ephemerals.length, x.reconnects]));
    expect(fromFile.locks.map((l) => [l.dir, l.holders.map((h) => [h.node, h.session, h.mode]), l.waits.length, l.violations.length])).toEqual(
      live.locks.map((l) => [l.dir, l.holders.map((h) => [h.node, h.session, h.mode]), l.waits.length, l.violations.length]),
    );
    expect([fromFile.watches.set, fromFile.watches.fired, fromFile.watches.herds.length]).toEqual([live.watches.set, live.watches.fired, live.watches.herds.length]);
    expect(fromFile.ops.byOp.map((o) => [o.key, o.requests, o.replies])).toEqual(live.ops.byOp.map((o) => [o.key, o.requests, o.replies]));
  });

  it('zkwire analyze prints the tables, the JSON and an HTML page from the capture file', async () => {
    const file = process.env['ZKWIRE_ANALYZE_CAPTURE'] ?? path.join(work, 'capture.jsonl');
    writeFileSync(file, `${capture.join('\n')}\n`);
    const text = await zkwire('analyze', file);
    expect(text.code).toBe(0);
    for (const id of Object.values(expected.sessions)) expect(text.out).toContain(id);
    expect(text.out).toContain(expected.mutex.dir);
    const json = await zkwire('--json', 'analyze', '--depth', '3', file);
    expect(json.code).toBe(0);
    const parsed = JSON.parse(json.out) as AnalysisReport;
    expect(parsed.ops.depth).toBe(3);
    expect(parsed.sessions).toHaveLength(6);
    const html = path.join(work, 'report.html');
    const page = await zkwire('analyze', '--html', html, file);
    expect(page.code).toBe(0);
    expect(readFileSync(html, 'utf8')).toMatch(/^<!DOCTYPE html>/);
  });

  it('renders a page that a real browser shows with every session and lock and no console error', async () => {
    const file = path.join(work, 'live.html');
    writeFileSync(file, renderReportHtml(live, { title: 'analyze-live.test.ts' }));
    const shot = process.env['ZKWIRE_REPORT_SCREENSHOT'] ?? path.join(work, 'report.png');
    const page = await loadInChromium(file, { screenshot: shot, width: 1100, height: 1500 });
    expect(page.consoleErrors).toEqual([]);
    for (const id of Object.values(expected.sessions)) {
      expect(page.dom).toContain(`data-session="${id}"`);
    }
    for (const l of live.locks) expect(page.dom).toContain(`data-lock="${l.dir}"`);
    expect(page.screenshotBytes).toBeGreaterThan(10_000);
  });
});

describe('analysis errors', () => {
  it('refuses a file that is not a capture, with the line, and a missing file', async () => {
    const bad = path.join(work, 'bad.jsonl');
    writeFileSync(bad, '{"dir":"c2s","hex":"00"}\nnot json\n');
    const r = await zkwire('analyze', bad);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/line 2: not a JSON line/);
    const missing = await zkwire('analyze', path.join(work, 'nope.jsonl'));
    expect(missing.code).toBe(1);
    expect(missing.err).toBe(`zkwire analyze: ${path.join(work, 'nope.jsonl')}: no such file\n`);
    const usage = await zkwire('analyze', '--depth', '0', bad);
    expect(usage.code).toBe(2);
  });
});
