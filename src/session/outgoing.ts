/**
 * What the session queues for sending: ordinary requests (answered in FIFO order) and auth packets
 * (answered out of band with xid -4). A request is queued synchronously when the caller asks, so call
 * order is wire order; it is encoded only when the coalesced write for that tick is built, which is what
 * lets an abort before that moment take it back with nothing sent.
 */

import { clientError, withContext, ZooKeeperError } from '../errors.js';

export interface Reply {
  readonly err: number;
  readonly zxid: bigint;
  /** The decoded response record (only when err is 0 and the op has one). */
  readonly body: unknown;
}

export interface RequestSpec<T> {
  readonly opcode: number;
  /** The request record, encoded by the protocol's opcode table. */
  readonly body?: unknown;
  /** For errors: the operation name and the caller's path. */
  readonly op: string;
  readonly path?: string | undefined;
  readonly signal?: AbortSignal | undefined;
  /**
   * Turns the reply into the call's result (or throws a ZooKeeperError). Runs synchronously when the reply
   * is read, before any later frame is handled — the place to register a watch so that a notification
   * right behind the reply finds it.
   */
  readonly onReply: (reply: Reply) => T;
  /**
   * The caller went away (aborted after the request was written), yet the server ran the request and its reply
   * came: `onReply` has still run (its bookkeeping must match what the server did) and this undoes what it made
   * for the caller alone, e.g. a watch handle nobody holds. Runs in the same synchronous step as `onReply`.
   */
  readonly onAbandoned?: ((result: T) => void) | undefined;
}

export interface Outgoing {
  readonly opcode: number;
  readonly body: unknown;
  /** Assigned when encoded. */
  xid: number;
  /** Position among the frames written on its connection (1, 2, …), to tell which ones a ping overtook. */
  seq?: number;
  /** The request frame's size in bytes, its length prefix included: set when encoded (for observers). */
  size?: number;
  /** The reply frame's size in bytes, its length prefix included: set when read (for observers). */
  got?: number;
  /** Written to the current connection (awaiting its reply). */
  sent: boolean;
  /** The caller's promise is settled (answered, failed or aborted); a late reply is read and dropped. */
  settled: boolean;
  /** Internal requests (setWatches, closeSession) ignore aborts and never count as the user's. */
  complete(reply: Reply): void;
  fail(err: ZooKeeperError): void;
}

/**
 * An authentication the application added; re-sent on every new connection. The credential sits in an ES
 * private field: util.inspect, console.log and JSON of a record (or of anything holding one: the queue, a
 * connection, the session) never show it.
 */
export class AuthRecord {
  readonly #auth: Uint8Array;
  /** Callers of addAuth still waiting for the server's first answer to this record. */
  waiters: { resolve(): void; reject(err: ZooKeeperError): void }[] = [];

  constructor(
    readonly scheme: string,
    auth: Uint8Array,
  ) {
    this.#auth = auth;
  }

  get auth(): Uint8Array {
    return this.#auth;
  }
}

/**
 * Told once when a caller's request settles, just before its promise does: the item (xid and frame sizes, once
 * written and answered) and the error the caller gets, if any. What an observer hooks (see RequestObserver).
 */
export type ReplyProbe = (item: Outgoing, err?: ZooKeeperError) => void;

/**
 * Wraps every caller's request of a session (the client's stats and diagnostics channels, client/observe.ts):
 * `send` queues the request, synchronously, with the probe to tell when it settles (none: nobody asks); `session` is read when it has
 * (a call queued while connecting goes on the session the handshake gives).
 */
export type RequestObserver = <T>(
  spec: RequestSpec<T>,
  session: { readonly sessionId: bigint },
  send: (probe?: ReplyProbe) => Promise<T>,
) => Promise<T>;

/**
 * The queue item for a caller's request: settles the caller's promise exactly once — with `onReply`'s
 * result, the connection's error, or ABORTED when the signal fires. An abort before the item is written
 * takes it back through `withdraw` (nothing is sent); after that its reply is still read, its `onReply` still runs
 * (the bookkeeping), and `onAbandoned` disposes of the result nobody will receive.
 */
export function callerItem<T>(
  spec: RequestSpec<T>,
  resolve: (value: T) => void,
  reject: (err: ZooKeeperError) => void,
  withdraw: (item: Outgoing) => void,
): Outgoing {
  const { op, path, signal } = spec;
  /** Marks the item settled; false if it already was. */
  const settle = (): boolean => {
    if (item.settled) return false;
    item.settled = true;
    signal?.removeEventListener('abort', onAbort);
    return true;
  };
  const onAbort = (): void => {
    if (!settle()) return;
    if (!item.sent) withdraw(item);
    reject(clientError('ABORTED', item.sent ? 'aborted while awaiting the reply' : 'aborted before sending', { op, path, cause: signal?.reason }));
  };
  const item: Outgoing = {
    opcode: spec.opcode,
    body: spec.body,
    xid: 0,
    sent: false,
    settled: false,
    complete: (reply: Reply) => {
      if (!settle()) {
        abandoned(reply);
        return;
      }
      try {
        resolve(spec.onReply(reply));
      } catch (e) {
        reject(e instanceof ZooKeeperError ? e : clientError('PROTOCOL_ERROR', 'unexpected reply', { op, path, cause: e }));
      }
    },
    fail: (err: ZooKeeperError) => {
      if (settle()) reject(withContext(err, op, path));
    },
  };
  /** A reply for a caller already gone: the session's view must still follow the server's (watches added, removed). */
  const abandoned = (reply: Reply): void => {
    let result: T;
    try {
      result = spec.onReply(reply);
    } catch {
      return; // The server refused it: nothing was made, nothing to undo, and no one to tell.
    }
    try {
      spec.onAbandoned?.(result);
    } catch {
      // Cleanup of an abandoned result is best effort; it must not break the routing of later frames.
    }
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  return item;
}

/** A request the session makes itself (setWatches, closeSession): no caller promise, no abort. */
export function internalRequest(opcode: number, body: unknown, done?: () => void): Outgoing {
  // Answered or failed, it is over either way: the session only needs to know when (closeSession).
  const over = (): void => {
    item.settled = true;
    done?.();
  };
  const item: Outgoing = { opcode, body, xid: 0, sent: false, settled: false, complete: over, fail: over };
  return item;
}
