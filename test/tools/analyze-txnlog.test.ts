/**
 * Who did it, from which client: a real server's data directory plus a tcpdump capture of the same period, while
 * two clients create, change and delete nodes. `zkwire analyze CAPTURE --data-dir DIR --path P` must name, for every
 * change of P and below, the session that made it (the log's word) and that session's client address (the
 * capture's word), checked against the server's own `cons` listing of its connections. The HTML page marks each
 * transaction on its session's timeline.
 */

import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ZooKeeperClient } from '../../src/node.js';
import type { AnalysisReport } from '../../src/tools/analyze/index.js';
import { fourLetterWord } from '../../src/testing/local-server/four-letter-client.js';
import { startZooKeeper, type ZkServer } from '../harness/zookeeper.js';
import { requireCaptureTools, startTcpdump, untilCaptured, type Tcpdump } from './capture/tcpdump.js';
import { zkwire } from './cli-io.js';

let server: ZkServer;
let dir: string;
let dump: Tcpdump | undefined;

beforeAll(async () => {
  requireCaptureTools('tcpdump');
  server = await startZooKeeper();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zkwire-analyze-txn-'));
}, 60_000);

afterAll(async () => {
  await dump?.stop();
  await server?.stop();
  if (dir !== undefined) fs.rmSync(dir, { recursive: true, force: true });
});

/** session id (hex) → client address, as the server itself lists its connections. */
async function serverConnections(port: number): Promise<Map<string, string>> {
  const cons = await fourLetterWord('127.0.0.1', port, 'cons');
  const out = new Map<string, string>();
  for (const m of cons.matchAll(/\/([\d.]+:\d+)\[\d+\]\([^)]*\bsid=(0x[0-9a-f]+)/g)) out.set(m[2]!, m[1]!);
  return out;
}

it('names the client address of every create, change and delete of a node, and marks them on the HTML timelines', async () => {
  const port = Number(server.connectString.slice(server.connectString.lastIndexOf(':') + 1));
  const pcap = path.join(dir, 'who.pcap');
  dump = await startTcpdump(['-i', 'lo', '-U', '-w', pcap, 'tcp', 'port', String(port)]);
  const base = `/who-${randomUUID()}`;
  const a = await ZooKeeperClient.connect(`127.0.0.1:${port}`, { sessionTimeoutMs: 30_000 });
  const b = await ZooKeeperClient.connect(`127.0.0.1:${port}`, { sessionTimeoutMs: 30_000 });
  const addr = await serverConnections(port);
  const [sa, sb] = [a.sessionIdHex, b.sessionIdHex];
  expect([addr.has(sa), addr.has(sb)]).toEqual([true, true]);

  await a.create(base, 'root');
  await a.create(`${base}/x`, 'a');
  await b.setData(`${base}/x`, 'b');
  await a.setData(`${base}/x`, 'c');
  await b.delete(`${base}/x`);
  await b.create(`${base}/eph`, 'e', { mode: 'ephemeral' });
  await a.create(`${base}/x`, 'again');
  await a.close();
  await b.close(); // the server deletes /eph with b's closeSession
  let seen: string[] = [];
  try {
    await untilCaptured(pcap, [port], (evs) => {
      seen = evs.map((e) => (e.type === 'frame' ? `${e.conn.client} ${e.frame.kind} ${e.frame.op ?? ''}` : e.type === 'bad-line' ? `line ${e.lineNo}` : `${e.conn.client} ${e.type}`));
      return evs.filter((e) => e.type === 'frame' && e.frame.kind === 'reply' && e.frame.op === 'closeSession').length === 2;
    }, AbortSignal.timeout(15_000));
  } catch (e) {
    throw new Error(`the capture did not show both closeSession replies: ${seen.join('; ')}`, { cause: e });
  }
  await dump.stop();
  dump = undefined;

  const html = path.join(dir, 'who.html');
  const dataDir = path.join(server.directory, 'data');
  const r = await zkwire('--json', 'analyze', '--port', String(port), '--data-dir', dataDir, '--path', base, '--html', html, pcap);
  expect(r.code, r.err).toBe(0);
  const report = JSON.parse(r.out) as AnalysisReport;
  const t = report.transactions!;
  expect(t.path).toBe(base);
  const who = (s: string): [string, string] => [s, addr.get(s)!];
  expect(t.changes.map((c) => [c.path.slice(base.length) || '/', c.op, c.change, c.session, c.client])).toEqual([
    ['/', 'create', 'created', ...who(sa)],
    ['/x', 'create', 'created', ...who(sa)],
    ['/x', 'setData', 'changed', ...who(sb)],
    ['/x', 'setData', 'changed', ...who(sa)],
    ['/x', 'delete', 'deleted', ...who(sb)],
    ['/eph', 'create', 'created', ...who(sb)],
    ['/x', 'create', 'created', ...who(sa)],
    ['/eph', 'closeSession', 'deleted-with-session', ...who(sb)],
  ]);
  // Within the capture, in zxid order.
  const zxids = t.changes.map((c) => BigInt(c.zxid));
  expect(zxids).toEqual([...zxids].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0)));
  for (const c of t.changes) expect(c.atMs).toBeGreaterThanOrEqual(0);
  expect(t.fromCapture).toBeGreaterThanOrEqual(t.changes.length);

  // The page: one diamond per change on its session's row, titled with zxid, op and path.
  const page = fs.readFileSync(html, 'utf8');
  const rows = [...page.matchAll(/<g class="session-row" data-session="([^"]+)">(.*?)<\/g>/g)].map((m) => ({ session: m[1]!, body: m[2]! }));
  const marks = rows.flatMap((row) => [...row.body.matchAll(/<path [^>]*class="txn ([^"]+)" data-zxid="([^"]+)"><title>([^<]*)<\/title><\/path>/g)].map((m) => ({ session: row.session, cls: m[1]!, zxid: m[2]!, title: m[3]! })));
  expect(marks.length).toBe(t.changes.length);
  for (const c of t.changes) {
    const m = marks.find((x) => x.zxid === c.zxid && x.title.includes(c.path))!;
    expect(m, `mark for ${c.zxid} ${c.path}`).toBeDefined();
    expect(m.session).toBe(c.session);
    expect(m.cls).toBe(c.change);
    expect(m.title).toContain(`zxid ${c.zxid} ${c.op} ${c.path}`);
    expect(m.title).toContain(`from ${c.client!}`);
  }
  expect(page).toContain('<section id="transactions">');

  // The same answer as text.
  const text = await zkwire('analyze', '--port', String(port), '--data-dir', dataDir, '--path', `${base}/x`, pcap);
  expect(text.code, text.err).toBe(0);
  const lines = text.out.split('\n').filter((l) => /^\| \d{4}-/.test(l));
  expect(lines.map((l) => [/deleted|data changed|created/.exec(l)![0], l.includes(addr.get(sa)!) ? 'a' : l.includes(addr.get(sb)!) ? 'b' : '?'])).toEqual([
    ['created', 'a'],
    ['data changed', 'b'],
    ['data changed', 'a'],
    ['deleted', 'b'],
    ['created', 'a'],
  ]);
}, 60_000);

it('refuses --path without --data-dir, and a data directory with no log', async () => {
  const noPath = await zkwire('analyze', '--path', '/x', 'capture.pcap');
  expect(noPath.code).toBe(2);
  expect(noPath.err).toContain('--path needs --data-dir');
  const empty = fs.mkdtempSync(path.join(dir, 'empty-'));
  // A capture that is fine (an empty one is refused before the data directory is looked at).
  const cap = path.join(process.cwd(), 'test/fixtures/golden/ping.jsonl');
  const r = await zkwire('analyze', '--data-dir', empty, cap);
  expect(r.code).toBe(1);
  expect(r.err).toContain('no log.<zxid> files');
});
