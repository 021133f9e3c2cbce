/**
 * The subtree tools' pure parts (node kinds, globs, the export format's checks, import planning and batching) and
 * applyPlan stopped between batches by its signal, then finished by a second run, against the shared server.
 */

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Perms, ZooKeeperClient } from '../../../src/node.js';
import {
  applyPlan,
  batches,
  formatExport,
  globToRegExp,
  kindOf,
  looksSequential,
  parseExport,
  planImport,
  readCurrent,
  targets,
  writeSteps,
  type ExportNode,
} from '../../../src/tools/tree/index.js';
import { sharedServer } from '../../harness/zookeeper.js';

const OPEN = [{ scheme: 'world', id: 'anyone', perms: 'cdrwa' }];
const node = (path: string, data = '', extra: Partial<ExportNode> = {}): ExportNode => ({ path, kind: 'persistent', data, encoding: 'utf8', acl: OPEN, ...extra });
const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);
const OPEN_ACL = [{ perms: Perms.ALL, id: { scheme: 'world', id: 'anyone' } }];

describe('kinds, names, globs', () => {
  it('reads the kind from ephemeralOwner, signed or not', () => {
    expect(kindOf(0n)).toEqual({ kind: 'persistent' });
    expect(kindOf(-0x8000000000000000n)).toEqual({ kind: 'container' });
    expect(kindOf(-0x100000000000000n | 5000n)).toEqual({ kind: 'ttl', ttl: 5000 });
    expect(kindOf(0x1000a2b3c4d0001n)).toEqual({ kind: 'ephemeral', owner: 0x1000a2b3c4d0001n });
    expect(looksSequential('lock-0000000012')).toBe(true);
    expect(looksSequential('lock-12')).toBe(false);
  });

  it('turns globs into anchored patterns, and says what is wrong with a bad one', () => {
    const re = globToRegExp('lock-*.[ab]?') as RegExp;
    expect(['lock-1.ax', 'lock-.bz'].every((n) => re.test(n))).toBe(true);
    expect(['lock-1.cx', 'xlock-1.ax', 'lock-1.a'].some((n) => re.test(n))).toBe(false);
    expect((globToRegExp('[!a]') as RegExp).test('b')).toBe(true);
    expect(globToRegExp('a(b)+')).toEqual(/^a\(b\)\+$/su);
    expect(globToRegExp('[ab')).toBe('unclosed [ in "[ab"');
  });
});

describe('the export format', () => {
  it('writes one node per line and reads back what it wrote', () => {
    const text = formatExport('/app', [node(''), node('a', 'x')]);
    expect(text.split('\n')).toHaveLength(5);
    expect(parseExport(text)).toEqual({ format: 'zkwire-export', version: 1, root: '/app', nodes: [node(''), node('a', 'x')] });
    expect(parseExport(formatExport('/', []))).toMatchObject({ nodes: [] });
  });

  it('names what is wrong with a file', () => {
    expect(parseExport('nope')).toMatch(/^not JSON/);
    expect(parseExport('{"format":"zkwire-export","version":1,"root":"app","nodes":[]}')).toBe('root "app" is not a ZooKeeper path');
    const bad = (n: object): string | object => parseExport(JSON.stringify({ format: 'zkwire-export', version: 1, root: '/', nodes: [n] }));
    expect(bad({ ...node('a'), path: 'a//b' })).toMatch(/node 0: path "a\/\/b" is not a relative ZooKeeper path/);
    expect(bad({ ...node('a'), encoding: 'base64', data: '***' })).toBe('node 0: "a": data is not base64');
    expect(bad({ ...node('a'), acl: [{ scheme: 'world', id: 'anyone', perms: 'x' }] })).toMatch(/acl entry is not/);
    expect(bad({ ...node('a'), kind: 'ttl' })).toBe('node 0: "a": a ttl node needs ttl (ms > 0)');
  });
});

describe('planning', () => {
  const file = [node('', 'root'), node('b/c', 'c'), node('b', 'b'), node('e', '', { kind: 'ephemeral', owner: '0x1' })];

  it('creates what is missing, parents first; skips ephemerals; leaves or overwrites what differs', () => {
    const current = new Map([
      ['/t', { data: bytes('root'), acl: OPEN_ACL, kind: 'persistent' as const }],
      ['/t/b', { data: bytes('changed'), acl: OPEN_ACL, kind: 'persistent' as const }],
    ]);
    const plan = planImport(file, current, { to: '/t', overwrite: false });
    expect(plan.map((s) => `${s.action} ${s.path}`)).toEqual(['unchanged /t', 'left /t/b', 'create /t/b/c', 'skipped /t/e']);
    expect(plan[1]).toMatchObject({ differs: ['data'] });
    const over = planImport(file, current, { to: '/t', overwrite: true });
    expect(over[1]).toMatchObject({ action: 'update', differs: ['data'] });
    expect(targets(file, '/').map((t) => t.path)).toEqual(['/', '/b', '/b/c', '/e']);
    // ZooKeeper's own subtree is never written, whatever the file says.
    expect(planImport([node('zookeeper/quota', 'q')], new Map(), { to: '/', overwrite: true })).toEqual([{ action: 'skipped', path: '/zookeeper/quota', reason: "ZooKeeper's own subtree, not written" }]);
  });

  it('cuts the writes into batches under the byte budget, a large node alone', () => {
    const big = 'x'.repeat(300);
    const plan = planImport([node('a', big), node('b', big), node('c', big), node('d', 'x'.repeat(2000)), node('e')], new Map(), { to: '/t', overwrite: false });
    expect(batches(writeSteps(plan), 1000).map((b) => b.map((s) => s.path))).toEqual([['/t/a', '/t/b'], ['/t/c'], ['/t/d'], ['/t/e']]);
  });
});

describe('applyPlan against a server', () => {
  let zk: ZooKeeperClient;
  beforeAll(async () => {
    zk = new ZooKeeperClient((await sharedServer()).connectString);
  });
  afterAll(async () => {
    await zk?.close();
  });

  it('stops between batches when its signal aborts, and a second run finishes the job', async () => {
    const to = `/apply-${randomUUID()}`;
    // ~130 bytes for the root, ~533 per child: batches [root, n0], [n1, n2], [n3, n4], [n5] under 1100 bytes.
    const nodes = [node(''), ...Array.from({ length: 6 }, (_, i) => node(`n${i}`, 'y'.repeat(400)))];
    const plan = planImport(nodes, await readCurrent(zk, targets(nodes, to).map((t) => t.path)), { to, overwrite: false });
    const stop = new AbortController();
    const first = await applyPlan(zk, plan, { signal: stop.signal, batchBytes: 1100, onBatch: (done) => done === 2 && stop.abort() });
    expect(first).toMatchObject({ interrupted: true, batches: 2, batchesTotal: 4 });
    expect(first.written.map((s) => s.path)).toEqual([to, `${to}/n0`, `${to}/n1`, `${to}/n2`]);
    expect(await zk.getAllChildrenNumber(to)).toBe(3);

    const again = planImport(nodes, await readCurrent(zk, targets(nodes, to).map((t) => t.path)), { to, overwrite: false });
    expect(again.filter((s) => s.action === 'unchanged')).toHaveLength(4);
    const second = await applyPlan(zk, again, { batchBytes: 1100 });
    expect(second).toMatchObject({ interrupted: false, batches: 2, batchesTotal: 2 });
    expect((await zk.getChildren(to)).sort()).toEqual(['n0', 'n1', 'n2', 'n3', 'n4', 'n5']);
  });
});
