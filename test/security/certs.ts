/**
 * Throwaway PKI for the TLS tests, made with the openssl and keytool binaries (openssl ships with the OS, keytool with
 * the JDK the ZooKeeper server needs anyway), so no certificate or key is ever checked in.
 *
 * What it makes, in a fresh temp directory:
 * - a test CA, and a server and a client certificate signed by it. Both carry IP:127.0.0.1 and DNS:localhost as
 *   subject alternative names: Node checks the server's name, and ZooKeeper's trust manager checks the client's
 *   (ssl.hostnameVerification defaults to true on the server side as well);
 * - the server's key store (PKCS12: key + chain) and trust store (PKCS12 holding the CA as a trusted entry; only
 *   keytool writes the trusted-certificate attribute Java looks for, which is why keytool is needed at all);
 * - a second, unrelated CA with its own client certificate: the "wrong CA" the fail-closed cases use.
 *
 * EC P-256 keys: generating them takes milliseconds, RSA keys visibly longer on a slow CI machine.
 */

import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface TestPki {
  readonly dir: string;
  /** PEM of the CA that signed the server and client certificates. */
  readonly ca: string;
  readonly client: { readonly cert: string; readonly key: string };
  /** A CA that signed nothing the server knows, and a client certificate it issued. */
  readonly rogueCa: string;
  readonly rogueClient: { readonly cert: string; readonly key: string };
  /** For zoo.cfg: PKCS12 stores and their password. */
  readonly keyStore: string;
  readonly trustStore: string;
  readonly storePassword: string;
  remove(): void;
}

/** True when both tools this helper needs are on PATH. */
export function haveTlsTools(): { ok: boolean; missing: string[] } {
  const missing = ['openssl', 'keytool'].filter((tool) => !onPath(tool));
  return { ok: missing.length === 0, missing };
}

export async function makeTestPki(): Promise<TestPki> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zkwire-pki-'));
  const at = (name: string): string => path.join(dir, name);
  const storePassword = 'store-pass-for-tests';
  try {
    await selfSignedCa(at('ca'), 'zkwire test CA');
    await signedLeaf(at('server'), at('ca'), 'zkwire test server', 'serverAuth');
    await signedLeaf(at('client'), at('ca'), 'zkwire test client', 'clientAuth');
    await selfSignedCa(at('rogue-ca'), 'zkwire rogue CA');
    await signedLeaf(at('rogue-client'), at('rogue-ca'), 'zkwire rogue client', 'clientAuth');

    await run('openssl', [
      'pkcs12', '-export',
      '-in', at('server.pem'), '-inkey', at('server.key'), '-certfile', at('ca.pem'),
      '-name', 'server', '-out', at('server.p12'), '-passout', `pass:${storePassword}`,
    ]);
    await run('keytool', [
      '-importcert', '-noprompt', '-alias', 'zkwire-test-ca', '-file', at('ca.pem'),
      '-keystore', at('trust.p12'), '-storetype', 'PKCS12', '-storepass', storePassword,
    ]);
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw new Error(`could not generate the test certificates in ${dir}: ${String(error)}`, { cause: error });
  }
  const read = (name: string): string => fs.readFileSync(at(name), 'utf8');
  return {
    dir,
    ca: read('ca.pem'),
    client: { cert: read('client.pem'), key: read('client.key') },
    rogueCa: read('rogue-ca.pem'),
    rogueClient: { cert: read('rogue-client.pem'), key: read('rogue-client.key') },
    keyStore: at('server.p12'),
    trustStore: at('trust.p12'),
    storePassword,
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

async function newKey(file: string): Promise<void> {
  await run('openssl', ['genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', file]);
}

async function selfSignedCa(base: string, cn: string): Promise<void> {
  await newKey(`${base}.key`);
  await run('openssl', [
    'req', '-x509', '-new', '-key', `${base}.key`, '-out', `${base}.pem`, '-days', '2', '-subj', `/CN=${cn}`,
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign',
  ]);
}

async function signedLeaf(base: string, caBase: string, cn: string, usage: 'serverAuth' | 'clientAuth'): Promise<void> {
  await newKey(`${base}.key`);
  await run('openssl', ['req', '-new', '-key', `${base}.key`, '-out', `${base}.csr`, '-subj', `/CN=${cn}`]);
  fs.writeFileSync(
    `${base}.ext`,
    [
      'basicConstraints=CA:FALSE',
      'keyUsage=critical,digitalSignature,keyAgreement',
      `extendedKeyUsage=${usage}`,
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
    ].join('\n') + '\n',
  );
  await run('openssl', [
    'x509', '-req', '-in', `${base}.csr`, '-CA', `${caBase}.pem`, '-CAkey', `${caBase}.key`, '-CAcreateserial',
    '-out', `${base}.pem`, '-days', '2', '-extfile', `${base}.ext`,
  ]);
}

function onPath(tool: string): boolean {
  return (process.env['PATH'] ?? '')
    .split(path.delimiter)
    .some((dir) => dir !== '' && isExecutable(path.join(dir, tool)));
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
