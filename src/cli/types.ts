/** What every `zkwire` command gets and must provide. */

import type { ZooKeeperClient } from '../node.js';

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
  /** --tls…, --sasl…, --config: how to reach a secured ensemble (connection.ts reads the files). */
  security?: SecurityFlags;
}

/** The security flags as given (file names, not contents); flags win over `--config`. */
export interface SecurityFlags {
  /** --tls: speak TLS (implied by any --tls-* flag). */
  tls?: boolean;
  /** --tls-ca FILE: PEM CA certificate(s) to trust instead of the system's. */
  tlsCa?: string;
  /** --tls-cert FILE / --tls-key FILE: PEM client certificate and its key. */
  tlsCert?: string;
  tlsKey?: string;
  /** --sasl digest:USER | gssapi */
  sasl?: string;
  /** --sasl-password-file FILE: the digest password (else ZKWIRE_SASL_PASSWORD, else a prompt). */
  saslPasswordFile?: string;
  /** --principal P / --keytab FILE: for --sasl gssapi. */
  principal?: string;
  keytab?: string;
  /** --config FILE: ZooKeeper's client configuration properties (zkCli.sh's -client-configuration). */
  config?: string;
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
  /**
   * Set when the command runs inside `zkwire shell`: the command uses this open session instead of connecting (and
   * leaves it open), and stops when `signal` aborts instead of on process signals.
   */
  session?: SharedSession;
}

/** The shell's session as one command sees it. */
export interface SharedSession {
  /** The shell's client; commands neither connect nor close it. */
  readonly client: ZooKeeperClient;
  /** Aborted when the user cancels this command (Ctrl-C) or leaves the shell. */
  readonly signal: AbortSignal;
  /**
   * Hands the shell work that outlives the command (e.g. deleting a lock node once the link is back): the shell
   * waits for it, bounded, before closing its session on exit. A failure of it is reported, not thrown.
   */
  keep(what: string, work: Promise<unknown>): void;
}

export interface Command {
  name: string;
  /** One line for the command list. */
  summary: string;
  /** Full help text (printed by `zkwire <command> --help`). */
  usage: string;
  /** The command's own options and positionals, as it parses them (the shell completes options from it). */
  spec?: ArgSpec;
  /** Returns the exit status: 0 success, 1 failure, 2 usage error. */
  run(args: string[], io: CliIo): Promise<number>;
}

/** What a command parses: its options and positionals (read by parseCommandArgs in commands/node-client.ts). */
export interface ArgSpec {
  /** Options without a value, e.g. `-r`, `--recursive`. */
  readonly flags?: readonly string[];
  /** Options taking a value (`--mode X` or `--mode=X`). */
  readonly valued?: readonly string[];
  /** Names of the positional arguments, in order; the first `required` of them must be given. */
  readonly positionals: readonly string[];
  readonly required: number;
  /** The last positional takes any number of values (e.g. `decode FILE...`). */
  readonly variadic?: boolean;
}
