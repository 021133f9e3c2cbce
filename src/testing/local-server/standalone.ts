import fs from 'node:fs';
import path from 'node:path';
import type { Clock } from '../../session/clock.js';
import type { CleanupRegistry } from './cleanup.js';
import { standaloneConfig, tlsOnlyStandaloneConfig, type ZkConfigOptions } from './config.js';
import { freePort } from './free-port.js';
import { installEnv, requireZooKeeperInstall, type InstallChoice, type InstallPurpose } from './install.js';
import { makeServerDir, removeServerDir } from './server-dir.js';
import { ServerProcess, STANDALONE_MAIN } from './server-process.js';
import type { TestingServerTls } from './tls.js';

/**
 * A throwaway standalone ZooKeeper on a free 127.0.0.1 port, with its own directory under os.tmpdir() (config, data,
 * log) that stop() removes. It is killed, and the directory removed, when this process exits even if nobody calls
 * stop() (cleanup.ts).
 */
export interface LocalServerOptions extends ZkConfigOptions, InstallChoice {
  /** How long to wait for `srvr` to report a Mode; generous because CI machines are slow. Default 30 s. */
  startTimeoutMs?: number | undefined;
  /** JVM options (default: tuned for a fast start and a small footprint). */
  jvmFlags?: readonly string[] | undefined;
  /** Shapes the "nothing installed" message: the CLI suggests --server, the tests suggest scripts/setup.sh. */
  purpose?: InstallPurpose | undefined;
  /** Timers for starting and stopping (default the runtime's); see ServerProcessSpec.clock. */
  clock?: Clock | undefined;
  /** Where the JVM and its directory are registered for cleanup at exit; default the launcher's registry. */
  cleanup?: CleanupRegistry | undefined;
  /** Listen on a TLS secureClientPort only (the server's `port`), probed over TLS; see TestingServerTls. */
  tls?: TestingServerTls | undefined;
}

/** The JVM can lose the race for a probed free port to another process; a few fresh ports fix that. */
const PORT_ATTEMPTS = 3;

export async function startLocalServer(opts: LocalServerOptions = {}): Promise<ServerProcess> {
  const install = requireZooKeeperInstall(installEnv(opts), opts.purpose ?? 'tests');
  for (let attempt = 1; ; attempt++) {
    const root = makeServerDir('standalone', opts.cleanup);
    const dataDir = path.join(root, 'data');
    const configFile = path.join(root, 'zoo.cfg');
    let server: ServerProcess | undefined;
    try {
      const port = await freePort();
      fs.mkdirSync(dataDir);
      const tls = opts.tls;
      fs.writeFileSync(configFile, tls === undefined ? standaloneConfig(opts, dataDir, port) : tlsOnlyStandaloneConfig(opts, dataDir, port, tls));
      server = new ServerProcess({
        install,
        mainClass: STANDALONE_MAIN,
        configFile,
        logFile: path.join(root, 'server.log'),
        host: '127.0.0.1',
        port,
        servingModes: ['standalone'],
        startTimeoutMs: opts.startTimeoutMs ?? 30_000,
        ...(opts.jvmFlags === undefined ? {} : { jvmFlags: opts.jvmFlags }),
        ...(opts.clock === undefined ? {} : { clock: opts.clock }),
        ...(opts.cleanup === undefined ? {} : { cleanup: opts.cleanup }),
        ...(tls === undefined ? {} : { tls: tls.probe }),
        afterStop: () => removeServerDir(root, opts.cleanup),
      });
      await server.start();
      return server;
    } catch (error) {
      const retry = attempt < PORT_ATTEMPTS && server !== undefined && server.failedToBind();
      if (server === undefined) removeServerDir(root, opts.cleanup);
      else await server.stop();
      if (!retry) throw error;
    }
  }
}
