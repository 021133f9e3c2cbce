/** RequestHeader and ReplyHeader: the prefix of every frame after the connect handshake. */

import type { JuteReader, JuteWriter } from '../jute.js';

/** The prefix of every request after the handshake: xid and opcode. */
export interface RequestHeader {
  xid: number;
  /** The opcode. */
  type: number;
}

/** The prefix of every reply and notification: xid, the server's zxid and the error code. */
export interface ReplyHeader {
  xid: number;
  zxid: bigint;
  err: number;
}

/** Writes a RequestHeader. */
export function encodeRequestHeader(w: JuteWriter, v: RequestHeader): void {
  w.writeInt(v.xid);
  w.writeInt(v.type);
}

/** Reads a RequestHeader. */
export function decodeRequestHeader(r: JuteReader): RequestHeader {
  return { xid: r.readInt('RequestHeader.xid'), type: r.readInt('RequestHeader.type') };
}

/** Writes a ReplyHeader. */
export function encodeReplyHeader(w: JuteWriter, v: ReplyHeader): void {
  w.writeInt(v.xid);
  w.writeLong(v.zxid);
  w.writeInt(v.err);
}

/** Reads a ReplyHeader. */
export function decodeReplyHeader(r: JuteReader): ReplyHeader {
  return { xid: r.readInt('ReplyHeader.xid'), zxid: r.readLong('ReplyHeader.zxid'), err: r.readInt('ReplyHeader.err') };
}
