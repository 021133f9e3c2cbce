/**
 * The ensemble tracker on the servers it has nothing to follow on, for real: 3.4 (no /zookeeper/config: NONODE) and
 * a 3.9 standalone server (an empty configuration). The client keeps its list, sees no state change beyond its
 * connection, and leaves no watch on the server.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZooKeeperClient } from '../../src/node.js';
import type { ServerProcess } from '../../src/testing/local-server/server-process.js';
import type { StateChange } from '../../src/session/state.js';
import { startZooKeeperVersion, type ZooKeeperVersion } from '../harness/zookeeper-versions.js';
import { serverWatchesOf } from '../recipes/helpers.js';

const versions: ZooKeeperVersion[] = ['3.4', '3.9'];
const servers = new Map<ZooKeeperVersion, ServerProcess>();

beforeAll(async () => {
  for (const v of versions) servers.set(v, await startZooKeeperVersion(v));
}, 120_000);

afterAll(async () => {
  await Promise.all([...servers.values()].map((s) => s.stop()));
});

describe.each(versions)('ensemble tracker on ZooKeeper %s (standalone)', (version) => {
  it('stays quiet: the list stays, no watch, no state change', async () => {
    const server = servers.get(version) as ServerProcess;
    const changes: StateChange[] = [];
    await using zk = await ZooKeeperClient.connect(server.connectString, { sessionTimeoutMs: 10_000 });
    zk.onStateChange((c) => changes.push(c));
    // Round trips after connecting: the tracker's read, queued when the session came up, is answered by then.
    await zk.exists('/');
    await zk.exists('/');
    expect(zk.serverList).toEqual([server.connectString]);
    expect(await serverWatchesOf(server.connectString, zk.sessionIdHex)).toEqual([]);
    expect(changes).toEqual([]);
  });
});
