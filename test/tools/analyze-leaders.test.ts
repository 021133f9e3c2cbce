/**
 * `zkwire analyze` on a real election: three zkwire LeaderLatch candidates (Curator's node layout) on one path,
 * recorded through the tracing proxy against a real ZooKeeper, take turns: the first two leaders close their latch
 * (their node is deleted), the third closes its session. The analysis of the recorded capture must name the same
 * leaders in the same order, by session, with what ended each term and the leaderless gaps between them.
 */

import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZooKeeperClient } from '../../src/node.js';
import { LeaderLatch } from '../../src/recipes/leader/leader-latch.js';
import type { AnalysisReport, LeaderReport } from '../../src/tools/analyze/index.js';
import { JsonLinesWriter } from '../../src/tools/capture/jsonl-writer.js';
import { startTraceProxy, type TraceProxy } from '../../src/tools/trace/index.js';
import { sharedServer } from '../harness/zookeeper.js';
import { eventually } from '../recipes/helpers.js';
import { zkwire } from './cli-io.js';

let proxy: TraceProxy;
let work: string;
let file: string;
let latchPath: string;
/** The sessions in the order they led, as the latches themselves said. */
const ledInOrder: string[] = [];

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'zkwire-leaders-'));
  const first = (await sharedServer()).connectString.split(',')[0]!;
  const colon = first.lastIndexOf(':');
  const capture: string[] = [];
  const writer = new JsonLinesWriter();
  proxy = await startTraceProxy({
    listen: { host: '127.0.0.1', port: 0 },
    upstream: { host: first.slice(0, colon), port: Number(first.slice(colon + 1)) },
    onEvent: (e) => {
      const line = writer.line(e);
      if (line !== undefined) capture.push(line);
    },
  });
  latchPath = `/leaders-${randomUUID()}`;
  const clients = await Promise.all([0, 1, 2].map(() => ZooKeeperClient.connect(`127.0.0.1:${proxy.port}`, { sessionTimeoutMs: 10_000 })));
  const latches: LeaderLatch[] = [];
  // Started one after the other, each once its node exists: the sequence order is the start order.
  for (const [i, c] of clients.entries()) {
    const latch = new LeaderLatch(c, latchPath, { id: `candidate-${i}` });
    latch.start();
    await eventually(() => latch.ourPath !== undefined, 10_000, `candidate ${i} to create its node`);
    latches.push(latch);
  }
  for (const [i, latch] of latches.entries()) {
    expect(await latch.await({ timeoutMs: 15_000 })).toBe(true);
    ledInOrder.push(clients[i]!.sessionIdHex);
    if (i < 2) await latch.close();
    else await clients[i]!.close(); // the last leader's session ends under it
  }
  await Promise.all(clients.slice(0, 2).map((c) => c.close()));
  await proxy.stop();
  file = path.join(work, 'leaders.jsonl');
  writeFileSync(file, `${capture.join('\n')}\n`);
  const cleanup = await ZooKeeperClient.connect(first);
  await cleanup.deleteRecursive(latchPath).catch(() => undefined);
  await cleanup.close();
}, 90_000);

afterAll(async () => {
  await proxy?.stop();
  if (work !== undefined) rmSync(work, { recursive: true, force: true });
});

describe('leaders in a recorded LeaderLatch election', () => {
  it('names the leaders in order, by session, with what ended each term and the gaps', async () => {
    const r = await zkwire('--json', 'analyze', file);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.out) as AnalysisReport;
    const election = report.leaders.find((l) => l.path === latchPath) as LeaderReport;
    expect(election).toMatchObject({ basis: 'latch', recipe: 'Curator/zkwire LeaderLatch', candidates: 3, overlaps: [] });
    expect(election.terms.map((t) => t.session)).toEqual(ledInOrder);
    expect(election.terms.map((t) => t.ended)).toEqual(['node deleted (the candidate closed or let go)', 'node deleted (the candidate closed or let go)', 'session closed']);
    // The client is the one the capture names for the session's connection (a JSON-lines capture names it by its
    // connection; a pcap by its address): three leaders, three clients.
    for (const t of election.terms) expect(t.client).toBe(report.sessions.find((x) => x.id === t.session)!.connections[0]!.client);
    expect(new Set(election.terms.map((t) => t.client)).size).toBe(3);
    // A gap after each term: until the next leader, and after the last one to the end of the capture.
    expect(election.gaps.map((g) => [g.after, g.before])).toEqual([
      [ledInOrder[0], ledInOrder[1]],
      [ledInOrder[1], ledInOrder[2]],
      [ledInOrder[2], null],
    ]);
    for (const [i, g] of election.gaps.slice(0, 2).entries()) {
      expect(g.fromMs).toBe(election.terms[i]!.toMs);
      expect(g.toMs).toBe(election.terms[i + 1]!.fromMs);
    }
    // An election is not a lock: the latch directory is not among the locks.
    expect(report.locks.map((l) => l.dir)).not.toContain(latchPath);
  });

  it('prints the leaders as text and draws them in the HTML timeline', async () => {
    const text = await zkwire('analyze', file);
    expect(text.code).toBe(0);
    expect(text.out).toContain(`${latchPath} — Curator/zkwire LeaderLatch, 3 candidate node(s), 3 term(s), 3 gap(s) without a leader`);
    const rows = text.out.split('\n').filter((l) => ledInOrder.some((s) => l.includes(s)) && /latch-\d{10}/.test(l));
    expect(rows.map((l) => ledInOrder.find((s) => l.includes(s)))).toEqual(ledInOrder);
    const html = path.join(work, 'leaders.html');
    expect((await zkwire('analyze', '--html', html, file)).code).toBe(0);
    const page = readFileSync(html, 'utf8');
    expect(page).toContain(`data-leader="${latchPath}"`);
    for (const s of ledInOrder) expect(page).toContain(s);
    expect(page).toContain('class="gap"');
  });
});
