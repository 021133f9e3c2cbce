import { describe, expect, it } from 'vitest';
import { connect } from '../../src/node.js';
import { startZooKeeperVersion, ZOOKEEPER_RELEASES, type ZooKeeperVersion } from './zookeeper-versions.js';

// Each release the suite knows starts from its own jars and answers a client: the version `srvr` reports is the one
// asked for (3.9.3 must not run on the system's 3.8 jute classes, which its manifest names).
describe.each(['3.4', '3.8', '3.9'] as const)('ZooKeeper %s', (version: ZooKeeperVersion) => {
  it(`starts ${ZOOKEEPER_RELEASES[version]} and serves a client`, async () => {
    const server = await startZooKeeperVersion(version);
    try {
      expect(server.version).toBe(ZOOKEEPER_RELEASES[version]);
      const client = await connect(server.connectString);
      try {
        const path = `/versions-${version}`;
        await client.create(path, new TextEncoder().encode(version));
        expect(new TextDecoder().decode((await client.getData(path)).data)).toBe(version);
      } finally {
        await client.close();
      }
    } finally {
      await server.stop();
    }
  });
});
