/** The four-letter-word client lives with the production tools; the harness re-exports it. */
export { fourLetterWord, parseServerMode, probeServerMode, type ServerMode } from '../../src/tools/four-letter-client.js';
