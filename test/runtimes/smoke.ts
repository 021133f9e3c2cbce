/**
 * The cross-runtime smoke suite, written once: connect, create/get/set/delete, a one-shot watch firing,
 * multi, and close. It imports nothing at run time (no node:*, no vitest) so the same JavaScript runs
 * under Node, Deno and Bun; each step returns `true` or a sentence saying what went wrong, and the caller
 * prints the results as JSON for runtimes.test.ts to judge.
 */

import type { collectStats, WriteOp, ZooKeeperClient } from '../../src/index.js';

export type SmokeResults = Record<string, true | string>;

/** Opens a client on the runtime under test (the entry decides the transport). */
export type ClientFactory = (connectString: string) => Promise<ZooKeeperClient>;

const decoder = new TextDecoder();

/** `collect`: the root's collectStats, passed in as the entry imported it (this file imports nothing at run time). */
export async function runSmoke(connect: ClientFactory, connectString: string, collect: typeof collectStats): Promise<SmokeResults> {
  const results: SmokeResults = {};
  const step = async (name: string, body: () => Promise<true | string>): Promise<boolean> => {
    try {
      results[name] = await body();
    } catch (err) {
      results[name] = `threw ${describe(err)}`;
    }
    return results[name] === true;
  };

  let client: ZooKeeperClient | undefined;
  const root = `/zkwire-smoke-${crypto.randomUUID()}`;
  try {
    if (!(await step('connect', async () => {
      client = await connect(connectString);
      return true;
    }))) {
      return results;
    }
    const zk = client!;

    await step('create', async () => {
      const created = await zk.create(root, new TextEncoder().encode('hello'));
      return same(created, root, 'created path');
    });

    await step('getData', async () => {
      const { data, stat } = await zk.getData(root);
      return same(decoder.decode(data), 'hello', 'data') === true ? same(stat.version, 0, 'version') : `data ${JSON.stringify(decoder.decode(data))}`;
    });

    await step('setData', async () => {
      // A string is sent as UTF-8.
      const stat = await zk.setData(root, 'world', { version: 0 });
      const { data } = await zk.getData(root);
      return same(stat.version, 1, 'version after set') === true
        ? same(decoder.decode(data), 'world', 'data after set')
        : `version after set ${stat.version}`;
    });

    await step('error codes', async () => {
      const missing = await zk.getData(`${root}/missing`).then(() => 'resolved', codeOf);
      const duplicate = await zk.create(root).then(() => 'resolved', codeOf);
      const stale = await zk.setData(root, 'x', { version: 0 }).then(() => 'resolved', codeOf);
      const got = { missing, duplicate, stale };
      const want = { missing: 'NONODE', duplicate: 'NODEEXISTS', stale: 'BADVERSION' };
      return JSON.stringify(got) === JSON.stringify(want) ? true : `codes ${JSON.stringify(got)}`;
    });

    await step('watch fires', async () => {
      const { stat, watch } = await zk.exists(root, { watch: true });
      if (stat === null) return 'exists found no node';
      await zk.setData(root, 'again');
      const event = await watch;
      return same(`${event.type} ${event.path}`, `NodeDataChanged ${root}`, 'event');
    });

    await step('multi', async () => {
      // Literal ops (not the Op builders) keep this module free of run-time imports.
      const ops: WriteOp[] = [
        { kind: 'create', path: `${root}/a`, data: 'a' },
        { kind: 'create', path: `${root}/b` },
        { kind: 'check', path: root, version: 2 },
        { kind: 'setData', path: `${root}/a`, data: 'a2', version: 0 },
        { kind: 'delete', path: `${root}/b`, version: -1 },
      ];
      const results = await zk.multi(ops);
      const types = results.map((r) => r.type).join(',');
      if (types !== 'create,create,check,setData,delete') return `multi results ${types}`;
      const children = await zk.getChildren(root);
      const { data, stat } = await zk.getData(`${root}/a`);
      const summary = JSON.stringify({ children, data: decoder.decode(data), version: stat.version });
      return same(summary, JSON.stringify({ children: ['a'], data: 'a2', version: 1 }), 'after multi');
    });

    await step('observe', async () => {
      // The client finds diagnostics_channel with process.getBuiltinModule where the runtime has it; then a call
      // is traced on zkwire:operation. Everywhere, a stats collector counts it.
      type Message = { op: string; xid?: number; bytesIn?: number; sessionId?: string };
      const dc = (globalThis as { process?: { getBuiltinModule?(id: string): any } }).process?.getBuiltinModule?.('node:diagnostics_channel');
      const seen: Message[] = [];
      const handlers = { start: () => {}, end: () => {}, asyncStart: () => {}, error: () => {}, asyncEnd: (m: Message) => void seen.push(m) };
      const channel = dc?.tracingChannel?.('zkwire:operation');
      channel?.subscribe(handlers);
      const stats = collect(zk);
      try {
        await zk.getData(root);
      } finally {
        channel?.unsubscribe(handlers);
        stats.stop();
      }
      const counted = stats.snapshot().ops['getData'];
      if (counted?.count !== 1) return `stats counted ${JSON.stringify(counted)}`;
      if (channel === undefined) return true;
      const m = seen.find((x) => x.op === 'getData');
      if (m === undefined) return `no getData on zkwire:operation (${seen.length} events)`;
      return (m.xid ?? 0) > 0 && (m.bytesIn ?? 0) > 0 ? same(m.sessionId, zk.sessionIdHex, 'traced session') : `message ${JSON.stringify(m)}`;
    });

    await step('delete', async () => {
      await zk.delete(`${root}/a`);
      await zk.delete(root);
      return (await zk.exists(root)) === null ? true : 'node still exists after delete';
    });
  } finally {
    await step('close', async () => {
      if (client === undefined) return 'no client to close';
      await client.close();
      const after = await client.exists('/').then(() => 'resolved', codeOf);
      return same(after, 'CLOSED', 'call after close');
    });
  }
  return results;
}

function same(actual: unknown, expected: unknown, what: string): true | string {
  return actual === expected ? true : `${what}: expected ${String(expected)}, got ${String(actual)}`;
}

function codeOf(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : `untyped ${describe(err)}`;
}

function describe(err: unknown): string {
  if (err instanceof Error) return `${err.name}${'code' in err ? ` ${String(err.code)}` : ''}: ${err.message}`;
  return String(err);
}
