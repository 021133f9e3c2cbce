/**
 * The transaction logs and snapshots a real ZooKeeper 3.8 writes, decoded by `zkwire txnlog` / `zkwire snapshot`
 * and by ZooKeeper's own TxnLogToolkit and SnapshotFormatter (from the same jars the server runs): both must agree
 * on every entry's zxid, type, session and path, and every node's path, stat and data length.
 */

import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, Op, type ZooKeeperClient } from '../../../src/node.js';
import { startZooKeeper, type ZkServer } from '../../harness/zookeeper.js';
import { requireZooKeeperInstall } from '../../../src/testing/local-server/install.js';
import { RawSocket } from '../../harness/raw-socket.js';
import { connectRequestFrame, createFrame, readConnectResponse, readReplyHeader } from '../../harness/hand-frames.js';
import { FAST_START_JVM_FLAGS } from '../../../src/testing/local-server/server-process.js';
import { zkwire, jsonLines } from '../cli-io.js';
import { decodeSnapshot } from '../../../src/tools/txnlog/index.js';

const run = promisify(execFile);
let server: ZkServer;
let copy: string;
/**
 * The zxids between which both workload sessions were open and `/app/eph` existed (its create to the last setData).
 * ZooKeeper rolls its log after snapCount/2 + random(snapCount/2) transactions, so which snapshot is the newest, and
 * whether any session was still open when it was taken, is chance; a snapshot named inside this window is not.
 */
let bothOpen: { from: bigint; to: bigint; sessions: bigint[] };
/** The session that expired holding /app/doomed. */
let expiredHolding: bigint;

/**
 * A session that expires: a bare socket asks for the shortest timeout, creates the ephemeral `holding` if given,
 * then goes silent. The server's closeSession for it lists the ephemerals it deletes.
 */
async function expiringSession(port: number, holding?: string): Promise<bigint> {
  const sock = await RawSocket.connect(port);
  await sock.write(connectRequestFrame(400));
  const resp = readConnectResponse(await sock.nextFrame());
  if (holding !== undefined) {
    const frame = createFrame(1, holding);
    new DataView(frame.buffer, frame.byteOffset, frame.byteLength).setInt32(frame.byteLength - 4, 1); // flags: ephemeral
    await sock.write(frame);
    expect(readReplyHeader(await sock.nextFrame()).err).toBe(0);
  }
  sock.destroy();
  return resp.sessionId;
}

async function waitUntil(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * True once every snapshot in the directory is whole: ZooKeeper writes them on a background thread after a log roll,
 * so one may still be growing after the last transaction has been acknowledged.
 */
async function snapshotsComplete(dir: string): Promise<boolean> {
  for (const name of fs.readdirSync(dir)) {
    if (!/^snapshot\.[0-9a-f]+$/.test(name)) continue;
    try {
      const bytes = fs.readFileSync(path.join(dir, name));
      for await (const batch of decodeSnapshot((async function* () { yield bytes; })())) void batch;
    } catch {
      return false;
    }
  }
  return true;
}

async function workload(zk: ZooKeeperClient, other: ZooKeeperClient): Promise<void> {
  await zk.create('/app', 'root');
  await zk.create('/app/seq-', 'a', { mode: 'persistent-sequential' });
  await zk.create('/app/eph', 'e', { mode: 'ephemeral' });
  await zk.create('/app/eph-seq-', null, { mode: 'ephemeral-sequential' });
  await zk.create('/app/box', null, { mode: 'container' });
  await zk.create('/app/box/item', 'x');
  await zk.create('/app/ttl', 't', { mode: 'ttl', ttl: 60_000 });
  await zk.create('/app/x', 'v1', { stat: true }); // create2
  await other.setData('/app/x', 'v2');
  await other.setACL('/app/x', [{ perms: 31, id: { scheme: 'world', id: 'anyone' } }]);
  await zk.multi([Op.create('/app/m1', 'm'), Op.setData('/app', 'changed'), Op.check('/app/x', 1), Op.delete('/app/box/item')]);
  await expect(zk.multi([Op.create('/app/m2'), Op.check('/app/x', 99)])).rejects.toThrow();
  await expect(zk.create('/app/x', 'dup')).rejects.toThrow();
  await other.delete('/app/x');
  for (let i = 0; i < 12; i++) await zk.setData('/app/seq-0000000000', `n${i}`); // past snapCount: a snapshot, a new log
  await other.create('/other-eph', null, { mode: 'ephemeral' });
}

beforeAll(async () => {
  // The container sweep every 100 ms removes /app/box once the multi below has emptied it (deleteContainer).
  server = await startZooKeeper({ tickTime: 200, extraConfig: { snapCount: '10' }, jvmFlags: [...FAST_START_JVM_FLAGS, '-Dznode.container.checkIntervalMs=100'] });
  const zk = await connect(server.connectString);
  const other = await connect(server.connectString);
  await workload(zk, other);
  bothOpen = { from: (await zk.exists('/app/eph'))!.czxid, to: (await zk.exists('/app/seq-0000000000'))!.mzxid, sessions: [zk.sessionId, other.sessionId] };
  const expiring = await expiringSession(server.port);
  expiredHolding = await expiringSession(server.port, '/app/doomed');
  await other.close(); // closeSession with /other-eph in its list
  // Expired once the server has logged its closeSession (the log is flushed at every commit).
  const dataDir = path.join(server.directory, 'data');
  for (const id of [expiring, expiredHolding]) {
    await waitUntil(async () => {
      const r = await zkwire('--json', 'txnlog', '--session', `0x${BigInt.asUintN(64, id).toString(16)}`, '--op', 'closeSession', dataDir);
      return r.out.includes('closeSession');
    }, 'a bare session to expire');
  }
  await waitUntil(async () => (await zkwire('--json', 'txnlog', '--op', 'deleteContainer', dataDir)).out.includes('/app/box'), 'the container sweep');
  await zk.close(); // the last transaction
  await waitUntil(() => snapshotsComplete(path.join(dataDir, 'version-2')), 'the last snapshot to be written');
  copy = fs.mkdtempSync(path.join(os.tmpdir(), 'zkwire-txnlog-'));
  fs.cpSync(path.join(server.directory, 'data'), copy, { recursive: true });
}, 90_000);

afterAll(async () => {
  await server?.stop();
  if (copy !== undefined && process.env["KEEP_TXNLOG_COPY"] === undefined) fs.rmSync(copy, { recursive: true, force: true });
});

function files(prefix: string): string[] {
  const dir = path.join(copy, 'version-2');
  return fs
    .readdirSync(dir)
    .filter((n) => n.startsWith(`${prefix}.`))
    .sort((a, b) => (BigInt(`0x${a.split('.')[1]}`) < BigInt(`0x${b.split('.')[1]}`) ? -1 : 1))
    .map((n) => path.join(dir, n));
}

async function java(mainClass: string, ...args: string[]): Promise<string> {
  const install = requireZooKeeperInstall();
  const { stdout } = await run(install.java, ['-cp', install.classpath, mainClass, ...args], { maxBuffer: 64 * 1024 * 1024 });
  return stdout;
}

interface Txn {
  session: bigint;
  zxid: bigint;
  op: string;
  path: string | undefined;
}

/** TxnLogToolkit's lines: "<date> session 0x.. cxid 0x.. zxid 0x.. <op> <details>"; a multi's bytes may hold newlines. */
function toolkitTxns(out: string): Txn[] {
  const txns: Txn[] = [];
  for (const line of out.split('\n')) {
    const m = / session 0x([0-9a-f]+) cxid 0x[0-9a-f]+ zxid 0x([0-9a-f]+) (\w+)(?: ([^]*))?/.exec(line);
    if (m === null) continue;
    // Request.op2String spells it createTtl; setACL and delete print the record's jute toString ('/path,...).
    const op = m[3] === 'createTtl' ? 'createTTL' : m[3]!;
    const pathOps = ['create', 'create2', 'createContainer', 'createTTL', 'delete', 'deleteContainer', 'setData', 'setACL'];
    txns.push({ session: BigInt(`0x${m[1]}`), zxid: BigInt(`0x${m[2]}`), op, path: pathOps.includes(op) ? m[4]!.split(',')[0]!.replace(/^'/, '') : undefined });
  }
  return txns;
}

describe('zkwire txnlog on a real 3.8 data directory', () => {
  it('agrees with TxnLogToolkit on every entry of every log', async () => {
    const logs = files('log');
    expect(logs.length).toBeGreaterThan(1); // snapCount rolled the log
    const ours: Txn[] = [];
    const r = await zkwire('--json', 'txnlog', copy);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    for (const l of jsonLines(r.out) as { session: string; zxid: string; op: string; path?: string }[]) {
      const pathOps = ['create', 'create2', 'createContainer', 'createTTL', 'delete', 'deleteContainer', 'setData', 'setACL'];
      ours.push({ session: BigInt(l.session), zxid: BigInt(l.zxid), op: l.op, path: pathOps.includes(l.op) ? l.path : undefined });
    }
    const theirs: Txn[] = [];
    for (const log of logs) theirs.push(...toolkitTxns(await java('org.apache.zookeeper.server.persistence.TxnLogToolkit', log)));
    expect(theirs.length).toBeGreaterThan(25);
    expect(ours).toEqual(theirs);
    const ops = new Set(ours.map((t) => t.op));
    for (const op of ['createSession', 'create', 'create2', 'createContainer', 'createTTL', 'setData', 'setACL', 'multi', 'error', 'delete', 'deleteContainer', 'closeSession']) expect(ops).toContain(op);
  }, 60_000);

  it('answers who created, changed and deleted a node', async () => {
    const r = await zkwire('--json', 'txnlog', '--path', '/app/x', copy);
    expect(r.code).toBe(0);
    const lines = jsonLines(r.out) as { history?: { events: { change: string; session: string }[] }; op?: string }[];
    const history = lines.at(-1)!.history!;
    expect(history.events.map((e) => e.change)).toEqual(['created', 'changed', 'acl-changed', 'deleted']);
    const [created, changed, , deleted] = history.events;
    expect(created!.session).not.toBe(changed!.session);
    expect(deleted!.session).toBe(changed!.session);
    const text = await zkwire('txnlog', '--path', '/other-eph', copy);
    expect(text.out).toMatch(/\/other-eph deleted with its session \(closed or expired\) by session 0x[0-9a-f]+/);
  }, 30_000);

  it("shows the server's own deletes: the container sweep and an expired session's ephemerals", async () => {
    const swept = jsonLines((await zkwire('--json', 'txnlog', '--op', 'deleteContainer', copy)).out) as { session: string; path: string }[];
    expect(swept.map((l) => [BigInt(l.session), l.path])).toEqual([[0n, '/app/box']]); // the server's own session 0
    const expiredHex = `0x${BigInt.asUintN(64, expiredHolding).toString(16)}`;
    const closed = await zkwire('txnlog', '--session', expiredHex, '--op', 'closeSession', copy);
    expect(closed.out).toMatch(/ closeSession ephemerals=\[\/app\/doomed\]$/m);
    const history = await zkwire('txnlog', '--path', '/app/doomed', copy);
    expect(history.out).toMatch(new RegExp(`/app/doomed deleted with its session \\(closed or expired\\) by session ${expiredHex}`));
    // TxnLogToolkit agrees on the closeSession's paths.
    const theirs = (await Promise.all(files('log').map((l) => java('org.apache.zookeeper.server.persistence.TxnLogToolkit', l)))).join('\n');
    const line = theirs.split('\n').find((x) => x.includes(`session ${expiredHex} `) && / closeSession /.test(x));
    expect(line).toContain('/app/doomed');
  }, 60_000);

  it('summarises sessions and filters by op, session and zxid', async () => {
    const summary = await zkwire('--json', 'txnlog', '--summary', copy);
    const sessions = jsonLines(summary.out) as { session: string; start: unknown; close: unknown; created: { count: number } }[];
    expect(sessions.filter((s) => s.start !== null && s.close !== null).length).toBeGreaterThanOrEqual(3);
    const creates = await zkwire('--json', 'txnlog', '--op', 'createTTL,createContainer', copy);
    expect((jsonLines(creates.out) as { op: string }[]).map((l) => l.op).sort()).toEqual(['createContainer', 'createTTL']);
    const one = (jsonLines(creates.out) as { zxid: string; session: string }[])[0]!;
    const byZxid = await zkwire('--json', 'txnlog', '--zxid', `${one.zxid}-${one.zxid}`, '--session', one.session, copy);
    expect(jsonLines(byZxid.out)).toHaveLength(1);
  }, 30_000);
});

interface Node {
  path: string;
  czxid: bigint;
  mzxid: bigint;
  pzxid: bigint;
  cversion: number;
  version: number;
  aversion: number;
  ephemeralOwner: bigint;
  dataLength: number;
}

function formatterNodes(out: string): Node[] {
  const nodes: Node[] = [];
  const blocks = out.split('----\n');
  for (const b of blocks) {
    const m = /^(\/\S*)\n {2}cZxid = 0x([0-9a-f]+)\n {2}ctime = .*\n {2}mZxid = 0x([0-9a-f]+)\n {2}mtime = .*\n {2}pZxid = 0x([0-9a-f]+)\n {2}cversion = (-?\d+)\n {2}dataVersion = (-?\d+)\n {2}aclVersion = (-?\d+)\n {2}ephemeralOwner = 0x([0-9a-f]+)\n {2}dataLength = (\d+)/.exec(b);
    if (m === null) continue;
    nodes.push({ path: m[1]!, czxid: BigInt(`0x${m[2]}`), mzxid: BigInt(`0x${m[3]}`), pzxid: BigInt(`0x${m[4]}`), cversion: Number(m[5]), version: Number(m[6]), aversion: Number(m[7]), ephemeralOwner: BigInt(`0x${m[8]}`), dataLength: Number(m[9]) });
  }
  return nodes.sort((a, b) => a.path.localeCompare(b.path));
}

describe('zkwire snapshot on a real 3.8 data directory', () => {
  it('agrees with SnapshotFormatter on every node of every snapshot', async () => {
    const snaps = files('snapshot');
    expect(snaps.length).toBeGreaterThan(1);
    for (const snap of snaps) {
      const theirs = formatterNodes(await java('org.apache.zookeeper.server.SnapshotFormatter', snap));
      const r = await zkwire('--json', 'snapshot', snap);
      expect(r.err).toBe('');
      expect(r.code).toBe(0);
      const ours = (jsonLines(r.out) as { type: string; path: string; dataLength: number; stat: Record<string, string | number> }[])
        .filter((l) => l.type === 'node')
        .map((l) => ({
          path: l.path,
          czxid: BigInt(l.stat['czxid']!),
          mzxid: BigInt(l.stat['mzxid']!),
          pzxid: BigInt(l.stat['pzxid']!),
          cversion: Number(l.stat['cversion']),
          version: Number(l.stat['version']),
          aversion: Number(l.stat['aversion']),
          ephemeralOwner: BigInt.asUintN(64, BigInt(l.stat['ephemeralOwner']!)),
          dataLength: l.dataLength,
        }))
        .sort((a, b) => a.path.localeCompare(b.path));
      expect(theirs.length).toBeGreaterThan(1);
      expect(ours).toEqual(theirs);
    }
  }, 60_000);

  it('shows sessions, ephemerals by owner, the digest and a tree', async () => {
    const r = await zkwire('snapshot', copy); // the newest snapshot
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/digest zxid 0x[0-9a-f]+ version 2/);
    // Sessions from a snapshot taken while both workload sessions were open (at least one: the window spans more
    // transactions than the longest gap between rolls, snapCount).
    const whileOpen = files('snapshot').filter((f) => {
      const zxid = BigInt(`0x${path.basename(f).split('.')[1]}`);
      return zxid >= bothOpen.from && zxid <= bothOpen.to;
    });
    expect(whileOpen.length).toBeGreaterThan(0);
    const snap = await zkwire('snapshot', whileOpen[0]!);
    expect(snap.code).toBe(0);
    const listed = [...snap.out.matchAll(/^session 0x([0-9a-f]+) timeout \d+ms$/gm)].map((m) => BigInt(`0x${m[1]}`));
    for (const id of bothOpen.sessions) expect(listed).toContain(BigInt.asUintN(64, id));
    const owner = BigInt.asUintN(64, bothOpen.sessions[0]!).toString(16);
    expect(snap.out).toMatch(new RegExp(`^ {2}0x${owner} timeout \\d+ms: .*/app/eph\\b`, 'm'));
    const tree = await zkwire('snapshot', '--tree', '--path', '/app', copy);
    expect(tree.out).toMatch(/^\/app {2}\d+ B in \d+ node\(s\)$/m);
  }, 30_000);
});
