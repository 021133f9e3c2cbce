/**
 * One ZooKeeper JVM: spawn, readiness via `srvr`, stop/kill/restart, log tail. The implementation lives with the CLI's
 * throwaway-server launcher (src/tools/local-server/server-process.ts) so there is one; the harness names it ZkServer.
 */
export {
  QUORUM_MAIN,
  ServerProcess,
  STANDALONE_MAIN,
  type LocalServer as ZkServer,
  type ServerProcessSpec,
} from '../../src/tools/local-server/server-process.js';
