/**
 * The base of every error a tool throws (a capture or data file it cannot read, a benchmark that cannot run): a
 * stable `code` for scripts, one line for people, and the byte offset where reading stopped when there is one.
 * Errors of the client itself are ZooKeeperErrors; these are about the tools' own inputs and peers.
 */
export class ToolError<Code extends string = string> extends Error {
  /** Byte offset in the input where reading stopped, when the error is about a file's bytes. */
  readonly offset: number | undefined;

  constructor(
    /** Stable name for scripts. */
    readonly code: Code,
    message: string,
    offset?: number,
  ) {
    super(offset === undefined ? message : `${message} (at byte offset ${offset})`);
    this.offset = offset;
  }
}
