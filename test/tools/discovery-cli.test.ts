/**
 * `zkwire services` and `zkwire register` as users run them: services in-process against a real ZooKeeper,
 * register as the built CLI in its own process, holding its registration until SIGINT and deleting it then.
 */

import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { beforeAll, describe, expect, it } from 'vitest';
import { decodeServiceInstance } from '../../src/recipes/discovery/instance-codec.js';
import { springCloudPayload, SPRING_CLOUD_INSTANCE_CLASS } from '../../src/recipes/discovery/payloads.js';
import { ServiceDiscovery } from '../../src/recipes/discovery/service-discovery.js';
import { serviceInstance } from '../../src/recipes/discovery/service-instance.js';
import { sharedServer } from '../harness/zookeeper.js';
import { eventually, lockPath, useClients } from '../recipes/helpers.js';
import { jsonLines, zkwire } from './cli-io.js';

const MAIN = join(process.cwd(), 'dist/cli/main.js');
let connectString: string;
beforeAll(async () => {
  connectString = (await sharedServer()).connectString;
});

describe('zkwire services', () => {
  const z = useClients(1);

  it('lists services and instances as text and JSON; a broken node is reported apart, not a failure', async () => {
    const base = lockPath('services');
    await using discovery = new ServiceDiscovery(z(0), { basePath: base });
    await discovery.start();
    const a = serviceInstance({
      name: 'orders',
      id: 'a',
      address: '10.0.0.1',
      port: 8080,
      uriSpec: '{scheme}://{address}:{port}',
      payload: springCloudPayload({ id: 'orders-1', name: 'orders' }),
    });
    await discovery.registerService(a);
    await discovery.registerService(serviceInstance({ name: 'billing', id: 'b', address: '10.0.0.2', port: 9, serviceType: 'STATIC' }));
    await z(0).create(`${base}/orders/junk`, 'x');

    const text = await zkwire('--server', connectString, 'services', '--base', base);
    expect(text.code).toBe(0);
    expect(text.out).toContain('billing\n  b 10.0.0.2:9 STATIC\n');
    expect(text.out).toContain(`orders\n  a 10.0.0.1:8080 DYNAMIC http://10.0.0.1:8080 payload=`);
    expect(text.err).toContain(`skipped ${base}/orders/junk: MARSHALLINGERROR`);

    const json = await zkwire('--server', connectString, 'services', 'orders', '--base', base, '--json');
    expect(json.code).toBe(0);
    const [listing] = jsonLines(json.out) as [{ services: { name: string; instances: Record<string, unknown>[] }[]; skipped: unknown[] }];
    expect(listing.services).toEqual([{ name: 'orders', instances: [{ ...a, uri: 'http://10.0.0.1:8080' }] }]);
    expect(listing.skipped).toEqual([{ path: `${base}/orders/junk`, error: expect.stringMatching(/^MARSHALLINGERROR/) as unknown }]);

    const empty = await zkwire('--server', connectString, 'services', '--base', lockPath('none'), '--json');
    expect(jsonLines(empty.out)).toEqual([{ basePath: expect.any(String) as unknown, services: [], skipped: [] }]);
  });

  it('refuses a bad registration before connecting', async () => {
    const bad = await zkwire('--server', connectString, 'register', 'a/b', '--address', 'h', '--port', '1');
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('BAD_ARGUMENT');
    const noClass = await zkwire('--server', connectString, 'register', 'svc', '--address', 'h', '--payload', '{"x":1}');
    expect(noClass.code).toBe(2);
    expect(noClass.err).toContain('--payload-class');
  });
});

describe('zkwire register', () => {
  const z = useClients(1);

  it('holds a Spring Cloud registration until SIGINT, then deletes it and exits 130', async () => {
    const base = lockPath('services');
    const child = spawn(
      process.execPath,
      [MAIN, '--server', connectString, 'register', 'sidecar', '--id', 'one', '--address', '10.1.1.1', '--port', '7000',
        '--payload', '{"id":"sidecar-1","name":"sidecar","metadata":{"instance_status":"UP"}}', '--payload-class', 'spring-cloud',
        '--uri-spec', '{scheme}://{address}:{port}', '--base', base, '--json'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const lines: Record<string, unknown>[] = [];
    createInterface({ input: child.stdout }).on('line', (l) => lines.push(JSON.parse(l) as Record<string, unknown>));
    const exit = new Promise<number | null>((resolve) => child.on('close', resolve));

    await eventually(() => lines.length > 0, 30_000, `registered line (stderr: ${stderr})`);
    expect(lines[0]).toMatchObject({ registered: true, path: `${base}/sidecar/one` });
    const stored = decodeServiceInstance((await z(0).getData(`${base}/sidecar/one`)).data);
    expect(stored).toMatchObject({ name: 'sidecar', id: 'one', address: '10.1.1.1', port: 7000, serviceType: 'DYNAMIC' });
    expect(stored.payload).toEqual({ '@class': SPRING_CLOUD_INSTANCE_CLASS, id: 'sidecar-1', name: 'sidecar', metadata: { instance_status: 'UP' } });

    // deleted by someone: it comes back, and the sidecar says so
    await z(0).delete(`${base}/sidecar/one`);
    await eventually(() => lines.some((l) => l['event'] === 'registered'), 10_000, 'registered again');
    expect(await z(0).exists(`${base}/sidecar/one`)).not.toBeNull();

    child.kill('SIGINT');
    expect(await exit).toBe(130);
    expect(lines.at(-1)).toEqual({ unregistered: true });
    // only the deletion above was a loss: the clean close on SIGINT says nothing of one (issue #29 item 7)
    expect(lines.filter((l) => l['event'] === 'registrationLost')).toHaveLength(1);
    expect(await z(0).exists(`${base}/sidecar/one`)).toBeNull();
  });
});
