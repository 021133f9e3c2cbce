/**
 * Encoding one tick's worth of queued requests into a single buffer: the write coalescing that lets a
 * burst of calls cost one transport write. Each request gets its xid here, at encode time, so xids on
 * the wire always increase; requests aborted before this point are skipped (nothing of them is sent).
 */

import { clientError, type ZooKeeperError } from '../errors.js';
import { OpCode, Xid, type JuteWriter } from '../protocol/index.js';
import type { Connection } from './connection.js';
import type { AuthRecord, Outgoing } from './outgoing.js';
import type { XidCounter } from './pending.js';
import { writeRequest } from './wire-codecs.js';

export type QueueItem = Outgoing | { readonly auth: AuthRecord };

export interface BatchContext {
  readonly writer: JuteWriter;
  readonly conn: Connection;
  readonly xids: XidCounter;
  /** An auth packet that could not be encoded (never sent). */
  rejectAuth(record: AuthRecord, err: ZooKeeperError): void;
  /** When tracing: receives [start, end) offsets of every frame written. */
  readonly frames: number[] | undefined;
  /**
   * Whether a request may go out now: true, 'wait' (the server's version must be learnt first: it and everything
   * after it stay queued, in order), or the error to fail it with unsent (an op the server lacks).
   */
  admit?(item: Outgoing): true | 'wait' | ZooKeeperError;
}

/**
 * Appends every item's frame to the (reset) writer, moving requests into the connection's FIFO and auth
 * packets into its auth queue. An item that fails to encode is rejected with BAD_ARGUMENT and its
 * half-written bytes are removed; the others still go. Returns the items held back by `admit` (oldest first).
 */
export function encodeBatch(items: readonly QueueItem[], ctx: BatchContext): QueueItem[] {
  const { writer: w, conn } = ctx;
  for (let i = 0; i < items.length; i++) {
    const item = items[i] as QueueItem;
    const start = w.length;
    if ('auth' in item) {
      try {
        writeRequest(w, { xid: Xid.auth, type: OpCode.auth }, { type: 0, scheme: item.auth.scheme, auth: item.auth.auth });
      } catch (e) {
        rollback(w, start);
        ctx.rejectAuth(item.auth, clientError('BAD_ARGUMENT', 'cannot encode auth packet', { op: 'addAuth', cause: e }));
        continue;
      }
      conn.authInFlight.push({ record: item.auth, seq: ++conn.written });
    } else {
      if (item.settled) continue;
      const admitted = ctx.admit?.(item) ?? true;
      if (admitted === 'wait') return items.slice(i);
      if (admitted !== true) {
        item.fail(admitted);
        continue;
      }
      const xid = ctx.xids.next();
      try {
        writeRequest(w, { xid, type: item.opcode }, item.body);
      } catch (e) {
        rollback(w, start);
        item.fail(clientError('BAD_ARGUMENT', 'cannot encode request', { cause: e }));
        continue;
      }
      item.xid = xid;
      item.seq = ++conn.written;
      item.size = w.length - start;
      item.sent = true;
      conn.pending.push(item);
    }
    ctx.frames?.push(start, w.length);
  }
  return [];
}

/** Drops a half-written frame after an encode error (rare: the client validates before queueing). */
function rollback(w: JuteWriter, start: number): void {
  const keep = w.written().slice(0, start);
  w.reset().writeBytes(keep);
}
