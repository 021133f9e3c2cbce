import { TestingCluster } from '../../src/testing/cluster.js';
import type { ServerProcess } from '../../src/testing/local-server/server-process.js';
import { startLocalServer } from '../../src/testing/local-server/standalone.js';
import { harnessCleanup } from './exit-cleanup.js';
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
 * The server ordinary integration tests share: ZK_CONNECT when set (nothing is started then), else one standalone
 * server per test process, started on first use. Tests must use unique paths (`/t-${randomUUID()}`).
 */
export function sharedServer(): Promise<{ connectString: string }> {
  const fromEnv = process.env['ZK_CONNECT'];
  if (fromEnv) return Promise.resolve({ connectString: fromEnv });
  // Kept on globalThis so the test files vitest runs in one worker process share the server.
  const holder = globalThis as typeof globalThis & { [SHARED_KEY]?: Promise<ServerProcess> };
  let shared: Promise<ServerProcess> | undefined = holder[SHARED_KEY];
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
