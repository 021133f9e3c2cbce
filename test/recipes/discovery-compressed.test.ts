import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compressWith, connect, type ZooKeeperClient } from '../../src/node.js';
import { GzipCompression } from '../../src/recipes/compression/gzip.js';
import { ServiceDiscovery } from '../../src/recipes/discovery/service-discovery.js';
import { serviceInstance } from '../../src/recipes/discovery/service-instance.js';
import { sharedServer } from '../harness/zookeeper.js';
import { lockPath } from './helpers.js';

/**
 * Discovery on a client with `enabled: true` (a registry shared with Java services whose framework has
 * enableCompression()): Curator's ServiceDiscovery has no compression option of its own; it follows the framework's.
 */
describe('ServiceDiscovery on a client that compresses everything', () => {
  let gz: ZooKeeperClient;
  let plain: ZooKeeperClient;

  beforeAll(async () => {
    const { connectString } = await sharedServer();
    [gz, plain] = await Promise.all([connect(connectString, { compression: compressWith(GzipCompression, { enabled: true }) }), connect(connectString)]);
  });
  afterAll(async () => {
    await Promise.all([gz?.close(), plain?.close()]);
  });

  it('writes gzip instance JSON and reads it back, by query and through its cache', async () => {
    const basePath = lockPath('services-gz');
    await using discovery = new ServiceDiscovery(gz, { basePath });
    await discovery.start();
    await discovery.registerService(serviceInstance({ name: 'api', id: 'n1', address: '10.0.0.1', port: 8080 }));
    const stored = (await plain.getData(`${basePath}/api/n1`)).data;
    expect(JSON.parse(gunzipSync(stored).toString())).toMatchObject({ name: 'api', id: 'n1', address: '10.0.0.1', port: 8080 });
    expect((await discovery.queryForInstances('api')).map((i) => i.id)).toEqual(['n1']);
    expect((await discovery.queryForInstance('api', 'n1'))?.port).toBe(8080);
    await using cache = discovery.serviceCache('api');
    await cache.start();
    expect(cache.getInstances().map((i) => i.address)).toEqual(['10.0.0.1']);
  });
});
