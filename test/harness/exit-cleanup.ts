/** One registry of JVMs and directories to clean up at exit, shared with the production launcher. */
export { trackChild, trackDir, untrackDir } from '../../src/tools/local-server/exit-cleanup.js';
