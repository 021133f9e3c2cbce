/**
 * What every client operation needs: the session, the chroot and the defaults, plus the steps each call
 * shares — checking data against the size limit, queueing the request, turning a server error into a
 * ZooKeeperError, and turning a synchronous argument error into a rejected promise.
 */

import { clientError, errorFromServer, isCode, ZooKeeperError } from '../errors.js';
import { ErrorCode } from '../protocol/error-codes.js';
import { OpCode } from '../protocol/opcodes.js';
import type { RequestBodyByOp, ResponseBodyByOp } from '../protocol/ops.js';
import type { Reply, RequestSpec } from '../session/outgoing.js';
import type { Session } from '../session/session.js';
import type { WatchEvent, WatchKind } from '../session/watches.js';
import type { ACL } from './acl.js';
import type { Chroot } from './chroot.js';
import { checkSignal } from './checks.js';
import { validatePath } from './paths.js';
import { SHORT_CREATE_OVERHEAD } from './request-size.js';
import { toBytes } from './data.js';
import { mayRepeat, retried, type Recover } from './retry-call.js';
import { isPolicy } from './connecting.js';
import type { SessionSeries } from './session-series.js';
import type { AclProvider, CallOptions, Compression, Data } from './types.js';
import type { PersistentWatch } from './watch-handle.js';

/** An op the client sends and reads the reply of: a row of both of the protocol's body tables. */
export type WireOp = keyof RequestBodyByOp & keyof ResponseBodyByOp;

/** A reply to a `K` request, its body typed by the protocol's table (the body is there only when err is 0). */
export interface ReplyTo<K extends WireOp> extends Reply {
  readonly body: ResponseBodyByOp[K];
}

export class ClientContext {
  readonly #maxDataSize: number;
  /**
   * The persistent watches handed out and not closed, with the server path and table each is registered under: what
   * a new session re-adds after an expiry (see watch-ops.ts, carryPersistentWatches).
   */
  readonly persistentWatches = new Map<PersistentWatch, { readonly kind: WatchKind; readonly server: string }>();
  /** The client's `compression` option and the hook it set here (compression.ts); `declare`: no code when unused. */
  declare compression: Compression | undefined;
  declare pack: PackingHook | undefined;

  constructor(
    readonly sessions: SessionSeries,
    readonly chroot: Chroot,
    readonly defaultAcl: readonly ACL[],
    maxDataSize: number,
    /** The client's `aclProvider` and `containers` options, as every create reads them. */
    readonly creates: CreateDefaults = {},
  ) {
    this.#maxDataSize = maxDataSize;
  }

  /** The ACL of a create at `path` (a caller's path) that names none: the aclProvider's, else defaultAcl. */
  aclFor(path: string): readonly ACL[] {
    return this.creates.aclProvider?.(path) ?? this.defaultAcl;
  }

  /** The session requests go to now: after an expiry, the new one. */
  get session(): Session {
    return this.sessions.current;
  }

  /** A caller's path checked (BAD_ARGUMENT, see paths.ts) and mapped to the server's (the chroot prepended). */
  serverPath(path: string, op: string, sequential = false): string {
    validatePath(path, op, sequential);
    return this.chroot.toServer(path);
  }

  /** Node data as bytes, refused (BAD_ARGUMENT) over the size limit. */
  data(data: Data, op: string, path: string): Uint8Array {
    const bytes = toBytes(data, op, path);
    if (bytes.length > this.#maxDataSize) {
      throw clientError('BAD_ARGUMENT', `data of ${bytes.length} bytes exceeds the maximum of ${this.#maxDataSize} (maxDataSize)`, { op, path });
    }
    return bytes;
  }

  /**
   * Refuses (BAD_ARGUMENT) a request whose frame the server would answer by dropping the connection: over the
   * data limit plus the room it leaves for a short create (exactly jute.maxbuffer with the defaults). `size` is
   * only computed for large data, the one case where the rest of the request can tip it over.
   */
  checkRequestSize(op: string, path: string | undefined, dataLength: number, size: () => number): void {
    const budget = this.#maxDataSize + SHORT_CREATE_OVERHEAD;
    if (dataLength + 64 * 1024 < budget) return;
    const n = size();
    if (n > budget) {
      throw clientError('BAD_ARGUMENT', `request of ${n} bytes exceeds the server's limit of ${budget} (jute.maxbuffer); shorten the data`, { op, path });
    }
  }

  /**
   * Queues one request (synchronously: call order is wire order). `onReply` runs when the reply is read even if
   * the caller aborted meanwhile; `onAbandoned` then gets its result to dispose of (see RequestSpec).
   */
  send<K extends WireOp, T>(
    op: string,
    path: string | undefined,
    wire: K,
    body: RequestBodyByOp[K],
    options: CallOptions,
    onReply: (reply: ReplyTo<K>) => T,
    onAbandoned?: (result: T) => void,
    recover?: Recover<T>,
  ): Promise<T> {
    return this.#send(op, path, OpCode[wire], body, options, onReply as (reply: Reply) => T, onAbandoned, recover);
  }

  // The one untyped step: the session encodes `body` and decodes the reply with the opcode's row of the same
  // tables that type `send`, so the reply's body is the ResponseBodyByOp row of the op that was sent.
  #send<T>(
    op: string,
    path: string | undefined,
    opcode: number,
    body: unknown,
    options: CallOptions,
    onReply: (reply: Reply) => T,
    onAbandoned: ((result: T) => void) | undefined,
    recover: Recover<T> | undefined,
  ): Promise<T> {
    const signal = checkSignal(options.signal, op, path);
    const features = this.sessions.features;
    const refused = features.refusal(opcode, op, path, this.session.serverVersion);
    if (refused !== undefined) return Promise.reject(refused);
    const root = this.chroot.root;
    // A call the retry policy may send again, when it cannot be applied twice (client/retry-call.ts).
    const policy = options.retry ?? this.sessions.options.retry;
    if (!(policy === undefined || isPolicy(policy))) throw clientError('BAD_ARGUMENT', 'retry must be a RetryPolicy such as exponentialBackoff()', { op, path });
    // One spec and one reply closure per call, no spread: this runs for every request (a lock cycle makes three).
    const spec: RequestSpec<T> = {
      opcode,
      body,
      op,
      path,
      signal,
      onAbandoned,
      onReply: (reply) => {
        features.learn(opcode, reply.err);
        if (root === undefined || path === undefined) return onReply(reply);
        // Under a chroot, a NONODE names the server's path: on "/" it is the chroot itself that is missing, which a
        // bare `NONODE (getChildren /)` would hide. Only an error the op's own handler raises is renamed: some ops
        // answer NONODE with a value (exists: null).
        try {
          return onReply(reply);
        } catch (error) {
          if (reply.err !== ErrorCode.NONODE || !isCode(error, 'NONODE')) throw error;
          throw errorFromServer(reply.err, op, path, path === '/' ? `the chroot ${root} does not exist` : `no node ${root}${path} (chroot ${root})`);
        }
      },
    };
    return policy === undefined || !mayRepeat(opcode, body, recover !== undefined) ? this.session.request(spec) : retried(this.sessions, spec, policy, recover);
  }

  /** A watch event as the caller sees it: the chroot stripped from its path. */
  readonly mapEvent = (event: WatchEvent): WatchEvent =>
    event.path === undefined || this.chroot.root === undefined ? event : { ...event, path: this.chroot.toClient(event.path) };
}

/** The client options every create reads (see ClientOptions). */
export interface CreateDefaults {
  readonly aclProvider?: AclProvider | undefined;
  readonly containers?: boolean | undefined;
}

/** onReply helper: throws the server's error unless err is 0. */
export function ok(reply: Reply, op: string, path: string | undefined): void {
  if (reply.err !== 0) throw errorFromServer(reply.err, op, path);
}

/** Runs `fn` (which queues synchronously) and turns a synchronous throw into a rejected promise. */
export function guard<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return fn();
  } catch (e) {
    return Promise.reject(e instanceof ZooKeeperError ? e : clientError('BAD_ARGUMENT', String(e), { cause: e }));
  }
}

/** An operation of the client as the hook is given it: the operation's function and its arguments. */
export type PackingHook = (op: string, run: (ctx: ClientContext, ...args: never[]) => Promise<unknown>, args: unknown[]) => Promise<unknown>;
