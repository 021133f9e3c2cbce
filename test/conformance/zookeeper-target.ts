/**
 * The real server as a conformance target: a throwaway ZooKeeper of the given version from the testing kit, sweeping containers and
 * expired TTL nodes every 100 ms (default 60 s) and with a 500 ms tick (so a session may time out after 1 s), on real
 * timers and the harness's cleanup. Sessions are expired with the kit's killSession; a client that must be cut off
 * gets a fault proxy of its own.
 */

import { connect, type ZooKeeperClient } from '../../src/node.js';
import { killSession } from '../../src/testing/kill-session.js';
import { startFaultProxy, type FaultProxy } from '../../src/testing/fault-proxy.js';
import { TestingServer } from '../../src/testing/server.js';
import { FAST_START_JVM_FLAGS } from '../../src/testing/local-server/server-process.js';
import { harnessCleanup } from '../harness/exit-cleanup.js';
import { realClock } from '../harness/real-timers.js';
import { ZOOKEEPER_RELEASES, zooKeeperHomeFor } from '../harness/zookeeper-versions.js';
import type { ConformanceTarget, ConformanceVersion, Reconnect, TargetConnectOptions } from './target.js';
import { untilState } from './waits.js';

/** How long `until` polls before it gives up: well past the longest TTL or session timeout a case uses. */
const UNTIL_BOUND_MS = 20_000;
const POLL_MS = 50;

export async function startZooKeeperTarget(version: ConformanceVersion): Promise<ConformanceTarget> {
  const server = await TestingServer.start({
    zooKeeperHome: zooKeeperHomeFor(version),
    clock: realClock,
    cleanup: harnessCleanup(),
    tickTime: 500,
    jvmFlags: [...FAST_START_JVM_FLAGS, '-Dznode.container.checkIntervalMs=100'],
  });
  // The summary line names the version asked for; make sure it is the one that runs.
  if (server.version !== ZOOKEEPER_RELEASES[version]) {
    await server.close();
    throw new Error(`asked for ZooKeeper ${ZOOKEEPER_RELEASES[version]}, the server reports ${server.version}`);
  }
  const proxies = new Map<ZooKeeperClient, FaultProxy>();

  return {
    name: `zookeeper ${version}`,
    version,

    async connect(options: TargetConnectOptions = {}) {
      const { chroot = '', severable = false, ...clientOptions } = options;
      let address = server.connectString;
      let proxy: FaultProxy | undefined;
      if (severable) {
        proxy = await startFaultProxy(server.connectString, { clock: realClock });
        address = proxy.connectString;
      }
      try {
        const client = await connect(address + chroot, { sessionTimeoutMs: 10_000, ...clientOptions });
        if (proxy !== undefined) {
          const own = proxy;
          proxies.set(client, own);
          client.onStateChange((change) => {
            if (change.to === 'closed') {
              proxies.delete(client);
              void own.close();
            }
          });
        }
        return client;
      } catch (error) {
        await proxy?.close();
        throw error;
      }
    },

    async expire(client) {
      await killSession(client);
    },

    async disconnect(client): Promise<Reconnect> {
      const proxy = proxies.get(client);
      if (proxy === undefined) throw new Error('disconnect() needs a client connected with { severable: true }');
      // Paused first, so the reconnect that follows the reset is held at the proxy, handshake unanswered.
      proxy.pause();
      proxy.resetAll();
      await untilState(client, (state) => state !== 'connected');
      return async () => {
        proxy.pass();
        await client.waitConnected();
      };
    },

    async until(check, what) {
      const deadline = realClock.now() + UNTIL_BOUND_MS;
      while (!(await check())) {
        if (realClock.now() > deadline) throw new Error(`timed out after ${UNTIL_BOUND_MS} ms waiting for ${what}`);
        await new Promise<void>((resolve) => realClock.setTimeout(resolve, POLL_MS));
      }
    },

    async close() {
      await Promise.all([...proxies.values()].map((p) => p.close()));
      await server.close();
    },
  };
}
