import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usingNamespace, type ZooKeeperClient } from '../../src/node.js';
import { gzipCompress, gzipDecompress } from '../../src/recipes/compression/gzip.js';
import { ServiceDiscovery } from '../../src/recipes/discovery/service-discovery.js';
import { serviceInstance } from '../../src/recipes/discovery/service-instance.js';
import { sharedServer } from '../harness/zookeeper.js';
import { closeAll, connectClients } from '../recipes/helpers.js';
import { startCuratorPeer, type CuratorPeer } from './curator-peer.js';

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);

/** Curator 5.4's namespaces and GzipCompressionProvider against ours, both ways. */
describe('interop with Apache Curator: namespaces and gzip', () => {
  let zk: ZooKeeperClient;
  let curator: CuratorPeer;

  beforeAll(async () => {
    const { connectString } = await sharedServer();
    const [clients, peer] = await Promise.all([connectClients(1, connectString), startCuratorPeer(connectString)]);
    zk = clients[0] as ZooKeeperClient;
    curator = peer;
  });
  afterAll(async () => {
    await Promise.all([closeAll(zk === undefined ? [] : [zk]), curator?.close()]);
  });

  it('Curator writes .compressed(), zkwire reads it; zkwire compresses, Curator reads .decompressed()', async () => {
    const root = `/t-${randomUUID()}`;
    const samples = [bytes('hello from Java'), new Uint8Array(0), new Uint8Array(50_000).map((_, i) => (i * 31) % 251)];
    for (const [i, data] of samples.entries()) {
      await curator.nsWrite(null, `${root}/java-${i}`, data, true);
      const stored = (await zk.getData(`${root}/java-${i}`)).data;
      expect([stored[0], stored[1]]).toEqual([0x1f, 0x8b]);
      expect(await gzipDecompress(stored, `${root}/java-${i}`)).toEqual(data);

      await zk.create(`${root}/ours-${i}`, await gzipCompress(data));
      expect(await curator.nsRead(null, `${root}/ours-${i}`, true)).toEqual(data);
    }
    // what Curator writes uncompressed is refused by ours with a typed error, not returned as garbage
    await curator.nsWrite(null, `${root}/plain`, bytes('not compressed'), false);
    await expect(gzipDecompress((await zk.getData(`${root}/plain`)).data, `${root}/plain`)).rejects.toMatchObject({ code: 'MARSHALLINGERROR' });
    await zk.deleteRecursive(root);
  });

  it('a namespace is the same place for Curator\'s usingNamespace and ours, discovery included', async () => {
    const namespace = `app-${randomUUID()}`;
    const view = usingNamespace(zk, namespace);
    await curator.nsWrite(namespace, '/config/a', bytes('from java'), false);
    expect(new TextDecoder().decode((await view.getData('/config/a')).data)).toBe('from java');
    await view.create('/config/b', 'from node');
    expect(new TextDecoder().decode(await curator.nsRead(namespace, '/config/b', false))).toBe('from node');
    expect(new TextDecoder().decode(await curator.nsRead(null, `/${namespace}/config/b`, false))).toBe('from node');

    // a discovery registry in a namespace, read by Curator's ServiceDiscovery (under the namespace's path)
    await using discovery = new ServiceDiscovery(view);
    await discovery.start();
    await discovery.registerService(serviceInstance({ name: 'svc', id: 'n1', address: 'h', port: 1 }));
    const n = await curator.sdStart(`/${namespace}/services`);
    expect((await curator.sdQuery(n, 'svc')).map((i) => i.id)).toEqual(['n1']);
    await curator.sdClose(n);
  });
});
