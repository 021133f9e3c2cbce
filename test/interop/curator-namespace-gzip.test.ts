import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compressWith, connect, Op, usingNamespace, type ZooKeeperClient } from '../../src/node.js';
import { CuratorCache } from '../../src/recipes/cache/curator-cache.js';
import { gzipCompress, gzipDecompress, GzipCompression } from '../../src/recipes/compression/gzip.js';
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

  it('the compression option both ways: Curator .compressed() read with decompressed: true, ours read by .decompressed()', async () => {
    const { connectString } = await sharedServer();
    await using gz = await connect(connectString, { compression: compressWith(GzipCompression) });
    await using all = await connect(connectString, { compression: compressWith(GzipCompression, { enabled: true }) });
    const root = `/t-${randomUUID()}`;
    const samples = [bytes('hello from Java'), new Uint8Array(0), new Uint8Array(50_000).map((_, i) => (i * 31) % 251)];
    for (const [i, data] of samples.entries()) {
      // Curator writes (create, then setData over it), zkwire reads with the per-call flag, the client-wide option
      // and in a multiRead
      await curator.nsWrite(null, `${root}/java/${i}`, bytes('first'), true);
      await curator.nsWrite(null, `${root}/java/${i}`, data, true);
      expect((await gz.getData(`${root}/java/${i}`, { decompressed: true })).data).toEqual(data);
      expect((await all.getData(`${root}/java/${i}`)).data).toEqual(data);
      const [read] = await gz.multiRead([Op.getData(`${root}/java/${i}`, { decompressed: true })]);
      expect(read?.type === 'getData' && read.data).toEqual(data);

      // zkwire writes (create, setData, multi), Curator reads with .decompressed()
      await gz.mkdirp(`${root}/ours`);
      await gz.create(`${root}/ours/${i}`, data, { compressed: true });
      expect(await curator.nsRead(null, `${root}/ours/${i}`, true)).toEqual(data);
      await all.setData(`${root}/ours/${i}`, bytes(`set ${i}`));
      expect(new TextDecoder().decode(await curator.nsRead(null, `${root}/ours/${i}`, true))).toBe(`set ${i}`);
      await gz.multi([Op.create(`${root}/ours/m${i}`, data, { compressed: true }), Op.setData(`${root}/ours/${i}`, data, -1, { compressed: true })]);
      expect(await curator.nsRead(null, `${root}/ours/m${i}`, true)).toEqual(data);
      expect(await curator.nsRead(null, `${root}/ours/${i}`, true)).toEqual(data);
    }
    // a CuratorCache with compressedData over what Curator wrote compressed (its parents made by Curator, no data)
    await using cache = new CuratorCache(gz, `${root}/java`, { compressedData: true });
    await cache.start();
    expect(cache.get(`${root}/java/0`)?.data).toEqual(samples[0]);
    expect(cache.get(`${root}/java/2`)?.data).toEqual(samples[2]);
    await gz.deleteRecursive(root);
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
