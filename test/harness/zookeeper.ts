import fs from 'node:fs';
import path from 'node:path';
import { freePort } from './free-port.js';
import { makeServerDir, removeServerDir } from './server-dir.js';
import { standaloneConfig, type ZkConfigOptions } from './zk-config.js';
import { requireZooKeeperInstall } from './zk-install.js';
import { ServerProcess, STANDALONE_MAIN, type ZkServer } from './zk-process.js';

/**
 * Real ZooKeeper servers for tests: throwaway standalone servers, ensembles (zk-ensemble.ts) and the one shared
 * server ordinary integration tests use. Every server gets a free loopback port and its own directory under
 * os.tmpdir(), and is killed when the test process ends even if a test forgets to stop it.
 */
export type { ZkServer } from './zk-process.js';
export { startEnsemble, type ZkEnsemble } from './zk-ensemble.js';

export interface ZkServerOptions extends ZkConfigOptions {
  /** How long to wait for the server to serve; generous because CI machines are slow. Default 30 s. */
  startTimeoutMs?: number;
}

/** A JVM can lose the race for a probed free port to another process; a few fresh ports fix that. */
const PORT_ATTEMPTS = 3;

export async function startZooKeeper(opts: ZkServerOptions = {}): Promise<ZkServer> {
  const install = requireZooKeeperInstall();
  for (let attempt = 1; ; attempt++) {
    const root = makeServerDir('standalone');
    const dataDir = path.join(root, 'data');
    const configFile = path.join(root, 'zoo.cfg');
    const port = await freePort();
    fs.mkdirSync(dataDir);
    fs.writeFileSync(configFile, standaloneConfig(opts, dataDir, port));
    const server = new ServerProcess({
      install,
      mainClass: STANDALONE_MAIN,
      configFile,
      logFile: path.join(root, 'server.log'),
      host: '127.0.0.1',
      port,
      servingModes: ['standalone'],
      startTimeoutMs: opts.startTimeoutMs ?? 30_000,
      afterStop: () => removeServerDir(root),
    });
    try {
      await server.start();
      return server;
    } catch (error) {
      const retry = attempt < PORT_ATTEMPTS && server.failedToBind();
      await server.stop();
      if (!retry) throw error;
    }
  }
}

/**
 * The server ordinary integration tests share: ZK_CONNECT when set (nothing is started then), else one standalone
 * server per test process, started on first use. Tests must use unique paths (`/t-${randomUUID()}`).
 */
export function sharedServer(): Promise<{ connectString: string }> {
  const fromEnv = process.env['ZK_CONNECT'];
  if (fromEnv) return Promise.resolve({ connectString: fromEnv });
  // Kept on globalThis so the test files vitest runs in one worker process share the server.
  const holder = globalThis as typeof globalThis & { [SHARED_KEY]?: Promise<ZkServer> };
  let shared = holder[SHARED_KEY];
  if (shared === undefined) {
    shared = startZooKeeper();
    holder[SHARED_KEY] = shared;
    // A failed start is not cached: the next caller gets a fresh attempt and the same clear error if it fails again.
    shared.catch(() => {
      if (holder[SHARED_KEY] === shared) delete holder[SHARED_KEY];
    });
  }
  return shared.then((server) => ({ connectString: server.connectString }));
}

const SHARED_KEY = Symbol.for('zkwire.test-harness.shared-server');
