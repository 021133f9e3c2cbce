/** The error the Curator side of a benchmark throws when it cannot run: what is missing, or what failed. */

import { ToolError } from '../shared/tool-error.js';

/**
 * Stable names for scripts: NO_JDK (java or javac not found), NO_CURATOR (the Curator 5.x jars not found),
 * JAVAC_FAILED (the Curator program did not compile against the class path given), CURATOR_FAILED (the Curator
 * program exited with an error).
 */
export type CuratorErrorCode = 'NO_JDK' | 'NO_CURATOR' | 'JAVAC_FAILED' | 'CURATOR_FAILED';

/** A Curator peer that cannot run; the message is one line that says what to install or pass. */
export class CuratorPeerError extends ToolError<CuratorErrorCode> {
  override readonly name = 'CuratorPeerError';
}
