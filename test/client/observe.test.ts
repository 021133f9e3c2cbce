/**
 * Observability against a real server: the `zkwire:operation` TracingChannel's messages (op, path, session, xid,
 * bytes, duration, error code), the `zkwire:connection` and `zkwire:session` channels, and `collectStats(client)` (counts,
 * errors by code, percentiles, bytes, reconnects, renewals, watches), one shared server for the file.
 */

import diagnostics from 'node:diagnostics_channel';
import { beforeAll, describe, expect, it } from 'vitest';
import { ZooKeeperClient } from '../../src/node.js';
import type { ConnectionMessage, OperationMessage } from '../../src/client/observe.js';
import { expireSession, nextChange } from '../harness/expire-session.js';
import { startFaultProxy } from '../harness/fault-proxy.js';
import { sharedServer } from '../harness/zookeeper.js';
import { retryForever } from '../../src/session/retry-policy.js';
import { usingNamespace } from '../../src/client/namespace.js';
import { collectStats } from '../../src/client/collect-stats.js';
import { codeOf, connectShared, uniquePath } from './helpers.js';

let connectString: string;
let serverAddress: { host: string; port: number };

beforeAll(async () => {
  const server = await sharedServer();
  connectString = server.connectString;
  const [host = '', port = ''] = connectString.split(':');
  serverAddress = { host, port: Number(port) };
});

/** Every event of the operation channel while `body` runs, by kind, for calls of this test's client only. */
async function traced(session: () => string, body: () => Promise<void>): Promise<Record<string, OperationMessage[]>> {
  const seen: Record<string, OperationMessage[]> = { start: [], end: [], asyncStart: [], asyncEnd: [], error: [] };
  const record = (kind: string) => (m: unknown) => void seen[kind]?.push({ ...(m as OperationMessage) });
  const handlers = { start: record('start'), end: record('end'), asyncStart: record('asyncStart'), asyncEnd: record('asyncEnd'), error: record('error') };
  const channel = diagnostics.tracingChannel('zkwire:operation');
  channel.subscribe(handlers);
  try {
    await body();
  } finally {
    channel.unsubscribe(handlers);
  }
  // Other test files' clients share the process's channel: keep this client's settled calls (and their starts).
  for (const kind of ['asyncEnd', 'error'] as const) seen[kind] = seen[kind]!.filter((m) => m.sessionId === session());
  return seen;
}

describe('the zkwire:operation tracing channel', () => {
  it('traces a call from start to its end with op, path, session, xid, bytes and duration', async () => {
    await using zk = await connectShared();
    const path = uniquePath('observe');
    await zk.create(path, 'twelve bytes');
    const seen = await traced(
      () => zk.sessionIdHex,
      async () => {
        await zk.getData(path);
      },
    );
    expect(seen.start!.filter((m) => m.path === path)).toEqual([{ op: 'getData', path }]);
    const [done] = seen.asyncEnd!;
    expect(seen.asyncEnd).toHaveLength(1);
    expect(done).toMatchObject({ op: 'getData', path, sessionId: zk.sessionIdHex, code: undefined });
    expect(done!.xid).toBeGreaterThan(0);
    // getData's request: length 4, header 8, path (4 + its length), watch flag 1; the reply carries the 12 bytes.
    expect(done!.bytesOut).toBe(4 + 8 + 4 + path.length + 1);
    expect(done!.bytesIn).toBeGreaterThan(4 + 16 + 4 + 12);
    expect(done!.durationMs).toBeGreaterThan(0);
    expect(done!.result).toMatchObject({ stat: { dataLength: 12 } });
    expect(seen.error).toEqual([]);
  });

  it('publishes a failed call on error with its code, and a call refused before sending without an xid', async () => {
    await using zk = await connectShared();
    const missing = uniquePath('observe-missing');
    const aborted = new AbortController();
    const seen = await traced(
      () => zk.sessionIdHex,
      async () => {
        expect(await codeOf(zk.getData(missing))).toBe('NONODE');
        const late = zk.exists(missing, { signal: aborted.signal });
        aborted.abort();
        expect(await codeOf(late)).toBe('ABORTED');
      },
    );
    expect(seen.error!.map((m) => [m.op, m.path, m.code])).toEqual([
      ['getData', missing, 'NONODE'],
      ['exists', missing, 'ABORTED'],
    ]);
    expect(seen.error![0]!.xid).toBeGreaterThan(0);
    expect(seen.error![0]!.error).toMatchObject({ code: 'NONODE' });
    expect(seen.error![1]).toMatchObject({ xid: undefined, bytesOut: 0, bytesIn: 0 });
  });
});

describe('the zkwire:connection and zkwire:session channels', () => {
  it('publish a session established and closed, with its id and server', async () => {
    const connection: ConnectionMessage[] = [];
    const session: ConnectionMessage[] = [];
    const onConnection = (m: unknown): void => void connection.push(m as ConnectionMessage);
    const onSession = (m: unknown): void => void session.push(m as ConnectionMessage);
    diagnostics.subscribe('zkwire:connection', onConnection);
    diagnostics.subscribe('zkwire:session', onSession);
    let id = '';
    try {
      const zk = await ZooKeeperClient.connect(connectString);
      id = zk.sessionIdHex;
      await zk.close();
    } finally {
      diagnostics.unsubscribe('zkwire:connection', onConnection);
      diagnostics.unsubscribe('zkwire:session', onSession);
    }
    const mine = (m: ConnectionMessage): boolean => m.sessionId === id;
    expect(connection.filter(mine).map((m) => [m.from, m.to])).toEqual([
      ['connecting', 'connected'],
      ['connected', 'closed'],
    ]);
    expect(connection.find(mine)?.event).toBe('CONNECTED');
    expect(session.filter(mine).map((m) => [m.to, m.server])).toEqual([
      ['connected', connectString],
      ['closed', undefined],
    ]);
  });
});

describe('collectStats(client)', () => {
  it('counts calls and failures per op, errors by code, latency percentiles, bytes and watches', async () => {
    await using zk = await connectShared();
    using stats = collectStats(zk);
    const path = uniquePath('observe-stats');
    await zk.create(path, 'x');
    for (let i = 0; i < 20; i++) await zk.getData(path);
    expect(await codeOf(zk.delete(`${path}/none`))).toBe('NONODE');
    expect(await codeOf(zk.setData(path, 'y', { version: 7 }))).toBe('BADVERSION');
    const { watch } = await zk.getData(path, { watch: true });
    const figures = stats.snapshot();
    expect(figures.ops.getData).toMatchObject({ count: 21, errors: 0 });
    expect(figures.ops.create).toMatchObject({ count: 1, errors: 0 });
    expect(figures.ops.delete).toMatchObject({ count: 1, errors: 1 });
    expect(figures.errors).toEqual({ NONODE: 1, BADVERSION: 1 });
    const { p50, p90, p99, max } = figures.ops.getData!;
    expect(p50).toBeGreaterThan(0);
    expect(p50).toBeLessThanOrEqual(p90);
    expect(p90).toBeLessThanOrEqual(p99);
    expect(p99).toBeLessThanOrEqual(max);
    expect(figures.bytesOut).toBeGreaterThan(24 * 12);
    expect(figures.bytesIn).toBeGreaterThan(24 * 16);
    expect(figures.watches).toBe(1);
    expect(figures).toMatchObject({ reconnects: 0, renewals: 0 });
    await zk.setData(path, 'z');
    await watch;
    expect(stats.snapshot().watches).toBe(0);
  });

  it('counts from the moment it is made, until stop(); several count at once, each from its start', async () => {
    await using zk = await connectShared();
    await zk.exists('/');
    const first = collectStats(zk);
    await zk.exists('/');
    const second = collectStats(zk);
    await zk.exists('/');
    first.stop();
    await zk.exists('/');
    expect(first.snapshot().ops.exists).toMatchObject({ count: 2 });
    expect(second.snapshot().ops.exists).toMatchObject({ count: 2 });
    {
      using third = collectStats(zk);
      await zk.getData('/');
      expect(third.snapshot().ops).toEqual({ getData: expect.objectContaining({ count: 1 }) });
    }
    await zk.exists('/');
    expect(second.snapshot().ops.exists).toMatchObject({ count: 3 });
    second.stop();
  });

  it('counts a reconnect after a lost link and a renewal after an expiry', async () => {
    const proxy = await startFaultProxy(serverAddress);
    try {
      await using zk = await ZooKeeperClient.connect(proxy.connectString, { sessionTimeoutMs: 4000, reconnect: retryForever(20) });
      using stats = collectStats(zk);
      const back = nextChange(zk, (c) => c.event === 'RECONNECTED');
      proxy.resetAll();
      await back;
      expect(stats.snapshot()).toMatchObject({ reconnects: 1, renewals: 0 });
      const renewed = nextChange(zk, (c) => c.newSession);
      await expireSession(zk, proxy, connectString);
      await renewed;
      expect(stats.snapshot()).toMatchObject({ reconnects: 1, renewals: 1 });
      // Made after the renewal, a collector counts none of it.
      expect(collectStats(zk).snapshot()).toMatchObject({ reconnects: 0, renewals: 0 });
    } finally {
      await proxy.close();
    }
  });

  it('counts no call with observe: false; on a view, it counts the calls of the client and all its views', async () => {
    await using off = await connectShared({ observe: false });
    using none = collectStats(off);
    await off.exists('/');
    expect(none.snapshot().ops).toEqual({});
    await using zk = await connectShared();
    const view = usingNamespace(zk, '/observe-view');
    using onView = collectStats(view);
    await view.exists('/x');
    await zk.exists('/');
    expect(onView.snapshot().ops.exists).toMatchObject({ count: 2 });
  });

  it('refuses what is not a client', () => {
    expect(() => collectStats({} as ZooKeeperClient)).toThrow(/BAD_ARGUMENT.*not a ZooKeeperClient/);
  });

  it('refuses an observe option that is not a boolean', () => {
    expect(() => new ZooKeeperClient(connectString, { observe: 'yes' as unknown as boolean })).toThrow(/observe must be a boolean/);
  });
});
