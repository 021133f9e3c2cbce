/**
 * The smoke run inside workerd: a Worker whose fetch handler connects through `cloudflare:sockets` with the
 * stream-socket transport, runs the cross-runtime smoke suite (smoke.ts) plus a mutex acquire/release, and answers
 * with the same JSON the other runtimes print. Query: `?connect=<connectString>`.
 *
 * The import of src/index.ts is for the type-checker only: workerd.ts bundles this file with esbuild and resolves
 * that import to 'zkwire' in the consumer project (the packed package, through its `workerd` export condition),
 * so the Worker runs what a Worker project would get from npm.
 */

import { connect as socketConnect } from 'cloudflare:sockets';
import { collectStats, connect, InterProcessMutex, streamSocketTransport, type ZooKeeperClient } from '../../src/index.js';
import { InMemoryZooKeeper } from '../../src/testing-portable.js';
import { ServiceDiscovery, serviceInstance } from '../../src/discovery.js';
import { runInMemorySmoke } from './in-memory-smoke.js';
import { runSmoke, type SmokeResults } from './smoke.js';

const transport = streamSocketTransport(socketConnect);
const open = (connectString: string): Promise<ZooKeeperClient> => connect(connectString, { transport, sessionTimeoutMs: 10_000 });

/** Acquire and release a mutex; the lock node must exist while held and be gone after. */
async function mutexStep(connectString: string): Promise<true | string> {
  const zk = await open(connectString);
  try {
    const path = `/zkwire-smoke-lock-${crypto.randomUUID()}`;
    const mutex = new InterProcessMutex(zk, path);
    const lease = await mutex.acquire();
    const held = await mutex.getParticipantNodes();
    if (held.length !== 1 || !mutex.isAcquiredInThisProcess()) return `while held: participants ${JSON.stringify(held)}`;
    await lease.release();
    const after = await mutex.getParticipantNodes();
    if (after.length !== 0 || mutex.isAcquiredInThisProcess()) return `after release: participants ${JSON.stringify(after)}`;
    await zk.deleteRecursive(path);
    return true;
  } finally {
    await zk.close();
  }
}

export default {
  async fetch(request: Request): Promise<Response> {
    const connectString = new URL(request.url).searchParams.get('connect') ?? '';
    const results: SmokeResults = await runSmoke(open, connectString, collectStats);
    try {
      results['mutex'] = await mutexStep(connectString);
    } catch (err) {
      results['mutex'] = `threw ${err instanceof Error ? `${err.name}: ${err.message}` : String(err)}`;
    }
    try {
      const inMemory = await runInMemorySmoke({ connect, InterProcessMutex, InMemoryZooKeeper, ServiceDiscovery, serviceInstance });
      const failed = Object.entries(inMemory).filter(([, outcome]) => outcome !== true);
      results['in-memory'] = failed.length === 0 ? true : JSON.stringify(failed);
    } catch (err) {
      results['in-memory'] = `threw ${err instanceof Error ? `${err.name}: ${err.message}` : String(err)}`;
    }
    const runtime = `workerd ${(globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent ?? ''}`.trim();
    return new Response(JSON.stringify({ runtime, transport: 'stream-socket', results }), {
      headers: { 'content-type': 'application/json' },
    });
  },
};
