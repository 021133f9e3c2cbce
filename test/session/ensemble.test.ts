/**
 * Watches survive losing the server: kill the ensemble member the session is on and check that the
 * session resumes on another member, re-arms its watches there (setWatches/setWatches2) and delivers
 * the events for changes made while it was away and afterwards.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZooKeeperClient } from '../../src/node.js';
import type { StateChange } from '../../src/session/state.js';
import { startEnsemble, type ZkEnsemble } from '../harness/zookeeper.js';
import { uniquePath } from '../client/helpers.js';
import { retryForever } from '../../src/session/retry-policy.js';

let ensemble: ZkEnsemble;

beforeAll(async () => {
  ensemble = await startEnsemble(3);
}, 120_000);

afterAll(async () => {
  await ensemble?.close();
});

describe('reconnect to another ensemble member', () => {
  it('keeps the session and its one-shot and recursive watches', async () => {
    await using zk = await ZooKeeperClient.connect(ensemble.connectString, { sessionTimeoutMs: 8000, reconnect: retryForever(50) });
    const root = uniquePath();
    await zk.create(root, 'v0');
    await zk.create(`${root}/kid`);
    await zk.create(`${root}/r`);
    const data = await zk.getData(root, { watch: true });
    const kids = await zk.getChildren(root, { watch: true });
    const absent = await zk.exists(`${root}/later`, { watch: true });
    // On its own subtree: a 3.8.0 server keeps one watch mode per (path, connection), so a recursive watch
    // on `root` would turn the child watch there into a recursive one (fixed in 3.9, ZOOKEEPER-4466).
    const recursive = await zk.addWatch(`${root}/r`, { mode: 'persistent-recursive' });
    const id = zk.sessionId;
    const before = zk.connectedServer;
    const index = ensemble.servers.findIndex((s) => `${s.host}:${s.port}` === before);
    expect(index).toBeGreaterThanOrEqual(0);

    const changes: StateChange[] = [];
    const back = new Promise<void>((resolve) =>
      zk.onStateChange((c) => {
        changes.push(c);
        if (c.to === 'connected') resolve();
      }),
    );
    await ensemble.kill(index);
    // Change things while the client is away, through another member.
    const others = ensemble.servers.filter((_, i) => i !== index).map((s) => `${s.host}:${s.port}`).join(',');
    await using writer = await ZooKeeperClient.connect(others, { sessionTimeoutMs: 8000 });
    await writer.setData(root, 'v1');
    await back;
    expect(changes.map((c) => c.event)).toEqual(['SUSPENDED', 'RECONNECTED']);
    expect(zk.sessionId).toBe(id);
    expect(zk.connectedServer).not.toBe(before);

    // Catch-up: the data changed while away, so the re-armed data watch fires at once.
    expect(await data.watch).toMatchObject({ type: 'NodeDataChanged', path: root });
    // Still armed and firing after the move: child and exist watches, and the recursive watch.
    await writer.create(`${root}/later`);
    expect(await absent.watch).toMatchObject({ type: 'NodeCreated', path: `${root}/later` });
    expect(await kids.watch).toMatchObject({ type: 'NodeChildrenChanged', path: root });
    await writer.create(`${root}/r/x`);
    const seen: string[] = [];
    for await (const e of recursive) {
      seen.push(`${e.type} ${e.path}`);
      if (e.type === 'NodeCreated') break;
    }
    expect(seen).toEqual([`NodeCreated ${root}/r/x`]);
    await writer.deleteRecursive(root);
    await ensemble.restart(index);
  }, 120_000);
});
