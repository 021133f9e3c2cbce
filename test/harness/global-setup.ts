import { findZooKeeperInstall, missingInstallMessage } from '../../src/testing/local-server/install.js';

/**
 * Vitest globalSetup. The ZooKeeper check is lazy: protocol, session and other unit tests need neither Java nor a
 * server, so a missing install must not stop them. Tests that start a server fail on their own, at once, with the
 * how-to-install message (startLocalServer and startEnsemble call requireZooKeeperInstall); this only says up front
 * why they are about to fail. ZK_CONNECT alone is enough for ordinary integration tests.
 */
export default function setup(): void {
  if (process.env['ZK_CONNECT']) return;
  if (findZooKeeperInstall() !== null) return;
  const [firstLine] = missingInstallMessage().split('\n');
  console.warn(`${firstLine} Unit tests run; every test that starts a server will fail with the full message.`);
}
