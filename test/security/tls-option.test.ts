/**
 * `tls` as a top-level client option (no transport to build), x509 ACLs on the identity a certificate gives, and
 * the failures retrying cannot mend reported at once as TLS_ERROR: connect() is given 60 s here and must give up
 * well before, where it used to wait out its whole deadline.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Perms } from '../../src/client/acl.js';
import { ZooKeeperError } from '../../src/errors.js';
import { connect, type TlsOptions } from '../../src/node.js';
import { haveTlsTools, makeTestPki, type TestPki } from './certs.js';
import { codeOf, uniquePath } from './helpers.js';
import { startTlsZooKeeper, type TlsZooKeeper } from './tls-server.js';

/** The deadline connect() is given: failing to report at once would show as waiting this long. */
const GENEROUS_CONNECT_MS = 60_000;
/** "At once": well under the deadline even on a loaded machine (a JVM handshake or two, one probe). */
const AT_ONCE_MS = 20_000;
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

const trusted = (): TlsOptions => ({ ca: pki.ca, cert: pki.client.cert, key: pki.client.key });

/** connect()'s rejection and how long it took. */
async function refused(options: Parameters<typeof connect>[1]): Promise<{ error: ZooKeeperError; ms: number }> {
  const started = performance.now();
  try {
    const client = await connect(zk.secureConnectString, { connectTimeoutMs: GENEROUS_CONNECT_MS, ...options });
    await client.close();
  } catch (e) {
    if (!(e instanceof ZooKeeperError)) throw e;
    return { error: e, ms: performance.now() - started };
  }
  throw new Error('connect() succeeded where it must not');
}

describe('the top-level tls option', () => {
  it('connects with a client certificate; the server knows it as x509:<DN>, and an x509 ACL naming it lets it in', async () => {
    await using client = await connect(zk.secureConnectString, { sessionTimeoutMs: 10_000, tls: trusted() });
    expect(await client.whoAmI()).toContainEqual({ scheme: 'x509', user: CLIENT_DN });
    const path = uniquePath('x509');
    await client.create(path, 'for the certificate only', { acl: [{ perms: Perms.ALL, id: { scheme: 'x509', id: CLIENT_DN } }] });
    expect(new TextDecoder().decode((await client.getData(path)).data)).toBe('for the certificate only');
    // The same server without the certificate: another identity, refused by the ACL.
    await using plain = await connect(zk.server.connectString, { sessionTimeoutMs: 10_000, authInfo: [{ scheme: 'digest', auth: 'someone:else' }] });
    expect(await codeOf(plain.getData(path))).toBe('NOAUTH');
    await client.delete(path);
  });

  it('a plaintext client at the TLS port is told at once that the server speaks TLS', async () => {
    const { error, ms } = await refused({});
    expect(error.code).toBe('TLS_ERROR');
    expect(error.message).toMatch(/speaks TLS: pass `tls`/);
    expect(ms).toBeLessThan(AT_ONCE_MS);
  });

  it.for([
    ['without a client certificate', () => ({ ca: pki.ca }), /client certificate/],
    ['with a client certificate from another CA', () => ({ ca: pki.ca, cert: pki.rogueClient.cert, key: pki.rogueClient.key }), /client certificate/],
    ['trusting another CA than the server’s', () => ({ ...trusted(), ca: pki.rogueCa }), /certificate is not trusted/],
  ] as const)('%s: TLS_ERROR at once, saying which certificate', async ([, tls, says]) => {
    const { error, ms } = await refused({ tls: tls() });
    expect(error.code).toBe('TLS_ERROR');
    expect(error.message).toMatch(says);
    expect(ms).toBeLessThan(AT_ONCE_MS);
  });
});
