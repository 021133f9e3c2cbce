import fs from 'node:fs';
import path from 'node:path';
import { standaloneConfig, type ZkConfigOptions } from './config.js';
import { freePort } from './free-port.js';
import { requireZooKeeperInstall, type InstallPurpose } from './install.js';
import { makeServerDir, removeServerDir } from './server-dir.js';
import { ServerProcess, STANDALONE_MAIN, type LocalServer } from './server-process.js';

/**
 * A throwaway standalone ZooKeeper on a free 127.0.0.1 port, with its own directory under os.tmpdir() (config, data,
 * log) that stop() removes. It is killed, and the directory removed, when this process exits even if nobody calls
 * stop() (exit-cleanup.ts).
 */
export interface LocalServerOptions extends ZkConfigOptions {
  /** How long to wait for `srvr` to report a Mode; generous because CI machines are slow. Default 30 s. */
  startTimeoutMs?: number;
  /** JVM options (default: tuned for a fast start and a small footprint). */
  jvmFlags?: readonly string[];
  /** Shapes the "nothing installed" message: the CLI suggests --server, the tests suggest scripts/setup.sh. */
  purpose?: InstallPurpose;
}

/** The JVM can lose the race for a probed free port to another process; a few fresh ports fix that. */
const PORT_ATTEMPTS = 3;

export async function startLocalServer(opts: LocalServerOptions = {}): Promise<LocalServer> {
  const install = requireZooKeeperInstall(process.env, opts.purpose ?? 'tests');
  for (let attempt = 1; ; attempt++) {
    const root = makeServerDir('standalone');
    const dataDir = path.join(root, 'data');
    const configFile = path.join(root, 'zoo.cfg');
    let server: ServerProcess | undefined;
    try {
      const port = await freePort();
      fs.mkdirSync(dataDir);
      fs.writeFileSync(configFile, standaloneConfig(opts, dataDir, port));
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
        afterStop: () => removeServerDir(root),
      });
      await server.start();
      return server;
    } catch (error) {
      const retry = attempt < PORT_ATTEMPTS && server !== undefined && server.failedToBind();
      if (server === undefined) removeServerDir(root);
      else await server.stop();
      if (!retry) throw error;
    }
  }
}
