/**
 * TestingServer with `tls`: a TLS-only server (secureClientPort, no plaintext clientPort, a client certificate
 * needed) that the kit probes over TLS, on start and on restart, and whose `port` is the secure port.
 */

import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../../src/node.js';
import { ZooKeeperError } from '../../src/errors.js';
import type { TestingServer } from '../../src/testing/server.js';
import { makeTestPki, type TestPki } from '../security/certs.js';
import { startTlsOnlyZooKeeper } from '../security/tls-server.js';

let pki: TestPki;
let server: TestingServer;

beforeAll(async () => {
  pki = await makeTestPki();
  server = await startTlsOnlyZooKeeper(pki);
}, 90_000);

afterAll(async () => {
  await server?.close();
  pki?.remove();
});

const trusted = () => ({ ca: pki.ca, cert: pki.client.cert, key: pki.client.key });

describe('TestingServer with tls', () => {
  it('serves on its secureClientPort alone: no clientPort in zoo.cfg, srvr answered over TLS, the version known', async () => {
    expect(server.secure).toBe(true);
    expect(server.connectString).toBe(`127.0.0.1:${server.port}`);
    const cfg = fs.readFileSync(path.join(server.directory, 'zoo.cfg'), 'utf8');
    expect(cfg).toContain(`secureClientPort=${server.port}\n`);
    expect(cfg).not.toMatch(/^clientPort=/m);
    expect(cfg).toContain('ssl.clientAuth=need\n');
    expect(await server.fourLetter('srvr')).toMatch(/^Mode: standalone$/m);
    expect(server.version).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('a client with the certificate is x509:<DN>; a plaintext client is told the port speaks TLS', async () => {
    await using client = await connect(server.connectString, { sessionTimeoutMs: 10_000, tls: trusted() });
    expect(await client.whoAmI()).toContainEqual({ scheme: 'x509', user: 'CN=zkwire test client' });
    const refused = await connect(server.connectString, { connectTimeoutMs: 20_000 }).then(
      async (c) => {
        await c.close();
        return undefined;
      },
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(ZooKeeperError);
    expect((refused as ZooKeeperError).code).toBe('TLS_ERROR');
  });

  it('restarts on the same secure port with its data, readiness probed over TLS again', async () => {
    const { port } = server;
    await using client = await connect(server.connectString, { sessionTimeoutMs: 10_000, tls: trusted() });
    const at = `/tls-only-${randomUUID()}`;
    await client.create(at, 'kept');
    await server.restart();
    expect(server.port).toBe(port);
    await client.waitConnected();
    expect(new TextDecoder().decode((await client.getData(at)).data)).toBe('kept');
  });
});
