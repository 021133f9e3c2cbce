/**
 * TLS to ZooKeeper's secureClientPort with certificates made by the test setup (certs.ts): a trusted client does
 * ordinary work and is known to the server by its certificate; every broken trust relation fails closed — no session,
 * a typed error, and not one ZooKeeper frame sent in plaintext.
 */

import type { ConnectionOptions } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CREATOR_ALL_ACL, Perms } from '../../src/client/acl.js';
import { ZooKeeperError } from '../../src/errors.js';
import { nodeTransport, ZooKeeperClient } from '../../src/node.js';
import type { FrameTrace } from '../../src/session/trace.js';
import { haveTlsTools, makeTestPki, type TestPki } from './certs.js';
import { codeOf, uniquePath } from './helpers.js';
import { startTlsZooKeeper, type TlsZooKeeper } from './tls-server.js';

/** Long enough for a TLS handshake and a session on a slow machine, short enough that the failing cases stay quick. */
const FAILING_CONNECT_MS = 2500;
const CLIENT_DN = 'CN=zkwire test client';

let pki: TestPki;
let zk: TlsZooKeeper;

beforeAll(async () => {
  const tools = haveTlsTools();
  if (!tools.ok) throw new Error(`the TLS tests need ${tools.missing.join(' and ')} on PATH (openssl package, a JDK)`);
  pki = await makeTestPki();
  zk = await startTlsZooKeeper(pki);
});

afterAll(async () => {
  await zk?.server.stop();
  pki?.remove();
});

function tlsClient(tls: ConnectionOptions, connectString = zk.secureConnectString, onFrame?: (t: FrameTrace) => void) {
  return ZooKeeperClient.connect(connectString, {
    sessionTimeoutMs: 10_000,
    transport: nodeTransport({ tls }),
    ...(onFrame === undefined ? {} : { onFrame }),
  });
}

const trusted = (): ConnectionOptions => ({ ca: pki.ca, cert: pki.client.cert, key: pki.client.key });

/** A connection attempt that must fail: connect()'s error, and every frame the client traced meanwhile. */
async function failedAttempt(
  tls: ConnectionOptions | false,
  connectString = zk.secureConnectString,
): Promise<{ error: unknown; frames: FrameTrace[] }> {
  const frames: FrameTrace[] = [];
  let error: unknown;
  try {
    const client = await ZooKeeperClient.connect(connectString, {
      sessionTimeoutMs: 10_000,
      connectTimeoutMs: FAILING_CONNECT_MS,
      transport: nodeTransport(tls === false ? {} : { tls }),
      onFrame: (t) => frames.push(t),
    });
    await client.close();
  } catch (e) {
    // connect() closes the client it made before rejecting: nothing keeps retrying in the background.
    error = e;
  }
  return { error, frames };
}

describe('TLS to the secureClientPort', () => {
  it('a client trusting the CA and holding a signed certificate does ordinary work', async () => {
    await using client = await tlsClient(trusted());
    const path = uniquePath('tls');
    await client.create(path, 'over tls');
    await client.create(`${path}/child`, null);
    expect(new TextDecoder().decode((await client.getData(path)).data)).toBe('over tls');
    expect((await client.setData(path, 'changed')).version).toBe(1);
    expect(await client.getChildren(path)).toEqual(['child']);
    const { watch } = await client.getData(path, { watch: true });
    await client.setData(path, 'again');
    expect((await watch).type).toBe('NodeDataChanged');
    await client.deleteRecursive(path);
    expect(await client.exists(path)).toBeNull();
  });

  it('the server knows the client by its certificate: x509 identity, and auth: ACLs expand to it', async () => {
    await using client = await tlsClient(trusted());
    expect(await client.whoAmI()).toContainEqual({ scheme: 'x509', user: CLIENT_DN });
    const path = uniquePath('tls');
    await client.create(path, 'cert only', { acl: CREATOR_ALL_ACL });
    expect((await client.getACL(path)).acl).toEqual([{ perms: Perms.ALL, id: { scheme: 'x509', id: CLIENT_DN } }]);

    // The same server over plaintext has no certificate to go by.
    await using plain = await ZooKeeperClient.connect(zk.server.connectString, { sessionTimeoutMs: 10_000 });
    expect(await codeOf(plain.getData(path))).toBe('NOAUTH');
    // A second connection with the same certificate is the same identity.
    await using again = await tlsClient(trusted());
    expect(new TextDecoder().decode((await again.getData(path)).data)).toBe('cert only');
    await again.delete(path);
  });
});

describe('TLS fails closed', () => {
  it.concurrent.for([
    ['the server certificate is not signed by the CA the client trusts', () => ({ ...trusted(), ca: pki.rogueCa })],
    ['the client has no certificate and the server needs one', () => ({ ca: pki.ca })],
    ['the client certificate comes from a CA the server does not trust', () => ({ ca: pki.ca, cert: pki.rogueClient.cert, key: pki.rogueClient.key })],
  ] as const)('%s: no session, a TLS_ERROR, no ZooKeeper frame answered', async ([, tls], { expect }) => {
    const { error, frames } = await failedAttempt(tls());
    expect(error).toBeInstanceOf(ZooKeeperError);
    expect((error as ZooKeeperError).code).toBe('TLS_ERROR');
    // Nothing ever came back from the server as a ZooKeeper frame, so no session existed at any point.
    expect(frames.filter((f) => f.dir === 's2c')).toEqual([]);
  });

  it.concurrent('with an untrusted server not a single byte of the protocol is written', async ({ expect }) => {
    const { frames } = await failedAttempt({ ...trusted(), ca: pki.rogueCa });
    // The ConnectRequest (and with it anything else) would be written only after the handshake verified the server.
    expect(frames).toEqual([]);
  });

  it.concurrent('a TLS client pointed at the plaintext port gets no session instead of falling back', async ({ expect }) => {
    const { error, frames } = await failedAttempt(trusted(), zk.server.connectString);
    expect(error).toBeInstanceOf(ZooKeeperError);
    expect(frames).toEqual([]);
  });

  it.concurrent('a plaintext client gets no session from the TLS port', async ({ expect }) => {
    const { error, frames } = await failedAttempt(false);
    expect(error).toBeInstanceOf(ZooKeeperError);
    expect(frames.filter((f) => f.dir === 's2c')).toEqual([]);
  });

  it.concurrent('the error says it was the certificate, not just that time ran out', async ({ expect }) => {
    // Without this a user with a wrong CA sees only "TIMEOUT (connect): no session established within N ms".
    const { error } = await failedAttempt({ ...trusted(), ca: pki.rogueCa });
    const chain: string[] = [];
    for (let e: unknown = error; e instanceof Error && chain.length < 10; e = e.cause) {
      chain.push(`${(e as { code?: unknown }).code ?? ''} ${e.message}`);
    }
    expect(chain.join(' <- ')).toMatch(/certificate|CERT_|SELF_SIGNED|unable to verify/i);
  });
});
