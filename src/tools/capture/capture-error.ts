/** The error a capture source throws when its bytes are not a capture it can read (a truncated end is not one). */

import { ToolError } from '../shared/tool-error.js';

/**
 * A capture file that is corrupt (or not a capture at all); `offset` is the byte where reading stopped (undefined for
 * a JSON-lines capture, whose message names the line instead).
 */
export class CaptureFormatError extends ToolError<'CORRUPT_CAPTURE'> {
  override readonly name = 'CaptureFormatError';

  /** `offset`: where in the capture the bad record starts. */
  constructor(message: string, offset: number | undefined) {
    super('CORRUPT_CAPTURE', message, offset);
  }
}
