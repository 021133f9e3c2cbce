/**
 * ConversationDecoder: decodes the frames of one TCP connection, in wire order, into DescribedFrames.
 *
 * Per connection it tracks what the protocol leaves implicit: the first client frame is a ConnectRequest and the
 * first server frame a ConnectResponse (no headers), a reply's body depends on the opcode of the request with the
 * same xid (ping -2, auth -4 and set-watches -8 included), and a connection whose first four bytes spell a
 * four-letter word is plain text from then on. `decode` never throws: what it cannot decode comes back with
 * `error` set and a message saying why.
 *
 * A packet capture may begin after the handshake, or lose bytes in the middle: `{ midStream: true }` (or
 * `resumeAfterGap()` once bytes were lost) makes the decoder take every frame as a request or reply, and report a
 * reply whose request it never saw with its header and `unmatched: true` instead of an error.
 */

import { bodyPath, errName, eventTypeName, hexId, shortData, summarizeRequestBody, summarizeResponseBody } from './describe.js';
import { detectFourLetterWord } from './four-letter.js';
import { JuteDecodeError, JuteReader } from './jute.js';
import { OpCode, opName, Xid } from './opcodes.js';
import { decodeRequestBody, decodeResponseBody } from './ops.js';
import { decodeConnectRequest, decodeConnectResponse, type ConnectRequest, type ConnectResponse } from './records/connect.js';
import { decodeReplyHeader, decodeRequestHeader, type ReplyHeader, type RequestHeader } from './records/headers.js';
import { multiOpRecordName, multiResultRecordName, type MultiRequest, type MultiResponse } from './records/multi.js';
import { decodeWatcherEvent, type WatcherEvent } from './records/watcher-event.js';
import { utf8Decode } from './utf8.js';

/** Which way a frame travelled: client to server or server to client. */
export type Direction = 'c2s' | 's2c';

/** What a frame is, as the decoder classified it. */
export type FrameKind =
  | 'connect-request'
  | 'connect-response'
  | 'request'
  | 'reply'
  | 'notification'
  | '4lw-command'
  | '4lw-response';

/** A request frame: its header and decoded body. */
export interface DecodedRequest {
  header: RequestHeader;
  body?: unknown;
}

/** A reply frame: its header and decoded body (the body of the request it answers, matched by xid). */
export interface DecodedReply {
  header: ReplyHeader;
  body?: unknown;
}

/** A four-letter word or its text answer (no framing). */
export interface FourLetterText {
  text: string;
}

/** multi bodies as the golden files show them: each op/result also names its op and record. */
export interface DescribedMultiRequest extends MultiRequest {
  ops: (MultiRequest['ops'][number] & { op: string; record: string | null })[];
}

/** A multi reply with each result's record named. */
export interface DescribedMultiResponse extends MultiResponse {
  results: (MultiResponse['results'][number] & { op: string; record: string | null })[];
}

/** Any decoded frame of a conversation. */
export type DecodedFrame = ConnectRequest | ConnectResponse | DecodedRequest | DecodedReply | FourLetterText;

/** One frame as the ConversationDecoder sees it: kind, decoded value (or the error), op name and a one-line summary. */
export interface DescribedFrame {
  kind: FrameKind;
  xid?: number;
  opcode?: number;
  op?: string;
  /** Reply and notification headers. */
  zxid?: bigint;
  err?: number;
  /** The node path the frame is about (a reply shows its request's path). */
  path?: string;
  /** The decoded records (bigint, Uint8Array); `toJsonValue(decoded)` gives the golden `decoded` JSON. */
  decoded?: DecodedFrame;
  /** Bytes left after the last record (decoded anyway; kept so re-encoding reproduces the frame). */
  trailing?: Uint8Array;
  /** Set when the frame could not be decoded; `decoded` is then absent. */
  error?: string;
  /**
   * A reply whose request is not in the capture (it was sent before the capture began or lost in a gap): only its
   * header is decoded, and `op` is undefined. Only a decoder started mid-stream or resumed after a gap says this;
   * otherwise such a reply is an error.
   */
  unmatched?: true;
  /** One human-readable line. */
  summary: string;
}

interface Pending {
  opcode: number;
  path: string | undefined;
}

/** Replies to these xids are routed by xid, not by a request (the server answers every ping with -2). */
const RESERVED_REPLY_OPS = new Map<number, number>([
  [Xid.ping, OpCode.ping],
  [Xid.auth, OpCode.auth],
  [Xid.setWatches, OpCode.setWatches],
]);

/** How a ConversationDecoder starts. */
export interface ConversationOptions {
  /**
   * The connection's beginning is not in the input (a capture started after the handshake): no frame is taken for
   * a ConnectRequest/ConnectResponse, and replies to requests never seen are reported as `unmatched`.
   */
  midStream?: boolean;
}

/**
 * Decodes both directions of one TCP connection frame by frame, remembering what it needs (the handshake, the opcode of
 * each pending xid) to decode replies.
 */
export class ConversationDecoder {
  #mode: 'start' | 'zk' | '4lw' = 'start';
  #connectSent = false;
  #connectReceived = false;
  /** Replies to requests the decoder never saw are expected, not errors (mid-stream start, or after a gap). */
  #lenient = false;
  readonly #pending = new Map<number, Pending>();

  constructor(opts: ConversationOptions = {}) {
    if (opts.midStream === true) this.resumeAfterGap();
  }

  /**
   * Bytes of this connection were lost: from now on every frame is a request or reply (the handshake, if it was in
   * the gap, is over), and a reply whose request was lost is reported as `unmatched`, not as an error.
   */
  resumeAfterGap(): void {
    if (this.#mode === 'start') this.#mode = 'zk';
    this.#connectSent = true;
    this.#connectReceived = true;
    this.#lenient = true;
  }

  /** True when a request with this xid was seen and not answered yet (used to resynchronise after a gap). */
  awaitsReply(xid: number): boolean {
    return this.#pending.has(xid);
  }

  /**
   * Decodes the next whole frame (length prefix included) seen in direction `dir`; never throws, a bad frame is
   * described with its error.
   */
  decode(dir: Direction, frame: Uint8Array): DescribedFrame {
    try {
      return this.#decodeUnsafe(dir, frame);
    } catch (e) {
      // Records throw JuteDecodeError; anything else is a bug, but the contract is that decode never throws.
      return { kind: dir === 'c2s' ? 'request' : 'reply', error: e instanceof Error ? e.message : String(e), summary: 'undecodable frame' };
    }
  }

  #decodeUnsafe(dir: Direction, frame: Uint8Array): DescribedFrame {
    if (this.#mode === 'start' && dir === 'c2s' && detectFourLetterWord(frame) !== undefined) this.#mode = '4lw';
    if (this.#mode === '4lw') return describeFourLetterFrame(dir, frame);
    this.#mode = 'zk';

    const firstKind: FrameKind | undefined =
      dir === 'c2s' ? (this.#connectSent ? undefined : 'connect-request') : this.#connectReceived ? undefined : 'connect-response';
    const kindGuess: FrameKind = firstKind ?? (dir === 'c2s' ? 'request' : 'reply');
    if (dir === 'c2s') this.#connectSent = true;
    else this.#connectReceived = true;

    const framing = checkFraming(frame);
    if (framing !== undefined) return { kind: kindGuess, error: framing, summary: framing };
    // Offsets in error messages count from the payload start, as ZooKeeper (and the golden files) do.
    const r = new JuteReader(frame.subarray(4));

    if (firstKind === 'connect-request') return describeConnect(firstKind, r, decodeConnectRequest);
    if (firstKind === 'connect-response') return describeConnect(firstKind, r, decodeConnectResponse);
    return dir === 'c2s' ? this.#describeRequest(r) : this.#describeReply(r);
  }

  #describeRequest(r: JuteReader): DescribedFrame {
    let header: RequestHeader;
    try {
      header = decodeRequestHeader(r);
    } catch (e) {
      return failed('request', 'RequestHeader', e);
    }
    const op = opName(header.type);
    const base = { kind: 'request' as const, xid: header.xid, opcode: header.type, op };
    let body: unknown;
    try {
      body = decodeRequestBody(header.type, r);
    } catch (e) {
      // Remember the xid anyway: the reply still belongs to this request.
      this.#pending.set(header.xid, { opcode: header.type, path: undefined });
      return { ...base, ...failed('request', `${op} request body`, e) };
    }
    const path = bodyPath(body);
    this.#pending.set(header.xid, { opcode: header.type, path });
    if (header.type === OpCode.multi || header.type === OpCode.multiRead) body = describeMultiRequest(body as MultiRequest);
    const decoded: DecodedRequest = body === undefined ? { header } : { header, body };
    const out: DescribedFrame = { ...base, decoded, summary: `${op} ${summarizeRequestBody(op, body)}`.trim() };
    if (path !== undefined) out.path = path;
    return withTrailing(out, r);
  }

  #describeReply(r: JuteReader): DescribedFrame {
    let header: ReplyHeader;
    try {
      header = decodeReplyHeader(r);
    } catch (e) {
      return failed('reply', 'ReplyHeader', e);
    }
    if (header.xid === Xid.notification) return describeNotification(header, r);

    const pending = this.#pending.get(header.xid);
    if (pending !== undefined) this.#pending.delete(header.xid);
    const opcode = pending?.opcode ?? RESERVED_REPLY_OPS.get(header.xid);
    if (opcode === undefined && this.#lenient) {
      return {
        kind: 'reply',
        xid: header.xid,
        zxid: header.zxid,
        err: header.err,
        decoded: { header },
        unmatched: true,
        summary: `reply to a request not in the capture: ${errName(header.err)} zxid=${hexId(header.zxid)}`,
      };
    }
    if (opcode === undefined) {
      const error = `reply with xid ${header.xid} matches no outstanding request on this connection`;
      return { kind: 'reply', xid: header.xid, zxid: header.zxid, err: header.err, error, summary: error };
    }
    const op = opName(opcode);
    const base: DescribedFrame = { kind: 'reply', xid: header.xid, opcode, op, zxid: header.zxid, err: header.err, summary: '' };
    if (pending?.path !== undefined) base.path = pending.path;
    let body: unknown;
    if (header.err === 0) {
      try {
        body = decodeResponseBody(opcode, r);
      } catch (e) {
        const f = failed('reply', `${op} reply body`, e);
        return { ...base, error: f.error, summary: f.summary };
      }
      if (opcode === OpCode.multi || opcode === OpCode.multiRead) body = describeMultiResponse(body as MultiResponse);
    }
    base.decoded = body === undefined ? { header } : { header, body };
    const what = [op, pending?.path, errName(header.err), summarizeResponseBody(body)].filter((s) => s !== undefined && s !== '');
    base.summary = `${what.join(' ')} zxid=${hexId(header.zxid)}`;
    return withTrailing(base, r);
  }
}

/** Checks the length prefix against the bytes actually present; returns an error message or undefined. */
function checkFraming(frame: Uint8Array): string | undefined {
  if (frame.length < 4) return `frame of ${frame.length} byte(s) is shorter than its 4-byte length prefix`;
  const length = ((frame[0]! << 24) | (frame[1]! << 16) | (frame[2]! << 8) | frame[3]!) | 0;
  if (length < 0) return `negative frame length ${length}`;
  const have = frame.length - 4;
  if (have < length) return `truncated frame: the length prefix says ${length} payload byte(s), only ${have} present`;
  if (have > length) return `lying length prefix: it says ${length} payload byte(s) but the frame holds ${have}`;
  return undefined;
}

function failed(kind: FrameKind, what: string, e: unknown): DescribedFrame & { error: string } {
  const msg = e instanceof JuteDecodeError ? e.message : e instanceof Error ? e.message : String(e);
  const error = `cannot decode ${what}: ${msg}`;
  return { kind, error, summary: error };
}

function withTrailing(out: DescribedFrame, r: JuteReader): DescribedFrame {
  if (r.remaining > 0) {
    out.trailing = r.readRest();
    out.summary += ` (+${out.trailing.length} trailing byte(s))`;
  }
  return out;
}

function describeConnect<T extends ConnectRequest | ConnectResponse>(
  kind: 'connect-request' | 'connect-response',
  r: JuteReader,
  decode: (r: JuteReader) => T,
): DescribedFrame {
  const name = kind === 'connect-request' ? 'ConnectRequest' : 'ConnectResponse';
  let rec: T;
  try {
    rec = decode(r);
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    const error = `not a valid ${name} (the first ${kind === 'connect-request' ? 'client' : 'server'} frame of a connection must be one): ${msg}`;
    return { kind, error, summary: error };
  }
  if (r.remaining > 0) {
    const error = `not a valid ${name}: ${r.remaining} byte(s) after the readOnly flag`;
    return { kind, error, summary: error };
  }
  const ro = rec.readOnly === undefined ? ' (no readOnly byte)' : ` readOnly=${rec.readOnly}`;
  const summary =
    kind === 'connect-request'
      ? `connect sessionId=${hexId(rec.sessionId)} timeOut=${rec.timeOut} lastZxidSeen=${hexId((rec as ConnectRequest).lastZxidSeen)}${ro}`
      : rec.timeOut <= 0
        ? `session rejected or expired (timeOut=${rec.timeOut} sessionId=${hexId(rec.sessionId)})${ro}`
        : `connected sessionId=${hexId(rec.sessionId)} timeOut=${rec.timeOut} passwd=${shortData(rec.passwd)}${ro}`;
  return { kind, decoded: rec, summary };
}

function describeNotification(header: ReplyHeader, r: JuteReader): DescribedFrame {
  let event: WatcherEvent;
  try {
    event = decodeWatcherEvent(r);
  } catch (e) {
    const f = failed('notification', 'WatcherEvent', e);
    return { ...f, xid: header.xid, zxid: header.zxid, err: header.err };
  }
  const out: DescribedFrame = {
    kind: 'notification',
    xid: header.xid,
    zxid: header.zxid,
    err: header.err,
    decoded: { header, body: event },
    summary: `${eventTypeName(event.type)} ${event.path ?? 'null'}`,
  };
  if (event.path !== null) out.path = event.path;
  return withTrailing(out, r);
}

function describeMultiRequest(m: MultiRequest): DescribedMultiRequest {
  return {
    ops: m.ops.map((o) => ({ header: o.header, op: opName(o.header.type), record: multiOpRecordName(o.header.type) ?? null, body: o.body })),
    end: m.end,
  };
}

function describeMultiResponse(m: MultiResponse): DescribedMultiResponse {
  return {
    results: m.results.map((res) => ({
      header: res.header,
      op: opName(res.header.type),
      record: multiResultRecordName(res.header.type) ?? null,
      body: res.body,
    })),
    end: m.end,
  };
}

const SUMMARY_CHARS = 60;

/** A four-letter-word connection's raw text chunk: the command, or the first line of its answer. */
function describeFourLetterFrame(dir: Direction, bytes: Uint8Array): DescribedFrame {
  const text = utf8Decode(bytes);
  const firstLine = text.split('\n', 1)[0] ?? '';
  const short = firstLine.length > SUMMARY_CHARS ? `${firstLine.slice(0, SUMMARY_CHARS)}…` : firstLine;
  const lines = text.split('\n').filter((l) => l !== '').length;
  return dir === 'c2s'
    ? { kind: '4lw-command', decoded: { text }, summary: `4lw command ${JSON.stringify(text)}` }
    : { kind: '4lw-response', decoded: { text }, summary: `4lw answer ${JSON.stringify(short)}${lines > 1 ? ` (+${lines - 1} line(s))` : ''}` };
}
