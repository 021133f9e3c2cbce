/**
 * Finding Java and the ZooKeeper jars: one implementation, shared with the CLI's throwaway-server launcher
 * (src/tools/local-server/install.ts). Re-exported under the harness's names.
 */
export {
  DEBIAN_ZOOKEEPER_JAR,
  findJava,
  findZooKeeperInstall,
  missingInstallMessage,
  requireZooKeeperInstall,
  type ZooKeeperInstall,
} from '../../src/tools/local-server/install.js';
