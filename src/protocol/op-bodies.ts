/**
 * Decoded frames with their bodies typed by opcode: a discriminated union built from the codec's own table of which
 * record each opcode carries (`RequestBodyByOp`, `ResponseBodyByOp` in ops.ts), so a consumer that switches on the
 * opcode gets the record's type instead of reading an untyped object by string keys.
 *
 * The ConversationDecoder picks every body's record by exactly this opcode, so the pairing holds by construction;
 * the two accessors below are the one place that says so to the compiler.
 */

import type { DecodedReply, DecodedRequest, DescribedFrame } from './conversation.js';
import type { OpCode } from './opcodes.js';
import type { RequestBodyByOp, ResponseBodyByOp } from './ops.js';
import type { ConnectRequest, ConnectResponse } from './records/connect.js';
import type { ReplyHeader, RequestHeader } from './records/headers.js';
import type { WatcherEvent } from './records/watcher-event.js';

type Code<K extends keyof typeof OpCode> = (typeof OpCode)[K];

/** A decoded request: `opcode` says which record `body` is. */
export type OpRequest = {
  [K in keyof RequestBodyByOp]: { readonly opcode: Code<K>; readonly header: RequestHeader; readonly body: RequestBodyByOp[K] };
}[keyof RequestBodyByOp];

/** A decoded reply: `opcode` (its request's) says which record `body` is; an error reply has no body. */
export type OpReply = {
  [K in keyof ResponseBodyByOp]: { readonly opcode: Code<K>; readonly header: ReplyHeader; readonly body: ResponseBodyByOp[K] | undefined };
}[keyof ResponseBodyByOp];

/** The request a frame carries, typed by its opcode; undefined for any other frame or one that did not decode. */
export function opRequest(f: DescribedFrame): OpRequest | undefined {
  if (f.kind !== 'request' || f.error !== undefined || f.decoded === undefined) return undefined;
  const d = f.decoded as DecodedRequest;
  return { opcode: d.header.type, header: d.header, body: d.body } as OpRequest;
}

/** The reply a frame carries, typed by the opcode of the request it answers; undefined when that is not known. */
export function opReply(f: DescribedFrame): OpReply | undefined {
  if (f.kind !== 'reply' || f.error !== undefined || f.opcode === undefined || f.decoded === undefined) return undefined;
  const d = f.decoded as DecodedReply;
  return { opcode: f.opcode, header: d.header, body: d.body } as OpReply;
}

/** The watch event a notification frame carries. */
export function notificationEvent(f: DescribedFrame): WatcherEvent | undefined {
  if (f.kind !== 'notification' || f.error !== undefined || f.decoded === undefined) return undefined;
  return (f.decoded as DecodedReply).body as WatcherEvent;
}

/** The ConnectRequest a connection's first client frame carries. */
export function connectRequestOf(f: DescribedFrame): ConnectRequest | undefined {
  return f.kind === 'connect-request' && f.error === undefined ? (f.decoded as ConnectRequest | undefined) : undefined;
}

/** The ConnectResponse a connection's first server frame carries. */
export function connectResponseOf(f: DescribedFrame): ConnectResponse | undefined {
  return f.kind === 'connect-response' && f.error === undefined ? (f.decoded as ConnectResponse | undefined) : undefined;
}
