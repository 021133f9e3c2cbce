/**
 * The CLI against secured servers, as an operator runs it (in-process through runCli, or the built CLI where the
 * environment, a signal or a terminal is involved): a TLS-only server (secureClientPort alone) that
 * needs a client certificate (x509 identity) and a SASL DIGEST-MD5 server, reached with the flags and with ZooKeeper's own client
 * configuration (PEM stores, a JAAS file). A misconfigured attempt fails at once with the reason.
 */

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saslDigestServer } from '../harness/sasl-server.js';
import { startZooKeeper, type ZkServer } from '../harness/zookeeper.js';
import { makeTestPki, type TestPki } from '../security/certs.js';
import { startTlsOnlyZooKeeper } from '../security/tls-server.js';
import type { TestingServer } from '../../src/testing/server.js';
import { ZooKeeperClient } from '../../src/node.js';
import { zkwireWithInput } from './cli-io.js';
import { runCli, runCliProcess } from './cli-process.js';
import { TmuxTerminal } from './shell/tmux.js';

const MAIN = join(process.cwd(), 'dist/cli/main.js');
/** Generous for a JVM under load; a failure that waited out a connect deadline instead of failing at once exceeds it. */
const AT_ONCE_MS = 20_000;

let pki: TestPki;
/** The kit's TLS-only server: a secureClientPort that needs a client certificate, and no plaintext port. */
let tlsZk: TestingServer;
let saslZk: ZkServer;
let saslCleanup = (): void => undefined;
const terminals: TmuxTerminal[] = [];
const file = (name: string, text: string): string => {
  const at = join(pki.dir, name);
  writeFileSync(at, text);
  return at;
};

beforeAll(async () => {
  pki = await makeTestPki();
  const sasl = saslDigestServer({ alice: 'alice-secret' });
  saslCleanup = sasl.cleanup;
  [tlsZk, saslZk] = await Promise.all([startTlsOnlyZooKeeper(pki), startZooKeeper(sasl.options)]);
}, 90_000);

afterAll(async () => {
  for (const t of terminals.splice(0)) t.close();
  await Promise.all([tlsZk?.close(), saslZk?.stop()]);
  saslCleanup();
  pki?.remove();
});

/**
 * A command in-process through runCli (what main.ts calls), for the runs that read no environment: those that take
 * the password from ZKWIRE_SASL_PASSWORD, or must see it absent, run the built CLI with an environment of their own.
 */
async function zkwire(args: string[]): Promise<{ code: number; stdout: string; stderr: string; ms: number }> {
  const started = performance.now();
  const { code, out, err } = await zkwireWithInput(args);
  return { code, stdout: out, stderr: err, ms: performance.now() - started };
}

describe('the CLI over TLS with a client certificate', () => {
  const certFlags = (): string[] => [
    '--server', tlsZk.connectString,
    '--tls-ca', file('ca.pem', pki.ca), '--tls-cert', file('client.pem', pki.client.cert), '--tls-key', file('client.key', pki.client.key),
  ];

  it('whoami and ls with --tls-ca/--tls-cert/--tls-key: the server knows the certificate', async () => {
    const who = await zkwire(['whoami', ...certFlags()]);
    expect(who.stderr).toBe('');
    expect(who.stdout).toContain('x509 CN=zkwire test client');
    const ls = await zkwire(['ls', '/', ...certFlags()]);
    expect(ls.code).toBe(0);
    expect(ls.stdout.split('\n')).toContain('zookeeper');
  });

  it('--config with ZooKeeper client properties and PEM stores (key store: key and certificate in one file)', async () => {
    const config = file('client.properties', [
      'zookeeper.client.secure=true',
      `zookeeper.ssl.trustStore.location=${file('trust.pem', pki.ca)}`,
      'zookeeper.ssl.trustStore.type=PEM',
      `zookeeper.ssl.keyStore.location=${file('keystore.pem', `${pki.client.key}${pki.client.cert}`)}`,
      'zookeeper.ssl.keyStore.type=PEM',
    ].join('\n'));
    const who = await zkwire(['whoami', '--server', tlsZk.connectString, '--config', config, '--json']);
    expect(who.stderr).toBe('');
    expect(JSON.parse(who.stdout)).toEqual({ identities: expect.arrayContaining([{ scheme: 'x509', user: 'CN=zkwire test client' }]) });
  });

  it('without --tls the TLS port is named as such at once; without a certificate, TLS_ERROR at once', async () => {
    const plain = await zkwire(['ls', '/', '--server', tlsZk.connectString, '--connect-timeout', '60000']);
    expect(plain.code).toBe(1);
    expect(plain.stderr).toMatch(/TLS_ERROR.*speaks TLS: pass `tls`/);
    expect(plain.ms).toBeLessThan(AT_ONCE_MS);
    const noCert = await zkwire(['ls', '/', '--server', tlsZk.connectString, '--connect-timeout', '60000', '--tls-ca', file('ca.pem', pki.ca)]);
    expect(noCert.code).toBe(1);
    expect(noCert.stderr).toMatch(/TLS_ERROR.*client certificate/);
    expect(noCert.ms).toBeLessThan(AT_ONCE_MS);
  });
});

describe('the CLI with SASL DIGEST-MD5', () => {
  it('takes the password from --sasl-password-file or ZKWIRE_SASL_PASSWORD', async () => {
    const fromFile = await zkwire(['whoami', '--server', saslZk.connectString, '--sasl', 'digest:alice', '--sasl-password-file', file('pw', 'alice-secret\n')]);
    expect(fromFile.stderr).toBe('');
    expect(fromFile.stdout).toContain('sasl alice');
    const fromEnv = await runCli(['whoami', '--server', saslZk.connectString, '--sasl', 'digest:alice'], { ZKWIRE_SASL_PASSWORD: 'alice-secret' });
    expect(fromEnv.stdout).toContain('sasl alice');
  });

  it('--config naming a JAAS file whose Client section has a DigestLoginModule', async () => {
    const jaas = file('client-jaas.conf', 'Client {\n  org.apache.zookeeper.server.auth.DigestLoginModule required\n  username="alice"\n  password="alice-secret";\n};\n');
    const config = file('sasl.properties', `java.security.auth.login.config=${jaas}\n`);
    const who = await zkwire(['whoami', '--server', saslZk.connectString, '--config', config]);
    expect(who.stderr).toBe('');
    expect(who.stdout).toContain('sasl alice');
  });

  it('a wrong password is AUTHFAILED; none, or one in argv, are refused with the reason', async () => {
    const wrong = await runCli(['ls', '/', '--server', saslZk.connectString, '--sasl', 'digest:alice'], { ZKWIRE_SASL_PASSWORD: 'not-hers' });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('AUTHFAILED');
    const none = await runCli(['ls', '/', '--server', saslZk.connectString, '--sasl', 'digest:alice']);
    expect(none.stderr).toMatch(/needs a password: --sasl-password-file FILE, or ZKWIRE_SASL_PASSWORD/);
    const inArgv = await zkwire(['ls', '/', '--server', saslZk.connectString, '--sasl', 'digest:alice:alice-secret']);
    expect(inArgv.stderr).toMatch(/takes no password/);
  });
});

describe('zkwire bench lock on secured servers', () => {
  const short = ['bench', 'lock', '--clients', '2', '--iterations', '20', '--floor-samples', '10', '--json', '-'];

  it('over TLS with a client certificate (the floor over TLS too), and with SASL', async () => {
    const overTls = await zkwire([...short, '--server', tlsZk.connectString, '--tls-ca', file('ca.pem', pki.ca), '--tls-cert', file('client.pem', pki.client.cert), '--tls-key', file('client.key', pki.client.key)]);
    expect(overTls.code, overTls.stderr).toBe(0);
    const tlsReport = JSON.parse(overTls.stdout) as { overlaps: number };
    expect(tlsReport.overlaps).toBe(0);
    const overSasl = await runCli([...short, '--server', saslZk.connectString, '--sasl', 'digest:alice'], { ZKWIRE_SASL_PASSWORD: 'alice-secret' });
    expect(overSasl.code, overSasl.stderr).toBe(0);
    expect((JSON.parse(overSasl.stdout) as { overlaps: number }).overlaps).toBe(0);
  });
});

describe('zkwire trace in front of a TLS-only port', () => {
  it('speaks TLS with the certificate upstream, so a plaintext client’s traffic is decoded', async () => {
    const proxy = runCliProcess([
      'trace', '--listen', '127.0.0.1:0', '--upstream', tlsZk.connectString, '--json',
      '--tls-ca', file('ca.pem', pki.ca), '--tls-cert', file('client.pem', pki.client.cert), '--tls-key', file('client.key', pki.client.key),
    ]);
    let stderr = '';
    proxy.child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    try {
      await proxy.until(/listening on 127\.0\.0\.1:\d+/);
      const port = /listening on 127\.0\.0\.1:(\d+)/.exec(stderr)?.[1];
      const client = await ZooKeeperClient.connect(`127.0.0.1:${port}`, { sessionTimeoutMs: 10_000 });
      try {
        expect(await client.whoAmI()).toContainEqual({ scheme: 'x509', user: 'CN=zkwire test client' });
      } finally {
        await client.close();
      }
    } finally {
      proxy.child.kill('SIGINT');
    }
    const { stdout } = await proxy.exit;
    const ops = stdout.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { op?: string });
    expect(ops.map((o) => o.op)).toContain('whoAmI');
  });
});

describe('zkwire shell on secured servers (a real terminal)', () => {
  /** The shell in tmux; `ZKWIRE_SASL_PASSWORD` is unset so a SASL login has to ask. */
  function shell(args: string): TmuxTerminal {
    const t = TmuxTerminal.start(`env -u ZKWIRE_SASL_PASSWORD ZKWIRE_HISTORY=${join(pki.dir, 'history')} ${process.execPath} ${MAIN} shell ${args}`);
    terminals.push(t);
    return t;
  }

  it('connects with a client certificate and works as the x509 identity', async () => {
    const t = shell(`--server ${tlsZk.connectString} --tls-ca ${file('ca.pem', pki.ca)} --tls-cert ${file('client.pem', pki.client.cert)} --tls-key ${file('client.key', pki.client.key)}`);
    await t.waitFor('the first prompt', /\[zk: \S+\(connected\) 0\] $/m, 30_000);
    t.type('whoami');
    t.keys('Enter');
    await t.waitFor('the x509 identity', /x509 CN=zkwire test client/, 15_000);
    t.keys('C-d');
    expect(await t.exited(15_000)).toBe(0);
  });

  it('asks for the SASL password without echoing it, then logs in', async () => {
    const t = shell(`--server ${saslZk.connectString} --sasl digest:alice`);
    await t.waitFor('the password prompt', /SASL password for alice: $/m, 15_000);
    t.type('alice-secret');
    t.keys('Enter');
    const screen = await t.waitFor('the first prompt', /\[zk: \S+\(connected\) 0\] $/m, 30_000);
    expect(screen).not.toContain('alice-secret');
    t.type('whoami');
    t.keys('Enter');
    await t.waitFor('the SASL identity', /sasl alice/, 15_000);
    t.keys('C-d');
    expect(await t.exited(15_000)).toBe(0);
  });
});
