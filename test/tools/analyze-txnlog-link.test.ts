/**
 * The link between transactions and a capture's sessions, without a server: which connection's client address a
 * transaction gets (the one open at its time, across a reconnect), what is listed with and without a path, and
 * transactions seen twice (several members' logs) counted once. The real-server case is analyze-txnlog.test.ts.
 */

import { describe, expect, it } from 'vitest';
import { OpCode, opName } from '../../src/protocol/index.js';
import { analyzeEvents, linkTransactions, MAX_TXN_CHANGES } from '../../src/tools/analyze/index.js';
import type { TxnEntry, TxnRecord } from '../../src/tools/txnlog/index.js';
import { Script } from './analyze-script.js';

let zxid = 0n;
function txn(session: bigint, atMs: number, type: number, record: TxnRecord, z = ++zxid): TxnEntry {
  return { header: { clientId: session, cxid: 1, zxid: z, time: atMs, type }, op: opName(type), record, digest: null };
}
const create = (path: string, ephemeral = false): TxnRecord => ({ kind: 'create', path, data: null, acl: null, ephemeral, parentCVersion: 0 });
const setData = (path: string): TxnRecord => ({ kind: 'setData', path, data: null, version: 1 });

/** Session 0xabc on 10.0.0.1, cut off, back on 10.0.0.3 a second later; session 0xdef on 10.0.0.2 throughout. */
async function capture(): Promise<{ startMs: number; report: Awaited<ReturnType<typeof analyzeEvents>> }> {
  const s = new Script();
  const startMs = s.time / 1000;
  const a = s.connect(0xabcn);
  const d = s.connect(0xdefn);
  s.wait(200);
  a.close('rst');
  s.wait(1000);
  const again = s.connect(0xabcn, { resume: true });
  s.wait(500);
  again.closeSession();
  again.close();
  d.closeSession();
  d.close();
  return { startMs, report: await analyzeEvents(s.events) };
}

describe('linking transactions to a capture', () => {
  it('gives each change the address of the connection its session had open at the time', async () => {
    const { startMs, report } = await capture();
    const entries = [
      txn(0xabcn, startMs + 100, OpCode.create, create('/n')),
      txn(0xdefn, startMs + 150, OpCode.setData, setData('/n')),
      txn(0xabcn, startMs + 1500, OpCode.setData, setData('/n')),
      txn(0x999n, startMs + 1600, OpCode.delete, { kind: 'delete', path: '/n' }),
      txn(0xabcn, startMs + 1650, OpCode.create, create('/other')),
    ];
    const byPath = linkTransactions(entries, report.sessions, report.startUs, { source: 'logs', path: '/n' });
    expect(byPath.changes.map((c) => [c.session, c.change, c.client, c.atMs])).toEqual([
      ['0xabc', 'created', '10.0.0.1:50001', 100],
      ['0xdef', 'changed', '10.0.0.2:50002', 150],
      ['0xabc', 'changed', '10.0.0.3:50003', 1500],
      ['0x999', 'deleted', null, 1600],
    ]);
    expect(byPath).toMatchObject({ path: '/n', scanned: 5, fromCapture: 4, omitted: 0 });
    // Without a path: every change of the capture's sessions, none of the others'.
    const all = linkTransactions(entries, report.sessions, report.startUs, { source: 'logs' });
    expect(all.changes.map((c) => c.path)).toEqual(['/n', '/n', '/n', '/other']);
    expect(all.changes.every((c) => c.session !== '0x999')).toBe(true);
  });

  it('counts a zxid once when two members’ logs both hold it, and bounds the list', async () => {
    const { startMs, report } = await capture();
    const one = txn(0xabcn, startMs + 100, OpCode.create, create('/a'));
    const two = txn(0xabcn, startMs + 110, OpCode.setData, setData('/a'));
    const r = linkTransactions([one, two, one, two, txn(0xabcn, startMs + 120, OpCode.delete, { kind: 'delete', path: '/a' })], report.sessions, report.startUs, { source: 'x' });
    expect(r.scanned).toBe(3);
    expect(r.changes.map((c) => c.change)).toEqual(['created', 'changed', 'deleted']);
    const many = Array.from({ length: MAX_TXN_CHANGES + 7 }, (_, i) => txn(0xabcn, startMs + 100, OpCode.create, create(`/m${i}`)));
    const bounded = linkTransactions(many, report.sessions, report.startUs, { source: 'x' });
    expect([bounded.changes.length, bounded.omitted]).toEqual([MAX_TXN_CHANGES, 7]);
  });
});
