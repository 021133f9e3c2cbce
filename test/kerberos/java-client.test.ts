/**
 * zkwire and ZooKeeper's own Java client, both logged in with Kerberos as the same principal, are the same identity:
 * the Java client (JAAS Client section with Krb5LoginModule on a keytab) reports its identity and creates a node only
 * that identity may read; zkwire, with the same keytab, reports the same identity and reads the node.
 */

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { saslGssapi } from '../../src/kerberos-node.js';
import { ZooKeeperClient } from '../../src/node.js';
import { TestingKdc } from '../../src/testing/kdc.js';
import { curatorClasspath, requireJdk } from '../../src/tools/bench/curator-classpath.js';
import { compileJavaOnce } from '../../src/tools/bench/javac.js';
import { harnessCleanup } from '../harness/exit-cleanup.js';
import { startZooKeeper, type ZkServer } from '../harness/zookeeper.js';
import { dec, uniquePath } from '../client/helpers.js';

let kdc: TestingKdc;
let server: ZkServer;

beforeAll(async () => {
  kdc = await TestingKdc.start({ cleanup: harnessCleanup() });
  server = await startZooKeeper(await kdc.zooKeeperServerOptions());
}, 90_000);

afterAll(async () => {
  await server?.stop();
  await kdc?.stop();
});

function runJava(args: string[], jaas: string): Promise<string> {
  const jdk = requireJdk();
  const classpath = curatorClasspath();
  const dir = compileJavaOnce({
    className: 'KerberosPeer',
    source: fs.readFileSync(fileURLToPath(new URL('./KerberosPeer.java', import.meta.url)), 'utf8'),
    classpath,
    javac: jdk.javac,
  });
  const flags = [
    `-Djava.security.auth.login.config=${jaas}`,
    `-Djava.security.krb5.conf=${kdc.krb5ConfPath}`,
    '-Dzookeeper.sasl.client.canonicalize.hostname=false',
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(jdk.java, [...flags, '-cp', `${dir}${path.delimiter}${classpath}`, 'KerberosPeer', ...args]);
    harnessCleanup().trackChild(child);
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(out);
      else reject(new Error(`KerberosPeer exited ${String(code)}: ${out}${err}`));
    });
  });
}

it('the Java client and zkwire, logged in as one principal, are one identity', { timeout: 120_000 }, async () => {
  await kdc.addPrincipal('app');
  const keytab = await kdc.keytab(['app']);
  const principal = `app@${kdc.realm}`;
  const jaas = path.join(kdc.dir, 'client.jaas.conf');
  fs.writeFileSync(jaas, `Client {\n  com.sun.security.auth.module.Krb5LoginModule required\n  useKeyTab=true\n  keyTab="${keytab}"\n  storeKey=true\n  useTicketCache=false\n  principal="${principal}";\n};\n`);
  const connectString = server.connectString.replace('127.0.0.1', 'localhost');
  const nodePath = uniquePath('krb-java');
  const out = await runJava([connectString, nodePath, principal], jaas);
  expect(out).toContain(`identity sasl ${principal}`);
  expect(out).toContain('created');

  await using zk = await ZooKeeperClient.connect(connectString, {
    sessionTimeoutMs: 10_000,
    sasl: saslGssapi({ principal, keytab, krb5Config: kdc.krb5ConfPath }),
  });
  expect(await zk.whoAmI()).toContainEqual({ scheme: 'sasl', user: principal });
  expect(dec((await zk.getData(nodePath)).data)).toBe('from-java');
  await zk.delete(nodePath);
});
