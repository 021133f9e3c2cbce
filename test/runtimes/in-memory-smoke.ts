/**
 * The in-memory ZooKeeper's smoke run, the same under Node, Deno, Bun (in-memory-entry.ts) and workerd
 * (workerd-worker.ts): create, a watch fires, an ephemeral node goes when its session expires, a mutex from the
 * recipes acquires and releases, a service registered through `zkwire/discovery` is found. The caller passes the
 * package's exports, so this file imports nothing at run time.
 */

import type { connect as Connect, InterProcessMutex as Mutex } from '../../src/index.js';
import type { ServiceDiscovery as Discovery, serviceInstance as instanceOf } from '../../src/discovery.js';
import type { InMemoryZooKeeper as Server } from '../../src/testing-portable.js';

export interface InMemoryExports {
  readonly connect: typeof Connect;
  readonly InterProcessMutex: typeof Mutex;
  readonly InMemoryZooKeeper: typeof Server;
  readonly ServiceDiscovery: typeof Discovery;
  readonly serviceInstance: typeof instanceOf;
}

/** Step name → true, or what went wrong. */
export async function runInMemorySmoke({ connect, InterProcessMutex, InMemoryZooKeeper, ServiceDiscovery, serviceInstance }: InMemoryExports): Promise<Record<string, true | string>> {
  const results: Record<string, true | string> = {};
  const step = async (name: string, body: () => Promise<true | string>): Promise<void> => {
    try {
      results[name] = await body();
    } catch (err) {
      results[name] = `threw ${err instanceof Error ? `${err.name}: ${err.message}` : String(err)}`;
    }
  };
  const server = new InMemoryZooKeeper();
  const zk = await connect(server.connectString, { transport: server.transport, sessionTimeoutMs: 10_000 });
  try {
    await step('create', async () => ((await zk.create('/smoke', 'x')) === '/smoke' ? true : 'wrong path'));
    await step('watch fires', async () => {
      const { watch } = await zk.getData('/smoke', { watch: true });
      await zk.setData('/smoke', 'y');
      const event = await watch;
      return event.type === 'NodeDataChanged' ? true : `got ${event.type}`;
    });
    await step('ephemeral goes on expiry', async () => {
      const owner = await connect(server.connectString, { transport: server.transport, sessionTimeoutMs: 10_000, renewSession: false });
      await owner.create('/smoke/eph', null, { mode: 'ephemeral' });
      const { watch } = await zk.exists('/smoke/eph', { watch: true });
      server.expireSession(owner.sessionId);
      const event = await watch;
      await owner.close();
      return event.type === 'NodeDeleted' && (await zk.exists('/smoke/eph')) === null ? true : `got ${event.type}`;
    });
    await step('mutex', async () => {
      const mutex = new InterProcessMutex(zk, '/smoke-lock');
      const lease = await mutex.acquire();
      const held = (await mutex.getParticipantNodes()).length;
      await lease.release();
      return held === 1 && (await mutex.getParticipantNodes()).length === 0 ? true : `participants while held: ${held}`;
    });
    await step('discovery', async () => {
      await using discovery = new ServiceDiscovery(zk, { basePath: '/smoke-services' });
      await discovery.start();
      await discovery.registerService(serviceInstance({ name: 'smoke', id: 'one', address: '127.0.0.1', port: 8080 }));
      const found = await discovery.queryForInstances('smoke');
      return found.length === 1 && found[0]?.id === 'one' ? true : `found ${JSON.stringify(found.map((i) => i.id))}`;
    });
  } finally {
    await zk.close();
    await server.close();
  }
  return results;
}
