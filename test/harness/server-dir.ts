export { makeServerDir, removeServerDir } from '../../src/tools/local-server/server-dir.js';
