/**
 * `zkwire --sasl gssapi` against real Kerberos (TestingKdc and a Kerberized ZooKeeper 3.8): the CLI logs in with a
 * keytab, or with the principal's password from the environment, finding the KDC through KRB5_CONFIG as MIT's tools do;
 * `ls`, `shell` (in a real terminal) and a short `bench lock` work as the principal.
 */

import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../tools/cli-process.js';
import { TestingKdc } from '../../src/testing/kdc.js';
import { harnessCleanup } from '../harness/exit-cleanup.js';
import { startZooKeeper, type ZkServer } from '../harness/zookeeper.js';
import { TmuxTerminal } from '../tools/shell/tmux.js';

const MAIN = join(process.cwd(), 'dist/cli/main.js');

let kdc: TestingKdc;
let server: ZkServer;
let connectString: string;

beforeAll(async () => {
  kdc = await TestingKdc.start({ cleanup: harnessCleanup() });
  server = await startZooKeeper(await kdc.zooKeeperServerOptions());
  connectString = server.connectString.replace('127.0.0.1', 'localhost'); // the server's principal names localhost
  await kdc.addPrincipal('operator', 'operator-secret');
}, 90_000);

const terminals: TmuxTerminal[] = [];

afterAll(async () => {
  for (const t of terminals.splice(0)) t.close();
  await server?.stop();
  await kdc?.stop();
});

const zkwire = runCli;

describe('zkwire --sasl gssapi', () => {
  it('logs in with a keytab, and with the password from the environment; a wrong one is AUTHFAILED', async () => {
    const principal = `operator@${kdc.realm}`;
    const env = { KRB5_CONFIG: kdc.krb5ConfPath };
    const keytab = await kdc.keytab([principal], 'operator-cli.keytab');
    const withKeytab = await zkwire(['whoami', '--server', connectString, '--sasl', 'gssapi', '--principal', principal, '--keytab', keytab], env);
    expect(withKeytab.stderr).toBe('');
    expect(withKeytab.stdout).toContain(`sasl ${principal}`);
    const withPassword = await zkwire(['whoami', '--server', connectString, '--sasl', 'gssapi', '--principal', principal], {
      ...env,
      ZKWIRE_SASL_PASSWORD: 'operator-secret',
    });
    expect(withPassword.stderr).toBe('');
    expect(withPassword.stdout).toContain(`sasl ${principal}`);
    const wrong = await zkwire(['ls', '/', '--server', connectString, '--sasl', 'gssapi', '--principal', principal], { ...env, ZKWIRE_SASL_PASSWORD: 'not-it' });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('AUTHFAILED');
  }, 60_000);

  it('ls, a short bench lock and the shell log in with --principal and --keytab', async () => {
    const principal = `operator@${kdc.realm}`;
    const keytab = await kdc.keytab([principal], 'operator-tools.keytab');
    const env = { KRB5_CONFIG: kdc.krb5ConfPath };
    const login = ['--server', connectString, '--sasl', 'gssapi', '--principal', principal, '--keytab', keytab];
    const ls = await zkwire(['ls', '/', ...login], env);
    // Not stderr === '': on a loaded machine the CLI may say it is still waiting for the session, which is no failure.
    expect(ls.code, ls.stderr).toBe(0);
    expect(ls.stdout.split('\n')).toContain('zookeeper');
    const bench = await zkwire(['bench', 'lock', '--clients', '2', '--duration', '1', '--floor-samples', '10', '--json', '-', ...login], env);
    expect(bench.code, bench.stderr).toBe(0);
    const report = JSON.parse(bench.stdout) as { overlaps: number };
    expect(report.overlaps).toBe(0);
    const t = TmuxTerminal.start(`env -u ZKWIRE_SASL_PASSWORD KRB5_CONFIG=${kdc.krb5ConfPath} ZKWIRE_HISTORY=${keytab}.history ${process.execPath} ${MAIN} shell ${login.join(' ')}`);
    terminals.push(t);
    await t.waitFor('the first prompt', /\[zk: \S+\(connected\) 0\] $/m, 30_000);
    t.type('whoami');
    t.keys('Enter');
    await t.waitFor('the Kerberos identity', new RegExp(`sasl ${principal.replace(/[.]/g, '\\.')}`), 15_000);
    t.keys('C-d');
    expect(await t.exited(15_000)).toBe(0);
  }, 90_000);
});
