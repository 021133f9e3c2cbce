import { describe, expect, it } from 'vitest';
import { DownInstances } from '../../src/recipes/discovery/down-instances.js';
import { randomStrategy, roundRobinStrategy, stickyStrategy } from '../../src/recipes/discovery/provider-strategies.js';
import { ServiceCache, type ServiceCacheEvent } from '../../src/recipes/discovery/service-cache.js';
import { ServiceDiscovery } from '../../src/recipes/discovery/service-discovery.js';
import { serviceInstance, type ServiceInstance } from '../../src/recipes/discovery/service-instance.js';
import { ManualClock } from '../harness/manual-clock.js';
import { ZooKeeperClient } from '../../src/node.js';
import { expireSession } from '../harness/expire-session.js';
import { codeOf, eventually, lockPath, useClients, useProxiedServer } from './helpers.js';

const inst = (id: string, extra: Partial<Parameters<typeof serviceInstance>[0]> = {}): ServiceInstance =>
  serviceInstance({ name: 'svc', id, address: 'h', port: 1, registrationTimeUTC: 1, ...extra });

describe('provider strategies and the down-instance policy (no server)', () => {
  const [a, b, c] = [inst('a'), inst('b'), inst('c')];
  const all = [a, b, c];

  it('round robin walks the instances in turn; random picks by its source; both give null for none', () => {
    const rr = roundRobinStrategy();
    expect([1, 2, 3, 4].map(() => rr.getInstance(all)?.id)).toEqual(['a', 'b', 'c', 'a']);
    expect(rr.getInstance([])).toBeNull();
    const values = [0, 0.5, 0.99];
    const random = randomStrategy(() => values.shift() ?? 0);
    expect([1, 2, 3].map(() => random.getInstance(all)?.id)).toEqual(['a', 'b', 'c']);
    expect(random.getInstance([])).toBeNull();
  });

  it('sticky keeps its instance while it is on offer (even updated), then asks its master', () => {
    const sticky = stickyStrategy(roundRobinStrategy());
    expect(sticky.getInstance(all)?.id).toBe('a');
    expect(sticky.getInstance([c, { ...a, port: 2 }])?.port).toBe(2);
    expect(sticky.getInstance([b, c])?.id).toBe('c'); // the master's second pick
    expect(sticky.instanceNumber).toBe(1);
  });

  it('takes an instance out after errorThreshold errors, for timeoutMs from the first', () => {
    let now = 0;
    const down = new DownInstances({ errorThreshold: 2, timeoutMs: 1000 }, () => now);
    down.noteError(a);
    expect(down.isUp(a)).toBe(true);
    now = 500;
    down.noteError(a);
    expect(down.isUp(a)).toBe(false);
    expect(down.isUp(b)).toBe(true);
    now = 999;
    expect(down.isUp(a)).toBe(false);
    now = 1000;
    expect(down.isUp(a)).toBe(true);
  });
});

describe('ServiceCache and ServiceProvider on a real server', () => {
  const z = useClients(2);

  it('the cache follows registrations, and skips a node that is not Curator JSON with an event', async () => {
    const basePath = lockPath('services');
    await using discovery = new ServiceDiscovery(z(0), { basePath });
    await discovery.start();
    await discovery.registerService(inst('a'));
    await z(1).create(`${basePath}/svc/junk`, '{"name": 1}');
    await using cache = new ServiceCache(z(1), 'svc', { basePath });
    const events: ServiceCacheEvent[] = [];
    cache.addListener((e) => events.push(e));
    await cache.start();
    expect(cache.getInstances().map((i) => i.id)).toEqual(['a']);
    expect(events.map((e) => e.type).sort()).toEqual(['initialized', 'instanceAdded', 'instanceSkipped']);

    await discovery.registerService(inst('b'));
    await eventually(() => cache.getInstances().length === 2, 10_000, 'b seen');
    await discovery.updateService(inst('b', { port: 2 }));
    await eventually(() => cache.getInstances().some((i) => i.id === 'b' && i.port === 2), 10_000, 'b updated');
    await discovery.unregisterService('a');
    await eventually(() => cache.getInstances().length === 1, 10_000, 'a gone');
    // a good node turning bad is removed, with the skip reported
    await z(1).setData(`${basePath}/svc/junk`, 'still not json');
    await z(0).setData(`${basePath}/svc/b`, 'broken');
    await eventually(() => cache.getInstances().length === 0, 10_000, 'b broken, left out');
    const tail = events.slice(-3).map((e) => e.type);
    expect(tail).toContain('instanceRemoved');
    expect(events.filter((e) => e.type === 'instanceSkipped').length).toBeGreaterThanOrEqual(3);
    expect(events).toContainEqual(expect.objectContaining({ type: 'instanceChanged', node: 'b' }));
  });

  it('the provider hands out enabled, filtered, up instances by its strategy', async () => {
    const basePath = lockPath('services');
    await using discovery = new ServiceDiscovery(z(0), { basePath });
    await discovery.start();
    for (const i of [inst('a'), inst('b', { port: 2 }), inst('c', { port: 3 })]) await discovery.registerService(i);
    await discovery.registerService(inst('off', { enabled: false }));
    await z(1).create(`${basePath}/svc/junk`, 'nope');
    const clock = new ManualClock();
    await using provider = discovery.serviceProvider('svc', {
      filters: [(i) => i.port !== 3],
      downInstancePolicy: { errorThreshold: 1, timeoutMs: 60_000 },
      clock,
    });
    await provider.start();
    // compatible JSON drops `enabled`, as Curator's does: `off` reads back enabled
    expect(provider.getAllInstances().map((i) => i.id).sort()).toEqual(['a', 'b', 'off']);
    const picks = new Set([1, 2, 3].map(() => provider.getInstance()?.id));
    expect(picks).toEqual(new Set(['a', 'b', 'off']));
    const b = provider.getAllInstances().find((i) => i.id === 'b') as ServiceInstance;
    provider.noteError(b);
    expect(provider.getAllInstances().map((i) => i.id).sort()).toEqual(['a', 'off']);
    clock.advance(60_000);
    expect(provider.getAllInstances().map((i) => i.id).sort()).toEqual(['a', 'b', 'off']);
    await provider.close();
    expect(await codeOf(Promise.resolve().then(() => provider.getAllInstances()))).toBe('ILLEGAL_STATE');
  });

  it('in non-compatible mode `enabled: false` travels, and the provider leaves such instances out', async () => {
    const basePath = lockPath('services');
    await using discovery = new ServiceDiscovery(z(0), { basePath, compatible: false });
    await discovery.start();
    await discovery.registerService(inst('a'));
    await discovery.registerService(inst('off', { enabled: false }));
    await using provider = discovery.serviceProvider('svc');
    await provider.start();
    expect(provider.getAllInstances().map((i) => i.id)).toEqual(['a']);
  });
});

describe('ServiceCache across a session expiry', () => {
  const fx = useProxiedServer();

  it('goes stale at the expiry and resyncs on the new session, with what changed meanwhile', async () => {
    fx.proxy.pass();
    const basePath = lockPath('services');
    await using client = await ZooKeeperClient.connect(fx.proxy.connectString, { sessionTimeoutMs: 4000 });
    await using discovery = new ServiceDiscovery(fx.direct, { basePath });
    await discovery.start();
    await discovery.registerService(inst('a'));
    await using cache = new ServiceCache(client, 'svc', { basePath });
    const events: string[] = [];
    cache.addListener((e) => events.push(e.type === 'instanceAdded' || e.type === 'instanceRemoved' ? `${e.type}:${e.node}` : e.type));
    await cache.start();
    await expireSession(client, fx.proxy, fx.connectString);
    await discovery.registerService(inst('b')); // while the cache's session is gone
    await discovery.unregisterService('a');
    await eventually(() => events.includes('resynced'), 20_000, 'resynced');
    expect(cache.getInstances().map((i) => i.id)).toEqual(['b']);
    expect(events.slice(events.indexOf('stale'))).toEqual(expect.arrayContaining(['stale', 'instanceAdded:b', 'instanceRemoved:a', 'resynced']));
  });
});
