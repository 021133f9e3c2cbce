/**
 * The analysis on synthetic event streams, for what real traffic rarely shows: two lock holders at once, a lock
 * lost while its owner was away, expiry, watches lost on reconnect, herds and the guardrails. Real traffic is
 * checked in analyze-live.test.ts.
 */

import { describe, expect, it } from 'vitest';
import { EventType, OpCode } from '../../src/protocol/index.js';
import { Analyzer, analyzeEvents, renderReportText } from '../../src/tools/analyze/index.js';
import { renderReportHtml } from '../../src/tools/analyze/render-html.js';
import { rollUpPath } from '../../src/tools/analyze/op-stats.js';
import { Script } from './analyze-script.js';

const DIR = '/app/lock';
const MUTEX = `${DIR}/_c_11111111-2222-3333-4444-555555555555-lock-`;
const MUTEX_B = `${DIR}/_c_aaaaaaaa-2222-3333-4444-555555555555-lock-`;
const name = (p: string): string => p.slice(p.lastIndexOf('/') + 1);

describe('locks', () => {
  it('counts a waiter that knew every node ahead as holding from the NodeDeleted of the last one, with no listing', async () => {
    const s = new Script();
    const a = s.connect(0x100n);
    const b = s.connect(0x200n);
    const na = a.createSeq(MUTEX, 0);
    a.list(DIR, [name(na)]);
    s.wait(5);
    const nb = b.createSeq(MUTEX_B, 1);
    b.list(DIR, [name(na), name(nb)]);
    b.watchData(na);
    s.wait(100);
    a.delete(na);
    b.notify(EventType.NodeDeleted, na);
    s.wait(10);
    b.delete(nb);
    const lock = (await analyzeEvents(s.events)).locks[0]!;
    expect(lock.holders.map((h) => [h.node, h.session, h.how])).toEqual([
      [na, '0x100', 'released (node deleted)'],
      [nb, '0x200', 'released (node deleted)'],
    ]);
    expect(lock.violations).toEqual([]);
    // delete request of A → B's NodeDeleted: the delete's round trip.
    expect(lock.holders[1]!.handoffMs).toBe(1);
  });

  it('a mutex is a lock, not a leader election, unless its path names one (a LeaderSelector writes the same nodes)', async () => {
    const run = async (dir: string) => {
      const s = new Script();
      const a = s.connect(0x100n);
      const na = a.createSeq(`${dir}/_c_11111111-2222-3333-4444-555555555555-lock-`, 0);
      a.list(dir, [name(na)]);
      s.wait(5);
      a.delete(na);
      return analyzeEvents(s.events);
    };
    const lock = await run(DIR);
    expect(lock.locks.map((l) => l.dir)).toEqual([DIR]);
    expect(lock.leaders).toEqual([]);
    expect(renderReportText(lock)).not.toMatch(/without a leader/);
    for (const dir of ['/app/leader', '/svc/payments-election', '/jobs/master']) {
      const election = await run(dir);
      expect(election.leaders.map((l) => [l.path, l.basis, l.terms.length])).toEqual([[dir, 'mutex', 1]]);
    }
  });

  it('follows an honest hand-off: two holders one after the other, a wait, no violation', async () => {
    const s = new Script();
    const a = s.connect(0x100n);
    const b = s.connect(0x200n);
    const na = a.createSeq(MUTEX, 0);
    a.list(DIR, [name(na)]);
    s.wait(5);
    const nb = b.createSeq(MUTEX_B, 1);
    b.list(DIR, [name(na), name(nb)]);
    b.watchData(na);
    s.wait(100);
    a.delete(na);
    b.notify(EventType.NodeDeleted, na);
    s.wait(2);
    b.list(DIR, [name(nb)]);
    s.wait(10);
    b.delete(nb);
    const r = await analyzeEvents(s.events);
    expect(r.locks).toHaveLength(1);
    const lock = r.locks[0]!;
    expect(lock).toMatchObject({ dir: DIR, recipe: 'Curator mutex', kind: 'mutex', contenders: 2 });
    expect(lock.holders.map((h) => [h.node, h.session, h.how])).toEqual([
      [na, '0x100', 'released (node deleted)'],
      [nb, '0x200', 'released (node deleted)'],
    ]);
    expect(lock.violations).toEqual([]);
    expect(lock.orphans).toEqual([]);
    expect(lock.waits).toEqual([expect.objectContaining({ waiter: nb, waiterSession: '0x200', watched: na })]);
    // delete request of A → B's listing reply: 1 ms (delete round trip) + 2 ms + 1 ms (getChildren round trip)
    expect(lock.holders[1]!.handoffMs).toBe(4);
    expect(lock.handoffMs?.count).toBe(1);
    expect(r.watches.fired).toBe(1);
  });

  it('reports two holders at once when a node vanishes under a connected holder and the next contender takes over', async () => {
    const s = new Script();
    const a = s.connect(0x100n);
    const b = s.connect(0x200n);
    const admin = s.connect(0x300n);
    const na = a.createSeq(MUTEX, 0);
    a.list(DIR, [name(na)]);
    const nb = b.createSeq(MUTEX_B, 1);
    b.list(DIR, [name(na), name(nb)]);
    b.watchData(na);
    s.wait(50);
    // Someone else removes A's node: A is still connected and has no idea.
    admin.delete(na);
    b.notify(EventType.NodeDeleted, na);
    b.list(DIR, [name(nb)]);
    s.wait(200);
    a.close('fin'); // only now can A have learned its lock is gone
    s.wait(10);
    b.delete(nb);
    const r = await analyzeEvents(s.events);
    const lock = r.locks[0]!;
    expect(lock.holders.map((h) => h.session)).toEqual(['0x100', '0x200']);
    expect(lock.violations).toHaveLength(1);
    const v = lock.violations[0]!;
    expect([v.a.session, v.b.session]).toEqual(['0x100', '0x200']);
    expect(v.toMs - v.fromMs).toBeGreaterThanOrEqual(200);
    expect(lock.holders[0]!.how).toBe('lost: its node vanished while it held');
  });

  it('does not call it a violation when the holder was disconnected as its node went', async () => {
    const s = new Script();
    const a = s.connect(0x100n);
    const b = s.connect(0x200n);
    const na = a.createSeq(MUTEX, 0);
    a.list(DIR, [name(na)]);
    const nb = b.createSeq(MUTEX_B, 1);
    b.list(DIR, [name(na), name(nb)]);
    a.close('rst');
    s.wait(15_000); // the server expires A's session and removes its node
    b.list(DIR, [name(nb)]);
    const r = await analyzeEvents(s.events);
    const lock = r.locks[0]!;
    expect(lock.violations).toEqual([]);
    expect(lock.holders.map((h) => [h.session, h.how])).toEqual([
      ['0x100', 'lost while its session was disconnected'],
      ['0x200', null],
    ]);
  });

  it('lets readers share a read/write lock and flags a writer overlapping a reader', async () => {
    const dir = '/rw';
    const read = (u: string): string => `${dir}/_c_${u}1111111-2222-3333-4444-555555555555-__READ__`;
    const write = `${dir}/_c_33333333-2222-3333-4444-555555555555-__WRIT__`;
    const s = new Script();
    const a = s.connect(0x1n);
    const c = s.connect(0x3n);
    const b = s.connect(0x2n);
    const ra = a.createSeq(read('a'), 0);
    a.list(dir, [name(ra)]);
    const rc = c.createSeq(read('c'), 1);
    c.list(dir, [name(ra), name(rc)]);
    const wb = b.createSeq(write, 2);
    b.list(dir, [name(ra), name(rc), name(wb)]);
    b.watchData(rc);
    a.delete(ra);
    c.delete(rc);
    b.list(dir, [name(wb)]);
    const honest = await analyzeEvents(s.events);
    expect(honest.locks[0]).toMatchObject({ kind: 'read-write', recipe: 'Curator read/write lock', violations: [] });
    expect(honest.locks[0]!.holders.map((h) => [h.session, h.mode])).toEqual([
      ['0x1', 'read'],
      ['0x3', 'read'],
      ['0x2', 'write'],
    ]);
    // Now a reader whose node is removed by someone else while it still reads, and the writer goes ahead.
    const s2 = new Script();
    const r1 = s2.connect(0x1n);
    const w1 = s2.connect(0x2n);
    const other = s2.connect(0x9n);
    const r = r1.createSeq(read('a'), 0);
    r1.list(dir, [name(r)]);
    const w = w1.createSeq(write, 1);
    other.delete(r);
    w1.list(dir, [name(w)]);
    s2.wait(30);
    const bad = await analyzeEvents(s2.events);
    expect(bad.locks[0]!.violations).toEqual([expect.objectContaining({ a: expect.objectContaining({ mode: 'read' }), b: expect.objectContaining({ mode: 'write' }) })]);
  });

  it('is not fooled by replies on different connections arriving out of server order', async () => {
    const s = new Script();
    const a = s.connect(0x100n);
    const b = s.connect(0x200n);
    const c = s.connect(0x300n);
    const na = a.createSeq(MUTEX, 0);
    a.list(DIR, [name(na)]);
    const nb = `${MUTEX_B}0000000001`;
    // c's listing already shows b's node; b's create reply comes after it.
    c.list(DIR, [name(na), name(nb)]);
    b.createSeq(MUTEX_B, 1);
    // Listings the server made before b's create (older zxids) arrive late and lack b's node.
    c.list(DIR, [name(na)], false, 1n);
    const nbEarly = `${DIR}/_c_bbbbbbbb-2222-3333-4444-555555555555-lock-0000000003`;
    a.list(DIR, [name(na), name(nb), name(nbEarly)]);
    a.list(DIR, [name(na), name(nb)], false, 2n);
    b.createSeq(`${DIR}/_c_bbbbbbbb-2222-3333-4444-555555555555-lock-`, 3);
    b.delete(nbEarly);
    b.list(DIR, [name(na), name(nb)]);
    b.watchData(na);
    a.delete(na);
    b.list(DIR, [name(nb)]);
    const nc = c.createSeq(`${DIR}/_c_cccccccc-2222-3333-4444-555555555555-lock-`, 2);
    c.list(DIR, [name(nb), name(nc)]);
    s.wait(20);
    b.delete(nb);
    c.list(DIR, [name(nc)]);
    s.wait(20);
    b.close('fin');
    const r = await analyzeEvents(s.events);
    const lock = r.locks[0]!;
    expect(lock.contenders).toBe(4);
    expect(lock.holders.map((h) => [h.node, h.session, h.how])).toEqual([
      [na, '0x100', 'released (node deleted)'],
      [nb, '0x200', 'released (node deleted)'],
      [nc, '0x300', null],
    ]);
    expect(lock.violations).toEqual([]);
    expect(lock.orphans).toEqual([]);
  });

  it('waits for the holder\'s delete reply that a faster listing on another connection overtook', async () => {
    const s = new Script();
    const a = s.connect(0x100n);
    const b = s.connect(0x200n);
    const na = a.createSeq(MUTEX, 0);
    a.list(DIR, [name(na)]);
    const nb = b.createSeq(MUTEX_B, 1);
    b.list(DIR, [name(na), name(nb)]);
    b.watchData(na);
    s.wait(30);
    // a's delete request goes out; the server deletes, b is notified and lists; b's reply overtakes a's.
    const conn = a.conn;
    const xid = ++a.xid;
    a.frame('c2s', { kind: 'request', xid, opcode: OpCode.delete, op: 'delete', path: na, decoded: { header: { xid, type: OpCode.delete }, body: { path: na, version: -1 } }, summary: '' });
    s.wait(1);
    b.notify(EventType.NodeDeleted, na);
    b.list(DIR, [name(nb)]);
    s.wait(1);
    const zxid = s.nextZxid();
    s.push({ type: 'frame', conn, timeUs: s.time, dir: 's2c', size: 16, bytes: new Uint8Array(0), sessionId: undefined, latencyMs: undefined, frame: { kind: 'reply', xid, opcode: OpCode.delete, op: 'delete', path: na, err: 0, zxid, decoded: { header: { xid, zxid, err: 0 } }, summary: '' } });
    s.wait(50);
    b.delete(nb);
    a.list(DIR, []);
    const r = await analyzeEvents(s.events);
    const lock = r.locks[0]!;
    expect(lock.violations).toEqual([]);
    expect(lock.holders.map((h) => [h.session, h.how])).toEqual([
      ['0x100', 'released (node deleted)'],
      ['0x200', 'released (node deleted)'],
    ]);
  });

  it('finds orphaned contenders: two nodes of one session, and nodes never followed up', async () => {
    const s = new Script();
    const a = s.connect(0x100n);
    const n1 = a.createSeq(MUTEX, 0);
    const n2 = a.createSeq(MUTEX_B, 1); // a retried create without protection
    a.list(DIR, [name(n1), name(n2)]);
    const r = await analyzeEvents(s.events);
    expect(r.locks[0]!.orphans.map((o) => o.node).sort()).toEqual([n1, n2].sort());
    expect(r.locks[0]!.holders.map((h) => h.node)).toEqual([n1]);
  });

  it('recognises kazoo read and write locks', async () => {
    const s = new Script();
    const a = s.connect(0x1n);
    const b = s.connect(0x2n);
    const rl = a.createSeq('/k/6f1c2a__rlock__', 0);
    a.list('/k', [name(rl)]);
    const wl = b.createSeq('/k/9a8b7c__lock__', 1);
    b.list('/k', [name(rl), name(wl)]);
    const r = await analyzeEvents(s.events);
    expect(r.locks[0]).toMatchObject({ recipe: 'kazoo read/write lock', kind: 'read-write' });
    expect(r.locks[0]!.holders.map((h) => h.node)).toEqual([rl]);
  });
});

describe('sessions', () => {
  it('follows a session across a reconnect to its expiry, with its ephemerals', async () => {
    const s = new Script();
    const a = s.connect(0xabcn, { timeoutMs: 6000 });
    a.createSeq('/e/node-', 7, 1);
    a.call(OpCode.ping, undefined, { latencyMs: 3 });
    s.wait(2600); // more than a third of 6 s (and the slack) without a ping
    a.call(OpCode.ping, undefined, { latencyMs: 5 });
    a.close('rst');
    s.wait(1000);
    const again = s.connect(0xabcn, { resume: true, timeoutMs: 6000 });
    s.wait(100);
    again.close('fin');
    again.close('fin'); // a repeated close changes nothing
    s.wait(10_000);
    // A third connection asks to resume; the server says the session is gone (timeout 0).
    s.push({ type: 'open', conn: { id: '9', client: 'c', server: 's' }, timeUs: s.time, midStream: false });
    const conn = { id: '9', client: 'c', server: 's' };
    s.push({ type: 'frame', conn, timeUs: s.time, dir: 'c2s', size: 48, bytes: new Uint8Array(0), sessionId: undefined, latencyMs: undefined, frame: { kind: 'connect-request', decoded: { protocolVersion: 0, lastZxidSeen: 0n, timeOut: 6000, sessionId: 0xabcn, passwd: null }, summary: '' } });
    s.push({ type: 'frame', conn, timeUs: s.time + 500, dir: 's2c', size: 40, bytes: new Uint8Array(0), sessionId: undefined, latencyMs: undefined, frame: { kind: 'connect-response', decoded: { protocolVersion: 0, timeOut: 0, sessionId: 0n, passwd: null }, summary: '' } });
    const r = await analyzeEvents(s.events);
    expect(r.sessions).toHaveLength(1);
    expect(r.connections).toBe(3);
    const x = r.sessions[0]!;
    expect(x).toMatchObject({ id: '0xabc', timeoutMs: 6000, reconnects: 1, disconnects: 2 });
    expect(x.connections.map((c) => c.resumed)).toEqual([false, true]);
    expect(x.end.kind).toBe('expired');
    expect(x.pingMs?.count).toBe(2);
    expect(x.silences).toHaveLength(1);
    expect(x.ephemerals).toEqual([expect.objectContaining({ path: '/e/node-0000000007' })]);
    expect(x.ephemerals[0]!.deletedAtMs).not.toBeNull();
  });
});

describe('watches', () => {
  it('links a watch to its notification, finds watches lost on reconnect, herds, and what stays armed', async () => {
    const s = new Script();
    const a = s.connect(0x1n);
    a.watchData('/w/kept');
    a.watchData('/w/lost');
    a.call(OpCode.getChildren, { path: '/w', watch: true }, { body: { children: [] } });
    a.close('rst');
    const a2 = s.connect(0x1n, { resume: true });
    a2.call(OpCode.setWatches, { relativeZxid: 1n, dataWatches: ['/w/kept'], existWatches: [], childWatches: ['/w'] });
    s.wait(40);
    a2.notify(EventType.NodeDataChanged, '/w/kept');
    const others = [s.connect(0x2n), s.connect(0x3n), s.connect(0x4n)];
    for (const o of others) o.watchData('/herd');
    s.wait(5);
    for (const o of others) o.notify(EventType.NodeDataChanged, '/herd');
    const r = await analyzeEvents(s.events);
    expect(r.watches).toMatchObject({ set: 6, fired: 4, armedAtEnd: 1 });
    expect(r.watches.notRestored).toEqual([expect.objectContaining({ session: '0x1', kind: 'data', path: '/w/lost' })]);
    expect(r.watches.list.find((w) => w.path === '/w/kept')?.fired).toMatchObject({ event: 'NodeDataChanged', latencyMs: 44 });
    expect(r.watches.herds).toEqual([expect.objectContaining({ path: '/herd', sessions: 3 })]);
  });
});

describe('another party resuming a session beside its client (killSession)', () => {
  it('is no reconnect: nothing expected re-registered on it; a reconnect after the old connection closed still is', async () => {
    const s = new Script();
    const a = s.connect(0x1n);
    a.watchData('/w/one');
    a.call(OpCode.exists, { path: '/w/two', watch: true }, { err: -101 });
    // The killer asks for the session while the client's connection is open; the server closes that one after.
    const killer = s.connect(0x1n, { resume: true });
    a.close('fin');
    killer.call(OpCode.getData, { path: '/zookeeper/config', watch: false }, { body: { data: new Uint8Array(0) } });
    killer.closeSession();
    killer.close('fin');
    const r = await analyzeEvents(s.events);
    expect(r.watches.notRestored).toEqual([]);
    expect(r.watches.list.map((w) => w.dropped)).toEqual(['session closed', 'session closed']);

    const t = new Script();
    const b = t.connect(0x2n);
    b.watchData('/w/one');
    b.close('rst');
    const b2 = t.connect(0x2n, { resume: true });
    b2.call(OpCode.getData, { path: '/other', watch: false }, { body: { data: new Uint8Array(0) } });
    expect((await analyzeEvents(t.events)).watches.notRestored).toEqual([expect.objectContaining({ session: '0x2', path: '/w/one' })]);
  });
});

describe('a watch set again while armed', () => {
  it('is one armed watch: each set is listed and fires with it, counted once', async () => {
    const s = new Script();
    const a = s.connect(0x1n);
    a.watchData('/poll');
    s.wait(10);
    a.watchData('/poll');
    s.wait(10);
    a.watchData('/poll');
    s.wait(5);
    a.notify(EventType.NodeDataChanged, '/poll');
    a.watchData('/poll');
    const r = await analyzeEvents(s.events);
    expect(r.watches).toMatchObject({ set: 4, fired: 1, armedAtEnd: 1 });
    expect(r.watches.list.map((w) => w.fired?.event ?? null)).toEqual(['NodeDataChanged', 'NodeDataChanged', 'NodeDataChanged', null]);
    const [first, second] = r.watches.list;
    // Each listed set keeps its own set → fire latency.
    expect(first!.fired!.latencyMs - second!.fired!.latencyMs).toBeCloseTo(second!.setMs - first!.setMs, 3);
    expect(r.watches.fireLatencyMs?.count).toBe(1);
  });
});

describe('removed watches', () => {
  it('disarms only the kind a successful removeWatches names', async () => {
    const s = new Script();
    const a = s.connect(0x1n);
    a.watchData('/r');
    a.call(OpCode.getChildren, { path: '/r', watch: true }, { body: { children: [] } });
    a.call(OpCode.removeWatches, { path: '/r', type: 1 }, { err: -121 }); // NOWATCHER: nothing removed
    a.call(OpCode.removeWatches, { path: '/r', type: 1 });
    const r = await analyzeEvents(s.events);
    expect(r.watches.list.map((w) => [w.kind, w.dropped])).toEqual([
      ['data', null],
      ['child', 'removed by the client'],
    ]);
    expect(r.watches.armedAtEnd).toBe(1);
  });
});

describe('guardrails', () => {
  it('reports out-of-order replies, requests after closeSession, unanswered and slow requests', () => {
    const s = new Script();
    const a = s.connect(0x1n);
    const conn = a.conn;
    const t = (): number => s.time;
    const req = (xid: number, path: string): void =>
      s.push({ type: 'frame', conn, timeUs: t(), dir: 'c2s', size: 30, bytes: new Uint8Array(0), sessionId: undefined, latencyMs: undefined, frame: { kind: 'request', xid, opcode: 4, op: 'getData', path, decoded: { header: { xid, type: 4 }, body: { path, watch: false } }, summary: '' } });
    const rep = (xid: number, path: string): void =>
      s.push({ type: 'frame', conn, timeUs: t(), dir: 's2c', size: 30, bytes: new Uint8Array(0), sessionId: undefined, latencyMs: undefined, frame: { kind: 'reply', xid, opcode: 4, op: 'getData', path, err: -101, zxid: 1n, decoded: { header: { xid, zxid: 1n, err: -101 } }, summary: '' } });
    req(1, '/x');
    req(2, '/y');
    req(3, '/never');
    s.wait(1500);
    rep(2, '/y');
    rep(1, '/x');
    a.xid = 3;
    a.closeSession();
    a.call(OpCode.exists, { path: '/late', watch: false }, { err: -112 });
    const analyzer = new Analyzer({ slowMs: 1000 });
    for (const e of s.events) analyzer.add(e);
    const r = analyzer.report();
    expect(r.guardrails.counts).toEqual({ 'reply-out-of-order': 1, 'request-after-close': 1, unanswered: 1, 'slow-reply': 2 });
    expect(r.guardrails.findings.find((f) => f.kind === 'unanswered')?.path).toBe('/never');
    expect(r.ops.byOp.find((o) => o.key === 'getData')).toMatchObject({ requests: 3, replies: 2, errors: { NONODE: 2 } });
    // A live snapshot does not yet call anything unanswered.
    expect(analyzer.report(false).guardrails.counts.unanswered).toBeUndefined();
  });

  it('does not flag the refusals a server sends ahead of its pipeline (NOTREADONLY, UNIMPLEMENTED) as out of order', () => {
    const s = new Script();
    const a = s.connect(0x1n);
    const conn = a.conn;
    const frame = (dir: 'c2s' | 's2c', xid: number, opcode: number, op: string, err = 0): void =>
      s.push({ type: 'frame', conn, timeUs: s.time, dir, size: 30, bytes: new Uint8Array(0), sessionId: undefined, latencyMs: undefined, frame: dir === 'c2s' ? { kind: 'request', xid, opcode, op, path: '/x', decoded: { header: { xid, type: opcode }, body: { path: '/x' } }, summary: '' } : { kind: 'reply', xid, opcode, op, path: '/x', err, zxid: 1n, decoded: { header: { xid, zxid: 1n, err } }, summary: '' } });
    frame('c2s', 1, OpCode.getData, 'getData');
    frame('c2s', 2, OpCode.setData, 'setData');
    frame('c2s', 3, OpCode.create2, 'create');
    frame('s2c', 2, OpCode.setData, 'setData', -119); // a read-only server refuses the write at once
    frame('s2c', 3, OpCode.create2, 'create', -6); // ZooKeeper 3.4 refuses an op it does not know at once
    frame('s2c', 1, OpCode.getData, 'getData', -101);
    frame('c2s', 4, OpCode.getData, 'getData');
    frame('c2s', 5, OpCode.getData, 'getData');
    frame('s2c', 5, OpCode.getData, 'getData', -101);
    frame('s2c', 4, OpCode.getData, 'getData', -101);
    const r = new Analyzer({ slowMs: 1000 });
    for (const e of s.events) r.add(e);
    // Only the plain reply that came before an earlier one is flagged.
    expect(r.report().guardrails.findings.filter((f) => f.kind === 'reply-out-of-order').map((f) => f.detail)).toEqual(['reply to xid 4 after the reply to xid 5']);
  });
});

describe('per-path table', () => {
  it('rolls paths up to the chosen depth', () => {
    expect(rollUpPath('/a/b/c', 2)).toBe('/a/b');
    expect(rollUpPath('/a/b/c', 1)).toBe('/a');
    expect(rollUpPath('/a/b/c', 5)).toBe('/a/b/c');
    expect(rollUpPath('/a', 2)).toBe('/a');
    expect(rollUpPath('/', 1)).toBe('/');
    expect(rollUpPath('/a/b/', 2)).toBe('/a/b');
    expect(rollUpPath('/a/b/', 1)).toBe('/a');
    expect(rollUpPath('relative', 1)).toBe('relative');
  });
});

describe('hostile captures', () => {
  it('escapes every capture string in the HTML page and shows control characters on the terminal', async () => {
    const evil = `/x/<img src=x onerror=alert(1)>"'&\u001b[2J`;
    const s = new Script();
    const a = s.connect(0x1n);
    a.watchData(evil);
    const lockNode = a.createSeq(`${evil}/_c_11111111-2222-3333-4444-555555555555-lock-`, 0);
    a.list(evil, [lockNode.slice(lockNode.lastIndexOf('/') + 1)]);
    const r = await analyzeEvents(s.events);
    expect(r.locks.map((l) => l.dir)).toEqual([evil]);
    const html = renderReportHtml(r, { title: '<b>file</b>' });
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<b>file');
    expect(html).not.toContain('\u001b');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;&quot;&#39;&amp;');
    // Nothing is ever fetched: no script, no link, and a policy that forbids loading anything else.
    expect(html).not.toMatch(/<script|<link|@import|url\(/i);
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'; img-src data:"`);
    const text = renderReportText(r);
    expect(text).not.toContain('\u001b');
    expect(text).toContain('\\x1b[2J');
  });
});
