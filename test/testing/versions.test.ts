/**
 * The kit runs the ZooKeeper it is given (`zooKeeperHome`) and says which one it runs: `version` on TestingServer
 * and on every TestingCluster member, as the server's `srvr` reports it.
 */

import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TestingCluster } from '../../src/testing/cluster.js';
import { TestingServer } from '../../src/testing/server.js';
import { harnessCleanup } from '../harness/exit-cleanup.js';
import { realClock } from '../harness/real-timers.js';
import { zooKeeperHomeFor } from '../harness/zookeeper-versions.js';

const kit = { clock: realClock, cleanup: harnessCleanup() };

describe('the kit across ZooKeeper versions', () => {
  it('a TestingServer reports the release it runs: 3.8.0 from a jar directory, 3.9.3 from a dpkg -x root', async () => {
    await using old = await TestingServer.start({ ...kit, zooKeeperHome: zooKeeperHomeFor('3.8') });
    expect(old.version).toBe('3.8.0');
    // The root Debian's package was unpacked into (usr/share/java/zookeeper.jar under it) is a zooKeeperHome too.
    const unpackedRoot = path.resolve(zooKeeperHomeFor('3.9'), '..', '..', '..');
    await using recent = await TestingServer.start({ ...kit, zooKeeperHome: unpackedRoot });
    expect(recent.version).toBe('3.9.3');
    await recent.restart();
    expect(recent.version).toBe('3.9.3');
  });

  it('every TestingCluster member reports the release it runs', async () => {
    await using cluster = await TestingCluster.start({ ...kit, size: 3, zooKeeperHome: zooKeeperHomeFor('3.9') });
    expect(cluster.servers.map((m) => m.version)).toEqual(['3.9.3', '3.9.3', '3.9.3']);
  });
});
