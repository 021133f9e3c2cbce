/**
 * The one public error class. Every failure zkwire reports is a ZooKeeperError whose `code` is a stable
 * name: ZooKeeper's own (NONODE, BADVERSION, CONNECTIONLOSS, …) or a client code (CLOSED, ABORTED, …).
 * Callers branch on `code`, never on messages; `errno` keeps the server's number (also for numbers this
 * client does not know, which become UNKNOWN_ERROR instead of a crash).
 */

import type { OpResult } from './protocol/op-result.js';
import { ErrorCode, errorName, type ErrorCodeName } from './protocol/error-codes.js';

export type { ErrorCodeName } from './protocol/error-codes.js';

/** What a ZooKeeperError may carry besides its code and message. */
export interface ZooKeeperErrorOptions {
  /** The server's numeric code, when the error came from a reply. */
  readonly errno?: number | undefined;
  /** The operation that failed, e.g. `getData`. */
  readonly op?: string | undefined;
  /** The path as the caller gave it (chroot not applied). */
  readonly path?: string | undefined;
  readonly cause?: unknown;
  /** For a failed multi: every op's result, the failing one (and the ones after it) as errors. */
  readonly results?: readonly OpResult[] | undefined;
}

/**
 * Every error zkwire reports: `code` is ZooKeeper's own name (NONODE, BADVERSION, CONNECTIONLOSS, SESSIONEXPIRED, ...)
 * or one of the client's (BAD_ARGUMENT, TIMEOUT, ABORTED, CLOSED).
 */
export class ZooKeeperError extends Error {
  override readonly name = 'ZooKeeperError';
  readonly code: ErrorCodeName;
  // `declare`: optional fields exist on the object only when set (no own properties holding undefined).
  declare readonly errno?: number;
  declare readonly op?: string;
  declare readonly path?: string;
  declare readonly results?: readonly OpResult[];

  /**
   * `message` reads `CODE (op path): detail` by convention (clientError and errorFromServer build it so); one
   * that does not start with the code gets it prefixed, one that does is kept, so the code appears exactly once
   * and a printer shows `message` as it is, never `${code}: ${message}`.
   */
  constructor(code: ErrorCodeName, message: string, options: ZooKeeperErrorOptions = {}) {
    super(withCode(code, message), options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    const self = this as { -readonly [K in keyof ZooKeeperError]: ZooKeeperError[K] };
    if (options.errno !== undefined) self.errno = options.errno;
    if (options.op !== undefined) self.op = options.op;
    if (options.path !== undefined) self.path = options.path;
    if (options.results !== undefined) self.results = options.results;
  }
}

/** `message` starting with `code` exactly once: kept if it already does, else `CODE: message` (or bare CODE). */
function withCode(code: string, message: string): string {
  if (message === '' || message === code) return code;
  if (message.startsWith(code) && /^[ :(]/.test(message.slice(code.length))) return message;
  return `${code}: ${message}`;
}

function describe(code: string, op: string | undefined, path: string | undefined, detail?: string): string {
  const where = op === undefined ? '' : path === undefined ? ` (${op})` : ` (${op} ${path})`;
  return detail === undefined ? `${code}${where}` : `${code}${where}: ${detail}`;
}

/**
 * The error for a server reply's err number (with an optional detail saying what it means here); numbers
 * ZooKeeper does not define become UNKNOWN_ERROR.
 */
export function errorFromServer(errno: number, op?: string, path?: string, detail?: string): ZooKeeperError {
  const name = errorName(errno);
  const options = { errno, op, path };
  if (name === undefined || name === 'OK') {
    return withoutStack(() => new ZooKeeperError('UNKNOWN_ERROR', describe('UNKNOWN_ERROR', op, path, `server error number ${errno}`), options));
  }
  return withoutStack(() => new ZooKeeperError(name, describe(name, op, path, detail), options));
}

/**
 * A server's error is built where its reply is read, so a stack trace captured there would list only the
 * client's own receive path (socket callback, frame router, reply handler), never the code that made the call,
 * which is awaiting a promise: no stack is captured, as Node's fs/promises errors carry none, and the message
 * names the op and the path instead. That also keeps an expected error cheap: a lock waiter reading a node that
 * has just gone gets NONODE on its hot path, and capturing ten frames costs several times the rest of the error.
 */
export function withoutStack(make: () => ZooKeeperError): ZooKeeperError {
  const E = Error as { stackTraceLimit?: unknown };
  const limit = E.stackTraceLimit;
  if (typeof limit !== 'number') return make();
  try {
    E.stackTraceLimit = 0;
  } catch {
    return make(); // a frozen Error (hardened JavaScript): keep the engine's default
  }
  try {
    return make();
  } finally {
    E.stackTraceLimit = limit;
  }
}

/** A client-side error (or a server name raised by the client itself, like CONNECTIONLOSS). */
export function clientError(
  code: ErrorCodeName,
  detail?: string,
  context: { op?: string | undefined; path?: string | undefined; cause?: unknown } = {},
): ZooKeeperError {
  const errno = (ErrorCode as Record<string, number>)[code];
  return new ZooKeeperError(code, describe(code, context.op, context.path, detail), { errno, ...context });
}

/** A copy of `err` naming the operation and path it failed for (session errors are shared between calls). */
export function withContext(err: ZooKeeperError, op: string, path?: string): ZooKeeperError {
  if (err.op === op && err.path === path) return err;
  const { errno, cause, results } = err;
  return new ZooKeeperError(err.code, describe(err.code, op, path, stripPrefix(err)), { errno, op, path, cause, results });
}

function stripPrefix(err: ZooKeeperError): string | undefined {
  const i = err.message.indexOf(': ');
  return i < 0 ? undefined : err.message.slice(i + 2);
}

const RETRYABLE: ReadonlySet<ErrorCodeName> = new Set<ErrorCodeName>([
  'CONNECTIONLOSS',
  'OPERATIONTIMEOUT',
  'THROTTLEDOP',
  'SESSIONMOVED',
  'REQUESTTIMEOUT',
  'PROTOCOL_ERROR',
  'FRAME_TOO_LARGE',
]);

/** True when `err` is a ZooKeeperError with one of `codes` (`isCode(e, 'NONODE', 'NODEEXISTS')`). */
export function isCode(err: unknown, ...codes: readonly ErrorCodeName[]): err is ZooKeeperError {
  return err instanceof ZooKeeperError && codes.includes(err.code);
}

/**
 * True when the same call may succeed if simply tried again on this client: the connection broke or the
 * server pushed back, but the session is intact. (A retried write may already have been applied.)
 */
export function isRetryable(err: unknown): boolean {
  return err instanceof ZooKeeperError && RETRYABLE.has(err.code);
}

/**
 * True when the session the call was made on is gone, with its ephemeral nodes and one-shot watches. After
 * SESSIONEXPIRED a renewing client (the default) is already opening a new session, and the same call may be made
 * again there; after CLOSED or AUTHFAILED the client has ended (`client.ended`).
 */
export function isSessionLost(err: unknown): boolean {
  return (
    err instanceof ZooKeeperError &&
    (err.code === 'SESSIONEXPIRED' || err.code === 'AUTHFAILED' || err.code === 'CLOSED')
  );
}
