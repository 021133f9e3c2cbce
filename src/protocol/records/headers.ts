/** RequestHeader and ReplyHeader: the prefix of every frame after the connect handshake. */

import type { JuteReader, JuteWriter } from '../jute.js';

export interface RequestHeader {
  xid: number;
  /** The opcode. */
  type: number;
}

export interface ReplyHeader {
  xid: number;
  zxid: bigint;
  err: number;
}

export function encodeRequestHeader(w: JuteWriter, v: RequestHeader): void {
  w.writeInt(v.xid);
  w.writeInt(v.type);
}

export function decodeRequestHeader(r: JuteReader): RequestHeader {
  return { xid: r.readInt('RequestHeader.xid'), type: r.readInt('RequestHeader.type') };
}

export function encodeReplyHeader(w: JuteWriter, v: ReplyHeader): void {
  w.writeInt(v.xid);
  w.writeLong(v.zxid);
  w.writeInt(v.err);
}

export function decodeReplyHeader(r: JuteReader): ReplyHeader {
  return { xid: r.readInt('ReplyHeader.xid'), zxid: r.readLong('ReplyHeader.zxid'), err: r.readInt('ReplyHeader.err') };
}
