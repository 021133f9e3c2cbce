import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZooKeeperClient } from '../../src/node.js';
import { decodeServiceInstance, encodeServiceInstance } from '../../src/recipes/discovery/instance-codec.js';
import { springCloudPayload, SPRING_CLOUD_INSTANCE_CLASS } from '../../src/recipes/discovery/payloads.js';
import { ServiceDiscovery } from '../../src/recipes/discovery/service-discovery.js';
import type { ServiceInstance } from '../../src/recipes/discovery/service-instance.js';
import { buildUriSpec } from '../../src/recipes/discovery/uri-spec.js';
import { expireSession } from '../harness/expire-session.js';
import { eventually, lockPath, useProxiedServer } from '../recipes/helpers.js';
import { instanceFromSpec, startCuratorPeer, type CuratorInstanceSpec, type CuratorInstanceView, type CuratorPeer } from './curator-peer.js';

/** An instance made by Curator's builder on the Java side and by serviceInstance() here, from one spec. */
const ours = instanceFromSpec;

/** What Curator should hold after deserialising our instance: every field, the payload's class, its URI. */
function viewOf(i: ServiceInstance): CuratorInstanceView {
  const p = i.payload as { '@class': string; id: string; name: string; metadata: Record<string, string> } | null;
  return {
    name: i.name,
    id: i.id,
    address: i.address,
    port: i.port,
    sslPort: i.sslPort,
    payload: p === null ? null : { class: p['@class'], id: p.id, name: p.name, metadata: p.metadata },
    registrationTimeUTC: i.registrationTimeUTC,
    serviceType: i.serviceType,
    uriSpec: i.uriSpec === null ? null : i.uriSpec.parts.map((part) => [part.value, part.variable]),
    enabled: true, // compatible mode carries no `enabled`
    uri: buildUriSpec(i),
  };
}

const byId = <T extends { id: string }>(list: readonly T[]): T[] => [...list].sort((a, b) => (a.id < b.id ? -1 : 1));

function spec(name: string, id: string, extra: Partial<CuratorInstanceSpec> = {}): CuratorInstanceSpec {
  return {
    name,
    id,
    address: '10.20.30.40',
    port: 8080,
    sslPort: null,
    payload: { id: `${name}-1`, name, metadata: { instance_status: 'UP', zone: 'eu-west-1' } },
    registrationTimeUTC: 1_700_000_000_000 + id.length,
    serviceType: 'DYNAMIC',
    uriSpec: '{scheme}://{address}:{port}',
    ...extra,
  };
}

/** Apache Curator 5.4's curator-x-discovery and ours on one registry, both ways, with Spring Cloud's payload class. */
describe('interop with Apache Curator curator-x-discovery', () => {
  const fx = useProxiedServer();
  let curator: CuratorPeer;

  beforeAll(async () => {
    curator = await startCuratorPeer(fx.connectString);
  });
  afterAll(async () => {
    await curator?.close();
  });

  it('writes the bytes Curator\'s JsonInstanceSerializer writes, and Curator reads every field back', async () => {
    const specs = [
      spec('orders', 'a', { sslPort: 8443, uriSpec: '{scheme}://{address}:{ssl-port}/x/{name}/{id}/{service-type}' }),
      spec('bare', 'b', { address: null, port: null, payload: null, uriSpec: null, serviceType: 'STATIC', registrationTimeUTC: 0 }),
      spec('odd', 'c', { address: 'ü€\u2028"\\\n\u0002', payload: { id: '\u{1F680}', name: 'x', metadata: { 'ä/b': '\u0000' } }, serviceType: 'PERMANENT' }),
    ];
    for (const s of specs) {
      const bytes = encodeServiceInstance(ours(s));
      expect(Buffer.from(bytes).toString('utf8')).toBe(Buffer.from(await curator.sdSerialize(s)).toString('utf8'));
      expect(await curator.sdDeserialize(bytes)).toEqual(viewOf(ours(s)));
    }
  });

  it('finds what a Java ServiceDiscovery registered (DYNAMIC and STATIC), every field and the Spring Cloud payload', async () => {
    const basePath = lockPath('services');
    const n = await curator.sdStart(basePath);
    const dynamic = spec('payments', 'java-dyn', { sslPort: 443 });
    const fixed = spec('payments', 'java-static', { serviceType: 'STATIC', uriSpec: null, port: 9 });
    await curator.sdRegister(n, dynamic);
    await curator.sdRegister(n, fixed);
    await using discovery = new ServiceDiscovery(fx.direct, { basePath });
    await discovery.start();
    expect(await discovery.queryForNames()).toEqual(['payments']);
    const found = byId(await discovery.queryForInstances('payments'));
    expect(found).toEqual(byId([ours(dynamic), ours(fixed)]));
    expect(found[0]?.payload).toMatchObject({ '@class': SPRING_CLOUD_INSTANCE_CLASS, metadata: { instance_status: 'UP' } });
    expect((await fx.direct.exists(`${basePath}/payments/java-dyn`))?.ephemeralOwner).not.toBe(0n);
    expect((await fx.direct.exists(`${basePath}/payments/java-static`))?.ephemeralOwner).toBe(0n);
    expect(await discovery.queryForInstance('payments', 'java-static')).toEqual(ours(fixed));

    // the cache and the provider see the same, and follow Java's update and unregistration
    await using cache = discovery.serviceCache('payments');
    await cache.start();
    expect(byId(cache.getInstances())).toEqual(byId([ours(dynamic), ours(fixed)]));
    await using provider = discovery.serviceProvider('payments', { strategy: 'sticky' });
    await provider.start();
    expect(byId(provider.getAllInstances())).toEqual(byId([ours(dynamic), ours(fixed)]));
    const chosen = provider.getInstance();
    expect([ours(dynamic), ours(fixed)]).toContainEqual(chosen);
    const updated = { ...dynamic, port: 7070 };
    await curator.sdUpdate(n, updated);
    await eventually(() => cache.getInstances().some((i) => i.port === 7070), 10_000, 'Java update seen');
    expect(cache.getInstances().find((i) => i.id === 'java-dyn')).toEqual(ours(updated));
    await curator.sdUnregister(n, fixed);
    await eventually(() => provider.getAllInstances().length === 1, 10_000, 'Java unregistration seen');
    expect(provider.getInstance()).toEqual(ours(updated));

    await curator.sdClose(n);
    expect(await discovery.queryForInstances('payments')).toEqual([]);
  });

  it('Java finds what zkwire registered, with Curator\'s own serializer; updates and unregistrations are seen', async () => {
    const basePath = lockPath('services');
    await using discovery = new ServiceDiscovery(fx.direct, { basePath });
    await discovery.start();
    const a = ours(spec('inventory', 'node-a', { sslPort: 8443 }));
    const b = ours(spec('inventory', 'node-b', { serviceType: 'STATIC' }));
    await discovery.registerService(a);
    await discovery.registerService(b);
    const n = await curator.sdStart(basePath);
    expect(await curator.sdNames(n)).toEqual(['inventory']);
    expect(byId(await curator.sdQuery(n, 'inventory'))).toEqual(byId([viewOf(a), viewOf(b)]));

    const moved = { ...a, address: '10.9.9.9', port: 9999, payload: springCloudPayload({ id: 'inventory-1', name: 'inventory', metadata: { instance_status: 'OUT_OF_SERVICE' } }) };
    await discovery.updateService(moved);
    expect(await curator.sdQueryOne(n, 'inventory', 'node-a')).toEqual(viewOf(moved));
    await discovery.unregisterService(b);
    expect(await curator.sdQueryOne(n, 'inventory', 'node-b')).toBeNull();
    expect((await curator.sdQuery(n, 'inventory')).map((i) => i.id)).toEqual(['node-a']);
    await curator.sdClose(n);
  });

  it('a zkwire registration comes back after its session expires, and a Java ServiceCache sees it return', async () => {
    fx.proxy.pass();
    const basePath = lockPath('services');
    await using client = await ZooKeeperClient.connect(fx.proxy.connectString, { sessionTimeoutMs: 4000 });
    await using discovery = new ServiceDiscovery(client, { basePath });
    await discovery.start();
    const a = ours(spec('search', 'node-a'));
    await discovery.registerService(a);
    const n = await curator.sdStart(basePath);
    const m = await curator.sdCacheStart(n, 'search');
    expect(await curator.sdCacheDump(m)).toEqual([viewOf(a)]);

    const changesBefore = curator.events.filter((e) => e === `scache n=${m} changed`).length;
    await expireSession(client, fx.proxy, fx.connectString);
    // Curator's cache sees the ephemeral go with the old session, then come back on the new one
    await eventually(() => curator.events.filter((e) => e === `scache n=${m} changed`).length >= changesBefore + 2, 20_000, 'Curator saw it go and return');
    await eventually(async () => (await curator.sdCacheDump(m)).length === 1, 20_000, 'back in the Curator cache');
    expect(await curator.sdCacheDump(m)).toEqual([viewOf(a)]);
    expect((await fx.direct.exists(`${basePath}/search/node-a`))?.ephemeralOwner).toBe(client.sessionId);
    expect(decodeServiceInstance((await fx.direct.getData(`${basePath}/search/node-a`)).data)).toEqual(a);
    await curator.sdCacheClose(m);
    await curator.sdClose(n);
  });
});
