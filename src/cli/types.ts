/** What every `zkwire` command gets and must provide. */

export interface GlobalOptions {
  /** --server host:port[,host:port][/chroot] */
  server?: string;
  /** --session-timeout ms */
  sessionTimeout?: number;
  /** --connect-timeout ms: how long to wait for the first session (default the session timeout). */
  connectTimeout?: number;
  /** --max-frame-size bytes: the largest reply frame accepted. */
  maxFrameSize?: number;
  /** --auth scheme:credentials, in order (repeatable): sent on every connection. */
  auth?: { scheme: string; auth: string }[];
  /** --json: machine-readable output where a command supports it. */
  json: boolean;
}

export interface CliIo {
  /** Writes to standard output (the text as given; add your own newlines). */
  out(text: string): void;
  /** Writes bytes to standard output as they are (for `get --raw`); absent where output is text only. */
  write?(bytes: Uint8Array): void;
  /** Writes to standard error. */
  err(text: string): void;
  /** Standard input as text chunks. */
  stdin: AsyncIterable<string | Uint8Array>;
  globals: GlobalOptions;
}

export interface Command {
  name: string;
  /** One line for the command list. */
  summary: string;
  /** Full help text (printed by `zkwire <command> --help`). */
  usage: string;
  /** Returns the exit status: 0 success, 1 failure, 2 usage error. */
  run(args: string[], io: CliIo): Promise<number>;
}
