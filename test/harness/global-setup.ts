import type { TestProject } from 'vitest/node';
import { findZooKeeperInstall, missingInstallMessage } from '../../src/testing/local-server/install.js';
import { startSharedServerBroker } from './shared-server-broker.js';
import { startZooKeeper } from './zookeeper.js';

/**
 * Vitest globalSetup: the run's one shared ZooKeeper, behind a broker that starts it when the first test file asks
 * (sharedServer() in zookeeper.ts) and stops it in the teardown. It is the release the run is for: startZooKeeper
 * reads ZOOKEEPER_HOME, which scripts/test-matrix.sh sets per run. With ZK_CONNECT set nothing is started: the tests
 * use that server.
 *
 * The ZooKeeper check is lazy: protocol, session and other unit tests need neither Java nor a server, so a missing
 * install must not stop them. Tests that start a server fail on their own, at once, with the how-to-install message
 * (startLocalServer and startEnsemble call requireZooKeeperInstall); this only says up front why they are about to
 * fail.
 */
export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  if (process.env['ZK_CONNECT']) return undefined;
  if (findZooKeeperInstall() === null) {
    const [firstLine] = missingInstallMessage().split('\n');
    console.warn(`${firstLine} Unit tests run; every test that starts a server will fail with the full message.`);
  }
  const broker = await startSharedServerBroker(() => startZooKeeper());
  project.provide('zkwireSharedServerBroker', broker.address);
  return () => broker.close();
}
