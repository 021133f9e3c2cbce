/** The error a capture source throws when its bytes are not a capture it can read (a truncated end is not one). */

/**
 * A capture file that is corrupt (or not a capture at all); `offset` is the byte where reading stopped (undefined for
 * a JSON-lines capture, whose message names the line instead).
 */
export class CaptureFormatError extends Error {
  override readonly name = 'CaptureFormatError';
  /** Stable name for scripts: the input is not a readable capture. */
  readonly code = 'CORRUPT_CAPTURE';

  constructor(
    message: string,
    /** Byte offset in the capture where the bad record starts. */
    readonly offset: number | undefined,
  ) {
    super(offset === undefined ? message : `${message} (at byte offset ${offset})`);
  }
}
