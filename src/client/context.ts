/**
 * What every client operation needs: the session, the chroot and the defaults, plus the steps each call
 * shares — checking data against the size limit, queueing the request, turning a server error into a
 * ZooKeeperError, and turning a synchronous argument error into a rejected promise.
 */

import { clientError, errorFromServer, ZooKeeperError } from '../errors.js';
import type { Reply } from '../session/outgoing.js';
import type { Session } from '../session/session.js';
import type { WatchEvent } from '../session/watches.js';
import type { ACL } from './acl.js';
import type { Chroot } from './chroot.js';
import { toBytes } from './data.js';
import type { CallOptions, Data } from './types.js';

export class ClientContext {
  constructor(
    readonly session: Session,
    readonly chroot: Chroot,
    readonly defaultAcl: readonly ACL[],
    private readonly maxDataSize: number,
  ) {}

  /** Node data as bytes, refused (BAD_ARGUMENT) over the size limit. */
  data(data: Data, op: string, path: string): Uint8Array {
    const bytes = toBytes(data, op, path);
    if (bytes.length > this.maxDataSize) {
      throw clientError('BAD_ARGUMENT', `data of ${bytes.length} bytes exceeds the maximum of ${this.maxDataSize}`, { op, path });
    }
    return bytes;
  }

  /**
   * Queues one request (synchronously: call order is wire order). `onReply` runs when the reply is read even if
   * the caller aborted meanwhile; `onAbandoned` then gets its result to dispose of (see RequestSpec).
   */
  send<T>(
    op: string,
    path: string | undefined,
    opcode: number,
    body: unknown,
    options: CallOptions,
    onReply: (reply: Reply) => T,
    onAbandoned?: (result: T) => void,
  ): Promise<T> {
    return this.session.request({ opcode, body, op, path, signal: options.signal, onReply, ...(onAbandoned === undefined ? {} : { onAbandoned }) });
  }

  /** A watch event as the caller sees it: the chroot stripped from its path. */
  readonly mapEvent = (event: WatchEvent): WatchEvent =>
    event.path === undefined ? event : { ...event, path: this.chroot.toClient(event.path) };
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
