/** zoo.cfg for test servers: the same configuration the CLI's throwaway servers use (src/tools/local-server/config.ts). */
export {
  quorumConfig,
  standaloneConfig,
  type QuorumMember,
  type ZkConfigOptions,
} from '../../src/tools/local-server/config.js';
