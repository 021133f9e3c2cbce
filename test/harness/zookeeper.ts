import { TestingCluster } from '../../src/testing/cluster.js';
import type { ServerProcess } from '../../src/testing/local-server/server-process.js';
import { startLocalServer } from '../../src/testing/local-server/standalone.js';
import { parseConnectString } from '../../src/session/connect-string.js';
import { harnessCleanup } from './exit-cleanup.js';
import { askSharedServerBroker } from './shared-server-broker.js';
import { realClock } from './real-timers.js';
import type { ZkConfigOptions } from '../../src/testing/local-server/config.js';

/**
 * Real ZooKeeper servers for tests: throwaway standalone servers, ensembles (zk-ensemble.ts) and the one shared
 * server ordinary integration tests use. Every server gets a free loopback port and its own directory under
 * os.tmpdir(), and is killed when the test process ends even if a test forgets to stop it. Standalone servers come
 * from the same launcher the CLI uses when no --server is given (src/testing/local-server), ensembles are the kit's
 * TestingCluster (zkwire/testing); the harness gives both real timers and its per-process cleanup registry.
 */
/** One ZooKeeper JVM (the launcher's LocalServer): stop() removes its directory, kill()/restart() keep it. */
export type { LocalServer as ZkServer } from '../../src/testing/local-server/server-process.js';

/** A ZooKeeper ensemble on loopback: the kit's TestingCluster. */
export type ZkEnsemble = TestingCluster;

export interface ZkServerOptions extends ZkConfigOptions {
  /** How long to wait for the server to serve; generous because CI machines are slow. Default 30 s. */
  startTimeoutMs?: number;
  /** JVM flags replacing the launcher's defaults (FAST_START_JVM_FLAGS), e.g. to add a `-D` system property. */
  jvmFlags?: readonly string[];
  /** The ZooKeeper jars to run (see zooKeeperHomeFor in zookeeper-versions.ts); default the system's 3.8. */
  zooKeeperHome?: string;
}

export function startZooKeeper(opts: ZkServerOptions = {}): Promise<ServerProcess> {
  return startLocalServer({ ...opts, purpose: 'tests', clock: realClock, cleanup: harnessCleanup() });
}

/** A `size`-member ensemble (see TestingCluster): every member serves and one leads when it resolves. */
export function startEnsemble(size = 3, opts: ZkServerOptions = {}): Promise<TestingCluster> {
  return TestingCluster.start({ ...opts, size, clock: realClock, cleanup: harnessCleanup() });
}

/**
 * The server ordinary integration tests share: ZK_CONNECT when set (nothing is started then), else the run's one
 * server, which global-setup.ts's broker starts on the first file's request and stops after the run. Every test file
 * of the run may be using it at the same time: tests use unique paths (`/t-${randomUUID()}`) and read server-wide
 * figures (4lw, sessions, watches) only for their own sessions.
 */
export function sharedServer(): Promise<SharedServer> {
  const fromEnv = process.env['ZK_CONNECT'];
  if (fromEnv) return Promise.resolve(sharedServerAt(fromEnv));
  shared ??= askForSharedServer();
  const asked = shared;
  // A failed start is not kept: the next caller asks again, and gets the same clear error if it fails again.
  asked.catch(() => {
    if (shared === asked) shared = undefined;
  });
  return asked.then(sharedServerAt);
}

/** The shared server's connect string, and its (first) host and port for raw sockets, proxies and 4lw. */
export interface SharedServer {
  readonly connectString: string;
  readonly host: string;
  readonly port: number;
}

function sharedServerAt(connectString: string): SharedServer {
  const [first] = parseConnectString(connectString).hosts;
  return { connectString, host: first!.host, port: first!.port };
}

let shared: Promise<string> | undefined;

async function askForSharedServer(): Promise<string> {
  // Imported here, not at the top: global-setup.ts imports this module in vitest's main process, where importing
  // vitest's test API throws.
  const { inject } = await import('vitest');
  const broker = inject('zkwireSharedServerBroker');
  if (broker !== undefined) return askSharedServerBroker(broker);
  // Run without the repository's vitest.config.ts (no global setup): a server of this file's own, stopped at exit.
  return (await startZooKeeper()).connectString;
}
