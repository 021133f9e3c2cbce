/**
 * The in-memory server as a conformance target, reproducing the given ZooKeeper version: its default clock (real time, so the clients' pings keep sessions
 * alive) with containers and TTLs checked every 100 ms and a 500 ms tick, as the real target's server; `until`
 * moves its time forward in small steps. A client cut off by `disconnect` goes through a gate on the server's
 * transport that closes its stream and holds its reconnects until restored.
 */

import { connect, type ByteStream, type Transport, type ZooKeeperClient } from '../../src/node.js';
import { killSession } from '../../src/testing/kill-session.js';
import { InMemoryZooKeeper } from '../../src/testing/in-memory/server.js';
import type { ConformanceTarget, ConformanceVersion, Reconnect, TargetConnectOptions } from './target.js';
import { untilState } from './waits.js';

const STEP_MS = 100;
const MAX_STEPS = 200;

/** A transport that can be cut: open streams close, new connects wait until `restore()`. */
function gate(inner: Transport): { transport: Transport; cut(): void; restore(): void } {
  const open = new Set<ByteStream>();
  let opened: Promise<void> = Promise.resolve();
  let release = (): void => {};
  return {
    transport: {
      async connect(endpoint, handlers, options) {
        await opened;
        const stream = await inner.connect(endpoint, { onData: handlers.onData, onClose: (e) => (open.delete(stream), handlers.onClose(e)) }, options);
        open.add(stream);
        return stream;
      },
    },
    cut() {
      opened = new Promise((resolve) => (release = resolve));
      for (const stream of [...open]) stream.close();
    },
    restore() {
      release();
    },
  };
}

export async function startInMemoryTarget(version: ConformanceVersion): Promise<ConformanceTarget> {
  const server = new InMemoryZooKeeper({ version, tickTime: 500, containerCheckIntervalMs: 100 });
  const gates = new Map<ZooKeeperClient, ReturnType<typeof gate>>();
  return {
    name: `in-memory ${version}`,
    version,
    async connect(options: TargetConnectOptions = {}) {
      const { chroot = '', severable: _, ...clientOptions } = options;
      const g = gate(server.transport);
      const client = await connect(server.connectString + chroot, { sessionTimeoutMs: 10_000, ...clientOptions, transport: g.transport });
      gates.set(client, g);
      return client;
    },
    async expire(client) {
      await killSession(client);
    },
    async disconnect(client): Promise<Reconnect> {
      const g = gates.get(client)!;
      g.cut();
      await untilState(client, (state) => state !== 'connected');
      return async () => {
        g.restore();
        await client.waitConnected();
      };
    },
    async until(check, what) {
      for (let i = 0; i < MAX_STEPS; i++) {
        if (await check()) return;
        server.advance(STEP_MS);
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      if (!(await check())) throw new Error(`${what}: not after ${MAX_STEPS * STEP_MS} ms of server time`);
    },
    close: () => server.close(),
  };
}
