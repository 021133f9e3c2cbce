/**
 * A throwaway Kerberos realm for tests: MIT Kerberos's KDC (Debian's krb5-kdc and krb5-admin-server packages)
 * with its own database, kdc.conf and krb5.conf in a scratch directory, listening on a free loopback port. Nothing
 * under /etc is read or touched: every MIT tool runs with KRB5_CONFIG and KRB5_KDC_PROFILE pointing at the scratch
 * files, and the KDC runs in the foreground (`krb5kdc -n`), stopped by its process handle.
 */

import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { CleanupRegistry } from './local-server/cleanup.js';
import { freePort } from './local-server/free-port.js';
import { FAST_START_JVM_FLAGS } from './local-server/server-process.js';

/** Options of {@link TestingKdc.zooKeeperServerOptions}. */
export interface KerberizedServerOptions {
  /** The host part of the servers' principal `zookeeper/<host>`; clients connect by this name. Default `localhost`. */
  readonly host?: string;
  /** zoo.cfg `kerberos.removeHostFromPrincipal` (identity `sasl:svc@REALM` for `svc/host@REALM`). Default true. */
  readonly removeHostFromPrincipal?: boolean;
  /** zoo.cfg `kerberos.removeRealmFromPrincipal` (identity `sasl:alice` for `alice@REALM`). Default false. */
  readonly removeRealmFromPrincipal?: boolean;
}

/** Options of {@link TestingKdc.start}. */
export interface TestingKdcOptions {
  /** The realm, default `EXAMPLE.COM` (a scratch realm: the name only has to match the principals). */
  readonly realm?: string;
  /** How long the KDC may take to listen, default 20 s. */
  readonly startTimeoutMs?: number;
  /** Where the MIT binaries are, default /usr/sbin (Debian). */
  readonly binDir?: string;
  /** Who kills the KDC and removes its directory if the process ends first; default a registry of its own. */
  readonly cleanup?: CleanupRegistry;
}

/**
 * A running MIT KDC with a scratch realm. `addPrincipal` and `keytab` manage its principals; `krb5ConfPath` is a
 * krb5.conf for clients of this realm (zkwire's `krb5Config` option, the JVM's `java.security.krb5.conf`).
 * `await using kdc = await TestingKdc.start()` stops it at the end of the scope.
 */
export class TestingKdc {
  readonly #child: ChildProcess;
  readonly #env: NodeJS.ProcessEnv;
  readonly #binDir: string;
  readonly #cleanup: CleanupRegistry;
  #stopped: Promise<void> | undefined;

  private constructor(
    /** The realm's name. */
    readonly realm: string,
    /** The loopback port the KDC listens on (TCP and UDP). */
    readonly port: number,
    /** The scratch directory (database, keytabs, logs); removed by stop(). */
    readonly dir: string,
    child: ChildProcess,
    env: NodeJS.ProcessEnv,
    binDir: string,
    cleanup: CleanupRegistry,
  ) {
    this.#child = child;
    this.#env = env;
    this.#binDir = binDir;
    this.#cleanup = cleanup;
  }

  /** `127.0.0.1:<port>`, for zkwire's `kdc` option. */
  get kdc(): string {
    return `127.0.0.1:${this.port}`;
  }

  /** A krb5.conf naming this realm as the default one and this KDC as its KDC (TCP only, no DNS). */
  get krb5ConfPath(): string {
    return path.join(this.dir, 'krb5.conf');
  }

  /** Creates the realm and starts its KDC. Rejects with the tools' own output when something fails. */
  static async start(options: TestingKdcOptions = {}): Promise<TestingKdc> {
    const realm = options.realm ?? 'EXAMPLE.COM';
    const binDir = options.binDir ?? '/usr/sbin';
    const cleanup = options.cleanup ?? new CleanupRegistry();
    for (const tool of ['krb5kdc', 'kdb5_util', 'kadmin.local']) {
      if (!fs.existsSync(path.join(binDir, tool))) {
        throw new Error(`TestingKdc needs MIT Kerberos's ${tool} in ${binDir} (Debian: apt-get install krb5-kdc krb5-admin-server)`);
      }
    }
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zkwire-kdc-'));
    cleanup.trackDir(dir);
    const port = await freePort();
    fs.writeFileSync(path.join(dir, 'kdc.conf'), kdcConf(realm, port, dir));
    fs.writeFileSync(path.join(dir, 'krb5.conf'), krb5Conf(realm, port));
    fs.writeFileSync(path.join(dir, 'kadm5.acl'), '');
    const env = { ...process.env, KRB5_CONFIG: path.join(dir, 'krb5.conf'), KRB5_KDC_PROFILE: path.join(dir, 'kdc.conf') };
    await run(path.join(binDir, 'kdb5_util'), ['create', '-s', '-r', realm, '-P', `master-${randomWord()}`], env);
    const child = spawn(path.join(binDir, 'krb5kdc'), ['-n', '-r', realm], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    cleanup.trackChild(child);
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    const kdc = new TestingKdc(realm, port, dir, child, env, binDir, cleanup);
    try {
      await waitListening(port, child, options.startTimeoutMs ?? 20_000, () => stderr);
    } catch (e) {
      await kdc.stop();
      throw e;
    }
    return kdc;
  }

  /** Adds `name` (e.g. `alice` or `zookeeper/localhost`, without the realm) with this password, or a random key. */
  async addPrincipal(name: string, password?: string): Promise<string> {
    const args = password === undefined ? ['-randkey', name] : ['-pw', password, name];
    await this.#kadmin(`addprinc ${args.map(quote).join(' ')}`);
    return `${name}@${this.realm}`;
  }

  /** Changes the password of `name`. */
  async changePassword(name: string, password: string): Promise<void> {
    await this.#kadmin(`cpw -pw ${quote(password)} ${quote(name)}`);
  }

  /**
   * Writes the principals' current keys to a keytab (without changing them, so a password still works) and returns
   * its path: `dir/<file>`, default `<first principal>.keytab`.
   */
  async keytab(principals: readonly string[], file?: string): Promise<string> {
    const target = path.join(this.dir, file ?? `${principals[0]!.replace(/[^A-Za-z0-9.-]/g, '_')}.keytab`);
    await this.#kadmin(`ktadd -k ${quote(target)} -norandkey ${principals.map(quote).join(' ')}`);
    return target;
  }

  /**
   * Server options (for `TestingServer.start` or `TestingCluster.start`) that make ZooKeeper a Kerberized server of
   * this realm, as production ensembles are set up: the principal `zookeeper/<host>` with a random key, its keytab, a
   * JAAS `Server` section with the JDK's Krb5LoginModule on that keytab, the JVM pointed at this realm's krb5.conf,
   * and the SASL authentication provider.
   */
  async zooKeeperServerOptions(options: KerberizedServerOptions = {}): Promise<{ jvmFlags: string[]; extraConfig: Record<string, string> }> {
    const service = `zookeeper/${options.host ?? 'localhost'}`;
    await this.addPrincipal(service);
    const keytab = await this.keytab([service], `${service.replace('/', '_')}.keytab`);
    const jaas = path.join(this.dir, `${service.replace('/', '_')}.jaas.conf`);
    fs.writeFileSync(
      jaas,
      `Server {\n  com.sun.security.auth.module.Krb5LoginModule required\n  useKeyTab=true\n  keyTab="${keytab}"\n  storeKey=true\n  useTicketCache=false\n  isInitiator=false\n  principal="${service}@${this.realm}";\n};\n`,
    );
    return {
      jvmFlags: [...FAST_START_JVM_FLAGS, `-Djava.security.auth.login.config=${jaas}`, `-Djava.security.krb5.conf=${this.krb5ConfPath}`],
      extraConfig: {
        'authProvider.sasl': 'org.apache.zookeeper.server.auth.SASLAuthenticationProvider',
        'kerberos.removeHostFromPrincipal': String(options.removeHostFromPrincipal ?? true),
        'kerberos.removeRealmFromPrincipal': String(options.removeRealmFromPrincipal ?? false),
      },
    };
  }

  /** Stops the KDC (SIGTERM, then SIGKILL) and removes its directory. */
  stop(): Promise<void> {
    this.#stopped ??= (async () => {
      if (this.#child.exitCode === null && this.#child.signalCode === null) {
        const exited = new Promise<void>((resolve) => this.#child.once('exit', () => resolve()));
        this.#child.kill('SIGTERM');
        const timer = setTimeout(() => this.#child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(timer);
      }
      fs.rmSync(this.dir, { recursive: true, force: true });
      this.#cleanup.untrackDir(this.dir);
    })();
    return this.#stopped;
  }

  /** Stops the KDC, for `await using`. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.stop();
  }

  #kadmin(query: string): Promise<string> {
    return run(path.join(this.#binDir, 'kadmin.local'), ['-r', this.realm, '-q', query], this.#env);
  }
}

function kdcConf(realm: string, port: number, dir: string): string {
  return `[kdcdefaults]
 kdc_listen = 127.0.0.1:${port}
 kdc_tcp_listen = 127.0.0.1:${port}

[realms]
 ${realm} = {
  database_name = ${dir}/principal
  key_stash_file = ${dir}/stash
  acl_file = ${dir}/kadm5.acl
  kdc_listen = 127.0.0.1:${port}
  kdc_tcp_listen = 127.0.0.1:${port}
  max_life = 10h 0m 0s
  max_renewable_life = 7d 0h 0m 0s
  master_key_type = aes256-cts-hmac-sha1-96
  supported_enctypes = aes256-cts-hmac-sha1-96:normal aes128-cts-hmac-sha1-96:normal
 }

[logging]
 kdc = FILE:${dir}/kdc.log
`;
}

function krb5Conf(realm: string, port: number): string {
  return `[libdefaults]
 default_realm = ${realm}
 dns_lookup_kdc = false
 dns_lookup_realm = false
 rdns = false
 udp_preference_limit = 1

[realms]
 ${realm} = {
  kdc = 127.0.0.1:${port}
 }
`;
}

function randomWord(): string {
  return Math.random().toString(36).slice(2);
}

/** One kadmin argument, quoted for kadmin's own command-line parser. */
function quote(arg: string): string {
  return /^[A-Za-z0-9@/._:-]+$/.test(arg) ? arg : `"${arg.replace(/(["\\])/g, '\\$1')}"`;
}

function run(file: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(file, [...args], { env, timeout: 30_000 }, (error, stdout, stderr) => {
      // kadmin.local exits 0 even when its query fails; it then says why on stderr, beside two harmless notices.
      const complaints = stderr.split('\n').filter((l) => l.trim() !== '' && !/^Authenticating as|No policy specified/.test(l));
      if (error !== null) reject(new Error(`${path.basename(file)} ${args.join(' ')} failed: ${stderr || error.message}`));
      else if (complaints.length > 0) reject(new Error(`${path.basename(file)} ${args.join(' ')}: ${complaints.join('; ')}`));
      else resolve(stdout);
    });
  });
}

/** Resolves once the KDC accepts TCP connections; rejects if it exits or the deadline passes. */
async function waitListening(port: number, child: ChildProcess, timeoutMs: number, stderr: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  child.once('exit', () => (exited = true));
  for (;;) {
    if (exited) throw new Error(`krb5kdc exited before listening: ${stderr()}`);
    if (await canConnect(port)) return;
    if (Date.now() > deadline) throw new Error(`krb5kdc did not listen on ${port} within ${timeoutMs} ms: ${stderr()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
