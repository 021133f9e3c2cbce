import { describe, expect, it } from 'vitest';
import { namespaceOf, Op, usingNamespace, ZooKeeperClient } from '../../src/node.js';
import { CuratorCache } from '../../src/recipes/cache/curator-cache.js';
import { InterProcessMutex } from '../../src/recipes/locks/mutex.js';
import { ServiceDiscovery } from '../../src/recipes/discovery/service-discovery.js';
import { serviceInstance } from '../../src/recipes/discovery/service-instance.js';
import { expireSession } from '../harness/expire-session.js';
import { codeOf, eventually, serverWatchesOf, useClients, useProxiedServer } from '../recipes/helpers.js';
import { randomUUID } from 'node:crypto';

const ns = (): string => `ns-${randomUUID()}`;

describe('usingNamespace: a view of the client under a path prefix, on the same session', () => {
  const z = useClients(1);

  it('maps every path (ops, results, watch events, multi) and makes the namespace as containers first', async () => {
    const name = ns();
    const view = usingNamespace(z(0), `${name}/app`);
    expect(namespaceOf(view)).toBe(`/${name}/app`);
    expect(view.sessionId).toBe(z(0).sessionId);
    expect(await view.create('/a', 'x')).toBe('/a');
    expect((await z(0).exists(`/${name}`))?.ephemeralOwner).toBe(0n);
    expect(new TextDecoder().decode((await z(0).getData(`/${name}/app/a`)).data)).toBe('x');
    expect(await view.getChildren('/')).toEqual(['a']);
    const { watch } = await view.getData('/a', { watch: true });
    await z(0).setData(`/${name}/app/a`, 'y');
    expect((await watch).path).toBe('/a');
    const results = await view.multi([Op.create('/b', 'b'), Op.setData('/a', 'z', -1)]);
    expect(results[0]).toMatchObject({ type: 'create', path: '/b' });
    // the container goes once emptied, as Curator's namespace nodes do
    const created = await z(0).getData(`/${name}`);
    expect(created.stat.ephemeralOwner).toBe(0n);
  });

  it('one view per namespace; a view\'s usingNamespace replaces it; null gives the client; bad names are refused', async () => {
    const name = ns();
    const view = usingNamespace(z(0), name);
    expect(usingNamespace(z(0), `/${name}`)).toBe(view);
    expect(usingNamespace(view, null)).toBe(z(0));
    expect(namespaceOf(usingNamespace(view, 'other'))).toBe('/other');
    expect(namespaceOf(z(0))).toBeUndefined();
    expect(() => usingNamespace(z(0), 'a//b')).toThrow(expect.objectContaining({ code: 'BAD_ARGUMENT' }) as Error);
    await view.close(); // a view does not own the session
    expect(z(0).state).toBe('connected');
    expect(await view.exists('/')).not.toBeNull();
  });

  it('every recipe works in a view: discovery, a lock, a cache', async () => {
    const name = ns();
    const view = usingNamespace(z(0), name);
    await using discovery = new ServiceDiscovery(view);
    await discovery.start();
    await discovery.registerService(serviceInstance({ name: 'svc', id: 'a', address: 'h', port: 1 }));
    expect(await z(0).exists(`/${name}/services/svc/a`)).not.toBeNull();
    expect((await discovery.queryForInstances('svc')).map((i) => i.id)).toEqual(['a']);

    const lease = await new InterProcessMutex(view, '/locks/m').acquire();
    expect(lease.acquired && lease.node.startsWith('/locks/m/')).toBe(true);
    if (lease.acquired) await lease.release();

    await using cache = new CuratorCache(view, '/services');
    await cache.start();
    expect(cache.get('/services/svc/a')).toBeDefined();
    await discovery.unregisterService('a');
    await eventually(() => cache.get('/services/svc/a') === undefined, 10_000, 'cache saw the delete');
  });
});

describe('usingNamespace across a session expiry', () => {
  const fx = useProxiedServer();

  it('a view\'s persistent watch is carried to the new session: a cache in a view keeps following', async () => {
    fx.proxy.pass();
    const name = ns();
    await using client = await ZooKeeperClient.connect(fx.proxy.connectString, { sessionTimeoutMs: 4000 });
    const view = usingNamespace(client, name);
    await view.create('/root', '');
    await using cache = new CuratorCache(view, '/root');
    await cache.start();
    await expireSession(client, fx.proxy, fx.connectString);
    await client.waitConnected();
    await eventually(() => !cache.stale, 20_000, 'the cache resynced on the new session');
    // the view's recursive watch is on the new session, at the namespaced server path
    await eventually(async () => (await serverWatchesOf(fx.connectString, client.sessionIdHex)).includes(`/${name}/root`), 10_000, 'watch carried');
    await fx.direct.create(`/${name}/root/after`, 'x');
    await eventually(() => cache.get('/root/after') !== undefined, 20_000, 'the cache in the view saw a change after the expiry');
    expect(await codeOf(view.getData('/missing'))).toBe('NONODE');
  });

  it('a persistent watch set through a view is carried by the client to its new session, events namespaced', async () => {
    fx.proxy.pass();
    const name = ns();
    await using client = await ZooKeeperClient.connect(fx.proxy.connectString, { sessionTimeoutMs: 4000 });
    const view = usingNamespace(client, name);
    await view.create('/w', '');
    await using watch = await view.addWatch('/w', { mode: 'persistent-recursive' });
    await expireSession(client, fx.proxy, fx.connectString);
    await client.waitConnected();
    await eventually(async () => (await serverWatchesOf(fx.connectString, client.sessionIdHex)).includes(`/${name}/w`), 10_000, 'watch carried');
    await fx.direct.create(`/${name}/w/after`, 'x');
    for await (const event of watch) {
      if (event.type === 'NodeCreated') {
        expect(event.path).toBe('/w/after');
        break;
      }
    }
  });
});
