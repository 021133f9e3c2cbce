/** Throwaway local ZooKeeper servers from a local install (Debian jars or ZOOKEEPER_HOME); Node only. */

export { standaloneConfig, quorumConfig, type QuorumMember, type ZkConfigOptions } from './config.js';
export { freePort, freePorts } from './free-port.js';
export {
  DEBIAN_ZOOKEEPER_JAR,
  findJava,
  findJavaTool,
  findZooKeeperInstall,
  missingInstallMessage,
  requireZooKeeperInstall,
  type InstallPurpose,
  type ZooKeeperInstall,
} from './install.js';
export { makeServerDir, removeServerDir } from './server-dir.js';
export {
  FAST_START_JVM_FLAGS,
  QUORUM_MAIN,
  ServerProcess,
  STANDALONE_MAIN,
  type LocalServer,
  type ServerProcessSpec,
} from './server-process.js';
export { startLocalServer, type LocalServerOptions } from './standalone.js';
export { withServer, type ServerChoice, type WithServerGlobals, type WithServerIo } from './with-server.js';
