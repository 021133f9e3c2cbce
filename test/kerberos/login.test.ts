/**
 * SASL GSSAPI against real Kerberos: MIT's KDC (TestingKdc) and a ZooKeeper 3.8 server whose JAAS Server section
 * logs in from its keytab as zookeeper/localhost. A password and a keytab log in; the identity is sasl:<principal>;
 * an ACL on it admits that principal and keeps others out; each failure is AUTHFAILED naming the Kerberos cause.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Perms } from '../../src/client/acl.js';
import { KerberosError } from '../../src/kerberos/errors.js';
import { saslGssapi } from '../../src/kerberos-node.js';
import { parseKrb5Config } from '../../src/kerberos/krb5-conf.js';
import { createSaslGssapi } from '../../src/kerberos/sasl-gssapi.js';
import { killSession } from '../../src/testing/kill-session.js';
import { ZooKeeperClient } from '../../src/node.js';
import { TestingKdc } from '../../src/testing/kdc.js';
import { harnessCleanup } from '../harness/exit-cleanup.js';
import { startZooKeeper, type ZkServer } from '../harness/zookeeper.js';
import { codeOf, uniquePath } from '../client/helpers.js';

let kdc: TestingKdc;
let server: ZkServer;
let connectString: string;

beforeAll(async () => {
  kdc = await TestingKdc.start({ cleanup: harnessCleanup() });
  server = await startZooKeeper(await kdc.zooKeeperServerOptions());
  // The servers' principal names localhost: connect by that name, as clients of a real ensemble use its hostnames.
  connectString = server.connectString.replace('127.0.0.1', 'localhost');
  await kdc.addPrincipal('alice', 'alice-secret');
  await kdc.addPrincipal('bob', 'bob-secret');
}, 90_000);

afterAll(async () => {
  await server?.stop();
  await kdc?.stop();
});

async function authFailure(sasl: ReturnType<typeof saslGssapi>): Promise<{ code: string | undefined; cause: KerberosError }> {
  const err = (await ZooKeeperClient.connect(connectString, { sessionTimeoutMs: 10_000, sasl }).then(
    async (zk) => {
      await zk.close();
      throw new Error('the login should have failed');
    },
    (e: unknown) => e,
  )) as { code?: string; cause?: unknown };
  expect(err.cause).toBeInstanceOf(KerberosError);
  return { code: err.code, cause: err.cause as KerberosError };
}

describe('SASL GSSAPI', () => {
  it('a password logs in; the identity is sasl:<principal>, and an ACL on it keeps others out', async () => {
    await using alice = await ZooKeeperClient.connect(connectString, {
      sessionTimeoutMs: 10_000,
      sasl: saslGssapi({ principal: `alice@${kdc.realm}`, password: 'alice-secret', krb5Config: kdc.krb5ConfPath }),
    });
    expect(await alice.whoAmI()).toContainEqual({ scheme: 'sasl', user: `alice@${kdc.realm}` });
    const path = uniquePath('krb');
    await alice.create(path, 'hers', { acl: [{ perms: Perms.ALL, id: { scheme: 'sasl', id: `alice@${kdc.realm}` } }] });
    expect((await alice.getData(path)).data.length).toBe(4);

    await using anonymous = await ZooKeeperClient.connect(connectString, { sessionTimeoutMs: 10_000 });
    expect(await codeOf(anonymous.getData(path))).toBe('NOAUTH');
    await using bob = await ZooKeeperClient.connect(connectString, {
      sessionTimeoutMs: 10_000,
      sasl: saslGssapi({ principal: 'bob', password: 'bob-secret', kdc: kdc.kdc, realm: kdc.realm }),
    });
    expect(await bob.whoAmI()).toContainEqual({ scheme: 'sasl', user: `bob@${kdc.realm}` });
    expect(await codeOf(bob.getData(path))).toBe('NOAUTH');
    await alice.delete(path);
  });

  it('a keytab logs in, as a path or as bytes', async () => {
    await kdc.addPrincipal('svc/app.example.com');
    const keytab = await kdc.keytab(['svc/app.example.com']);
    const principal = `svc/app.example.com@${kdc.realm}`;
    await using fromPath = await ZooKeeperClient.connect(connectString, {
      sessionTimeoutMs: 10_000,
      sasl: saslGssapi({ principal, keytab, kdc: kdc.kdc }),
    });
    // removeHostFromPrincipal: the server drops the host part of a host-based principal.
    expect(await fromPath.whoAmI()).toContainEqual({ scheme: 'sasl', user: `svc@${kdc.realm}` });
    const { readFileSync } = await import('node:fs');
    await using fromBytes = await ZooKeeperClient.connect(connectString, {
      sessionTimeoutMs: 10_000,
      sasl: saslGssapi({ principal, keytab: new Uint8Array(readFileSync(keytab)), kdc: kdc.kdc }),
    });
    expect(await fromBytes.whoAmI()).toContainEqual({ scheme: 'sasl', user: `svc@${kdc.realm}` });
  });

  it('a wrong password is AUTHFAILED caused by KDC_ERR_PREAUTH_FAILED', async () => {
    const { code, cause } = await authFailure(saslGssapi({ principal: 'alice', password: 'wrong', kdc: kdc.kdc, realm: kdc.realm }));
    expect(code).toBe('AUTHFAILED');
    expect(cause.code).toBe('KDC_ERR_PREAUTH_FAILED');
  });

  it('an unknown principal is KDC_ERR_C_PRINCIPAL_UNKNOWN', async () => {
    const { code, cause } = await authFailure(saslGssapi({ principal: 'nobody', password: 'x', kdc: kdc.kdc, realm: kdc.realm }));
    expect(code).toBe('AUTHFAILED');
    expect(cause.code).toBe('KDC_ERR_C_PRINCIPAL_UNKNOWN');
  });

  it('a service the KDC does not know is KDC_ERR_S_PRINCIPAL_UNKNOWN', async () => {
    const { cause } = await authFailure(saslGssapi({ principal: 'alice', password: 'alice-secret', kdc: kdc.kdc, realm: kdc.realm, serviceHost: 'elsewhere' }));
    expect(cause.code).toBe('KDC_ERR_S_PRINCIPAL_UNKNOWN');
  });

  it('a KDC that does not answer fails within the KDC timeout', async () => {
    const net = await import('node:net');
    // A listener that accepts and never answers: the worst KDC.
    const silent = net.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    try {
      const started = Date.now();
      const { cause } = await authFailure(saslGssapi({ principal: 'alice', password: 'alice-secret', kdc: `127.0.0.1:${port}`, realm: kdc.realm, kdcTimeoutMs: 500 }));
      expect(cause.code).toBe('KDC_TIMEOUT');
      expect(Date.now() - started).toBeLessThan(8_000);
    } finally {
      silent.close();
    }
  });

  it('a clock an hour off is KRB_AP_ERR_SKEW', async () => {
    const skewed = createSaslGssapi(
      { principal: 'alice', password: 'alice-secret', kdc: kdc.kdc, realm: kdc.realm },
      { keytabBytes: (k) => k as Uint8Array, krb5Config: () => undefined, now: () => new Date(Date.now() + 3600_000) },
    );
    const { code, cause } = await authFailure(skewed);
    expect(code).toBe('AUTHFAILED');
    expect(cause.code).toBe('KRB_AP_ERR_SKEW');
  });

  it('krb5.conf gives the realm and the KDC; a missing keytab file is BAD_CONFIG', async () => {
    const conf = parseKrb5Config((await import('node:fs')).readFileSync(kdc.krb5ConfPath, 'utf8'));
    expect(conf.defaultRealm).toBe(kdc.realm);
    expect(conf.kdcs.get(kdc.realm)).toEqual([kdc.kdc]);
    const { cause } = await authFailure(saslGssapi({ principal: 'alice', keytab: '/nonexistent/alice.keytab', krb5Config: kdc.krb5ConfPath }));
    expect(cause.code).toBe('BAD_CONFIG');
  });

  it('bad options are BAD_ARGUMENT at once', () => {
    expect(() => saslGssapi({ principal: '' })).toThrow(expect.objectContaining({ code: 'BAD_ARGUMENT' }));
    expect(() => saslGssapi({ principal: 'alice' })).toThrow(/exactly one of password and keytab/);
    expect(() => saslGssapi({ principal: 'alice', password: 'x', keytab: 'y' })).toThrow(/exactly one/);
  });

  it('a new session after expiry logs in again, with the same identity', async () => {
    await using zk = await ZooKeeperClient.connect(connectString, {
      sessionTimeoutMs: 10_000,
      sasl: saslGssapi({ principal: 'alice', password: 'alice-secret', kdc: kdc.kdc, realm: kdc.realm }),
    });
    const before = zk.sessionId;
    await killSession(zk, { timeoutMs: 30_000 });
    await zk.waitConnected({ signal: AbortSignal.timeout(30_000) });
    expect(zk.sessionId).not.toBe(before);
    expect(await zk.whoAmI()).toContainEqual({ scheme: 'sasl', user: `alice@${kdc.realm}` });
  });
});
