/**
 * What ZooKeeper frames look like from their first bytes, before any decoding: the framer's resynchronisation and the
 * port finder (which tells ZooKeeper connections from other TCP traffic) both ask these questions.
 */

import { int32 } from '../../protocol/bytes.js';
import { OpCode, opName, Xid } from '../../protocol/index.js';

/** A request opcode a client may send (not the server-internal ones, nor 0/-1 which are not requests). */
export function isRequestOp(type: number): boolean {
  return type !== OpCode.notification && type !== OpCode.error && type !== OpCode.createSession && opName(type) !== 'unknown';
}

/** Length prefix plus a ConnectRequest's fixed part (44 bytes, 45 with the readOnly flag). */
export const CONNECT_REQUEST_BYTES = 4 + 44;

/**
 * A ConnectRequest's shape at `at` (`b` holds CONNECT_REQUEST_BYTES from there): a 44- or 45-byte frame with
 * protocol version 0 and the 16-byte password length where they belong.
 */
export function looksLikeConnectRequestAt(b: Uint8Array, at: number): boolean {
  const len = int32(b, at);
  return (len === 44 || len === 45) && int32(b, at + 4) === 0 && int32(b, at + 28) === 16;
}

/** Length prefix plus a RequestHeader (xid, type). */
export const REQUEST_HEAD_BYTES = 12;
/** Length prefix plus a ReplyHeader (xid, zxid, err). */
export const REPLY_HEAD_BYTES = 20;

/**
 * Could a request frame start at `at` (`b` holds REQUEST_HEAD_BYTES from there)? The reserved xids only with their
 * own opcodes, any other xid positive; the opcode one a client sends.
 */
export function looksLikeRequestHead(b: Uint8Array, at: number): boolean {
  const len = int32(b, at);
  const xid = int32(b, at + 4);
  const type = int32(b, at + 8);
  if (len < 8 || !isRequestOp(type)) return false;
  if (xid === Xid.ping) return type === OpCode.ping && len === 8;
  if (xid === Xid.auth) return type === OpCode.auth;
  if (xid === Xid.setWatches) return type === OpCode.setWatches || type === OpCode.setWatches2;
  return xid > 0 && type !== OpCode.ping && type !== OpCode.auth;
}
