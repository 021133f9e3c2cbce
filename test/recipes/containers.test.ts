/**
 * Lock directories are containers all the way up, as Curator's creatingParentContainersIfNeeded makes them: once
 * a lock is idle the server removes its directory and every ancestor the lock created. The server's container sweep
 * runs every 60 s by default; this server sweeps every 100 ms so the test can watch it happen.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InterProcessMutex, InterProcessSemaphoreV2 } from '../../src/index.js';
import { FAST_START_JVM_FLAGS } from '../../src/testing/local-server/server-process.js';
import { startZooKeeper, type ZkServer } from '../harness/zookeeper.js';
import { connectClient, eventually } from './helpers.js';

let server: ZkServer;

beforeAll(async () => {
  server = await startZooKeeper({ jvmFlags: [...FAST_START_JVM_FLAGS, '-Dznode.container.checkIntervalMs=100'] });
});

afterAll(async () => {
  await server?.stop();
});

async function gone(client: Awaited<ReturnType<typeof connectClient>>, path: string): Promise<boolean> {
  return (await client.exists(path)) === null;
}

describe('lock directories are containers', () => {
  it('a mutex creates every missing ancestor as a container, so the whole chain goes once the lock is idle', async () => {
    await using client = await connectClient(server.connectString);
    const root = `/t-${randomUUID()}`;
    const mutex = new InterProcessMutex(client, `${root}/a/b/lock`);
    const lease = await mutex.acquire();
    expect(await client.getChildren(`${root}/a/b/lock`)).toHaveLength(1);
    await lease.release();
    await eventually(() => gone(client, root), 15_000, 'the lock directory and its ancestors to be removed');
  });

  it("a semaphore's directory and its locks/ and leases/ children go too", async () => {
    await using client = await connectClient(server.connectString);
    const root = `/t-${randomUUID()}`;
    const semaphore = new InterProcessSemaphoreV2(client, `${root}/sem`, 2);
    const [lease] = await semaphore.acquire(1);
    await lease!.release();
    await eventually(() => gone(client, root), 15_000, 'the semaphore directory and its ancestors to be removed');
  });
});
