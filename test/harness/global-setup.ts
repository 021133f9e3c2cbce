import { findZooKeeperInstall, missingInstallMessage } from './zk-install.js';

/**
 * Vitest globalSetup: fail the run at once, with the fix spelled out, when no ZooKeeper can be had — rather than
 * letting every integration test time out on its own. Only file checks: servers are started by the tests themselves.
 * ZK_CONNECT alone is enough for ordinary integration tests (tests that start their own servers still need an install,
 * and say so when they run).
 */
export default function setup(): void {
  if (process.env['ZK_CONNECT']) return;
  if (findZooKeeperInstall() === null) throw new Error(missingInstallMessage());
}
