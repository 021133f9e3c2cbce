import { describe, expect, it } from 'vitest';
import { ZooKeeperClient } from '../../src/node.js';
import { decodeServiceInstance } from '../../src/recipes/discovery/instance-codec.js';
import { springCloudPayload } from '../../src/recipes/discovery/payloads.js';
import { ServiceDiscovery, type ServiceDiscoveryEvent } from '../../src/recipes/discovery/service-discovery.js';
import { serviceInstance, type ServiceInstance } from '../../src/recipes/discovery/service-instance.js';
import { expireSession } from '../harness/expire-session.js';
import { codeOf, eventually, lockPath, useClients, useProxiedServer } from './helpers.js';

function instance(name: string, id: string, extra: Partial<Parameters<typeof serviceInstance>[0]> = {}): ServiceInstance {
  return serviceInstance({ name, id, address: '10.0.0.1', port: 8080, registrationTimeUTC: 1700000000000, ...extra });
}

describe('ServiceDiscovery', () => {
  const z = useClients(2);

  it('registers, queries, updates and unregisters at <basePath>/<name>/<id>, in Curator JSON', async () => {
    const basePath = lockPath('services');
    await using discovery = new ServiceDiscovery(z(0), { basePath });
    await discovery.start();
    const a = instance('orders', 'a', { payload: springCloudPayload({ id: 'orders-1', name: 'orders', metadata: { zone: 'x' } }) });
    await discovery.registerService(a);
    await discovery.registerService(instance('orders', 'b', { serviceType: 'STATIC' }));
    await discovery.registerService(instance('billing', 'c'));

    const stat = await z(1).exists(`${basePath}/orders/a`);
    expect(stat?.ephemeralOwner).toBe(z(0).sessionId);
    expect((await z(1).exists(`${basePath}/orders/b`))?.ephemeralOwner).toBe(0n);
    expect(decodeServiceInstance((await z(1).getData(`${basePath}/orders/a`)).data)).toEqual(a);

    const reader = new ServiceDiscovery(z(1), { basePath });
    await reader.start();
    expect((await reader.queryForNames()).sort()).toEqual(['billing', 'orders']);
    expect((await reader.queryForInstances('orders')).map((i) => i.id).sort()).toEqual(['a', 'b']);
    expect(await reader.queryForInstance('orders', 'a')).toEqual(a);
    expect(await reader.queryForInstance('orders', 'nope')).toBeNull();
    expect(await reader.queryForInstances('none')).toEqual([]);

    const moved = { ...a, port: 9090 };
    await discovery.updateService(moved);
    expect(await reader.queryForInstance('orders', 'a')).toEqual(moved);
    await discovery.unregisterService(a);
    expect(await reader.queryForInstance('orders', 'a')).toBeNull();
    expect(await codeOf(discovery.updateService(moved))).toBe('BAD_ARGUMENT');

    await discovery.close();
    expect(await reader.queryForInstances('orders')).toEqual([]);
    expect(await reader.queryForInstances('billing')).toEqual([]);
    await reader.close();
  });

  it('a clean close() or unregisterService() deletes the nodes without a registrationLost (issue #29 item 7)', async () => {
    const basePath = lockPath('services');
    const discovery = new ServiceDiscovery(z(0), { basePath, thisInstance: instance('self', 'me') });
    await discovery.start();
    await discovery.registerService(instance('other', 'o'));
    const seen: string[] = [];
    discovery.addListener((e) => seen.push(`${e.type} ${'id' in e ? e.id : e.path}`));
    await discovery.unregisterService(instance('other', 'o'));
    await discovery.close();
    expect(await z(1).exists(`${basePath}/self/me`)).toBeNull();
    expect(await z(1).exists(`${basePath}/other/o`)).toBeNull();
    expect(seen).toEqual([]);
  });

  it('start() registers thisInstance and resolves once its node exists; the lifecycle is the recipes\' one', async () => {
    const basePath = lockPath('services');
    const discovery = new ServiceDiscovery(z(0), { basePath, thisInstance: instance('self', 'me') });
    expect(discovery.state).toBe('LATENT');
    await discovery.start();
    expect(discovery.state).toBe('STARTED');
    expect(await z(1).exists(`${basePath}/self/me`)).not.toBeNull();
    expect(await codeOf(discovery.start())).toBe('ILLEGAL_STATE');
    await discovery.close();
    expect(discovery.state).toBe('CLOSED');
    expect(await z(1).exists(`${basePath}/self/me`)).toBeNull();
    expect(await codeOf(discovery.close())).toBe('ILLEGAL_STATE');
  });

  it('a DYNAMIC_SEQUENTIAL registration gets Curator\'s <id><sequence> node', async () => {
    const basePath = lockPath('services');
    await using discovery = new ServiceDiscovery(z(0), { basePath });
    await discovery.start();
    await discovery.registerService(instance('seq', 'worker-', { serviceType: 'DYNAMIC_SEQUENTIAL' }));
    const children = await z(1).getChildren(`${basePath}/seq`);
    expect(children).toHaveLength(1);
    expect(children[0]).toMatch(/^worker-\d{10}$/);
    expect((await discovery.queryForInstances('seq'))[0]?.id).toBe('worker-');
  });

  it('refuses bad names and ids before anything is sent, and a registration before start', async () => {
    const basePath = lockPath('services');
    const discovery = new ServiceDiscovery(z(0), { basePath });
    expect(await codeOf(discovery.registerService(instance('ok', 'ok')))).toBe('ILLEGAL_STATE');
    await discovery.start();
    expect(await codeOf(discovery.registerService({ ...instance('ok', 'ok'), id: 'a/b' }))).toBe('BAD_ARGUMENT');
    expect(await codeOf(discovery.registerService({ ...instance('ok', 'ok'), name: '..' }))).toBe('BAD_ARGUMENT');
    expect(await codeOf(discovery.queryForInstances('a/b'))).toBe('BAD_ARGUMENT');
    expect(await codeOf(discovery.queryForInstance('ok', ''))).toBe('BAD_ARGUMENT');
    expect(await z(1).exists(basePath)).toBeNull();
    await discovery.close();
  });

  it('skips a node that is not Curator JSON with an event, and queryForInstance names it', async () => {
    const basePath = lockPath('services');
    await using discovery = new ServiceDiscovery(z(0), { basePath });
    await discovery.start();
    await discovery.registerService(instance('mixed', 'good'));
    await z(1).create(`${basePath}/mixed/junk`, 'not json');
    const events: ServiceDiscoveryEvent[] = [];
    discovery.addListener((e) => events.push(e));
    expect((await discovery.queryForInstances('mixed')).map((i) => i.id)).toEqual(['good']);
    expect(events).toEqual([expect.objectContaining({ type: 'instanceSkipped', path: `${basePath}/mixed/junk` })]);
    expect(await codeOf(discovery.queryForInstance('mixed', 'junk'))).toBe('MARSHALLINGERROR');
    await z(1).delete(`${basePath}/mixed/junk`);
  });

  it('concurrent registrations of one id keep one node, and unregistering it leaves none', async () => {
    const basePath = lockPath('services');
    await using discovery = new ServiceDiscovery(z(0), { basePath });
    await discovery.start();
    await Promise.all([discovery.registerService(instance('svc', 'a')), discovery.registerService(instance('svc', 'a', { port: 2 }))]);
    expect(discovery.registeredInstances()).toHaveLength(1);
    expect(decodeServiceInstance((await z(1).getData(`${basePath}/svc/a`)).data).port).toBe(2);
    await discovery.unregisterService('a');
    const watch = z(1).exists(`${basePath}/svc/a`, { watch: true });
    expect((await watch).stat).toBeNull();
    // nothing left keeping it: a create by someone else is not fought over
    await z(1).create(`${basePath}/svc/a`, 'theirs');
    await new Promise((r) => setTimeout(r, 300));
    expect(new TextDecoder().decode((await z(1).getData(`${basePath}/svc/a`)).data)).toBe('theirs');
    await z(1).delete(`${basePath}/svc/a`);
  });

  it('a registration deleted by someone else is created again', async () => {
    const basePath = lockPath('services');
    await using discovery = new ServiceDiscovery(z(0), { basePath });
    await discovery.start();
    const a = instance('svc', 'a');
    await discovery.registerService(a);
    await z(1).delete(`${basePath}/svc/a`);
    await eventually(async () => (await z(1).exists(`${basePath}/svc/a`)) !== null, 10_000, 'registration back');
    expect(decodeServiceInstance((await z(1).getData(`${basePath}/svc/a`)).data)).toEqual(a);
  });

  it('a first registration replaces an ephemeral another session left on its id', async () => {
    const basePath = lockPath('services');
    await z(1).mkdirp(`${basePath}/svc`);
    await z(1).create(`${basePath}/svc/a`, 'stale', { mode: 'ephemeral' });
    await using discovery = new ServiceDiscovery(z(0), { basePath });
    await discovery.start();
    await discovery.registerService(instance('svc', 'a'), { timeoutMs: 10_000 });
    expect((await z(1).exists(`${basePath}/svc/a`))?.ephemeralOwner).toBe(z(0).sessionId);
  });
});

describe('ServiceDiscovery across a session expiry', () => {
  const fx = useProxiedServer();

  it('registrations come back on the client\'s new session', async () => {
    fx.proxy.pass();
    const basePath = lockPath('services');
    await using client = await ZooKeeperClient.connect(fx.proxy.connectString, { sessionTimeoutMs: 4000 });
    await using discovery = new ServiceDiscovery(client, { basePath });
    await discovery.start();
    const a = instance('svc', 'a');
    await discovery.registerService(a);
    const seen: string[] = [];
    discovery.addListener((e) => seen.push(e.type));
    const before = client.sessionId;
    await expireSession(client, fx.proxy, fx.connectString);
    await eventually(async () => (await fx.direct.exists(`${basePath}/svc/a`))?.ephemeralOwner === client.sessionId, 20_000, 'registration back');
    expect(client.sessionId).not.toBe(before);
    expect(decodeServiceInstance((await fx.direct.getData(`${basePath}/svc/a`)).data)).toEqual(a);
    expect(seen).toEqual(['registrationLost', 'registered']);
  });
});
