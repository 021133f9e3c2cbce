/**
 * The receive path: cutting a connection's bytes into frames and routing each frame.
 *
 * The first frame of a connection is the ConnectResponse. After it, reserved xids are routed first —
 * notifications (-1), ping answers (-2), auth answers (-4) — and every other reply must match the head
 * of the connection's FIFO (save ZooKeeper 3.4's UNIMPLEMENTED, which may overtake it: see routeFrame):
 * anything else means the stream is broken and the connection is dropped.
 * Frames of one chunk are handled synchronously one after another, so a notification reaches its
 * watchers before the reply that follows it on the wire, and a watch a reply registers exists before
 * the next frame is read.
 */

import { clientError, type ZooKeeperError } from '../errors.js';
import {
  decodeConnectResponse,
  decodeReplyHeader,
  decodeWatcherEvent,
  ErrorCode,
  errorName,
  JuteReader,
  knownEventType,
  Xid,
  type ConnectResponse,
  type FrameError,
} from '../protocol/index.js';
import type { Connection } from './connection.js';
import type { WatchEvent } from './watches.js';
import { readReply } from './wire-codecs.js';

/** xid, zxid, err. */
const REPLY_HEADER_BYTES = 16;

/** Where routed frames go: the session's handlers. */
export interface FrameRoutes {
  connectResponse(conn: Connection, response: ConnectResponse): void;
  notification(event: WatchEvent): void;
  authReply(conn: Connection, err: number): void;
  /** A reply matched the FIFO head: the zxid it carries (the request itself is completed here). */
  replied(zxid: bigint): void;
  drop(conn: Connection, reason: ZooKeeperError): void;
}

/**
 * Feeds a chunk to the connection's frame decoder and hands each whole frame to `onFrame`. A framing
 * error or a frame that fails to decode drops the connection; nothing after it is read.
 */
export function receiveChunk(
  conn: Connection,
  chunk: Uint8Array,
  onFrame: (conn: Connection, payload: Uint8Array) => void,
  drop: (conn: Connection, reason: ZooKeeperError) => void,
): void {
  if (conn.isOver) return;
  conn.frames.push(chunk);
  for (;;) {
    const next = conn.frames.next();
    if (next.kind === 'need-more') return;
    if (next.kind === 'error') {
      drop(conn, framingError(conn, next.error));
      return;
    }
    try {
      onFrame(conn, next.payload);
    } catch (e) {
      drop(conn, clientError('PROTOCOL_ERROR', `undecodable frame from ${conn.description}`, { cause: e }));
      return;
    }
    if (conn.isOver) return;
  }
}

/** "HTTP" read as a big-endian frame length: what a web server's answer to our ConnectRequest starts with. */
const HTTP_AS_LENGTH = 0x48545450;

/**
 * A stream that cannot be framed. Before the handshake it is not a ZooKeeper server at all (a ZooKeeper server's
 * first frame is a ConnectResponse of a few dozen bytes): PROTOCOL_ERROR naming it, which the connect loop takes as
 * hopeless, instead of FRAME_TOO_LARGE with a length that is really text (ZooKeeper's admin port answers HTTP).
 */
function framingError(conn: Connection, error: FrameError): ZooKeeperError {
  if (!conn.handshakeDone) {
    const what = error.length === HTTP_AS_LENGTH ? 'what looks like HTTP' : `a frame length of ${error.length}`;
    return clientError('PROTOCOL_ERROR', `the server at ${conn.description} answered with ${what}, not ZooKeeper`);
  }
  return clientError(error.code === 'FRAME_TOO_LARGE' ? 'FRAME_TOO_LARGE' : 'PROTOCOL_ERROR', `from ${conn.description}: ${error.message}`);
}

/**
 * What a ping answer proves lost, if anything: the ping was written after `mark` frames, so every frame
 * up to that mark must have been answered before it. Pings go through the server's pipeline in order
 * with requests; auth packets are answered on arrival, ahead of anything read after them. Either way an
 * older frame still unanswered when the ping's answer comes has lost its reply, and without this check
 * its caller would wait for ever on a link that pings keep alive.
 */
function lostBeforePing(conn: Connection, mark: number | undefined): string | undefined {
  if (mark === undefined) return undefined;
  const oldest = conn.pending.peek();
  if (oldest?.seq !== undefined && oldest.seq <= mark) return `xid ${oldest.xid}`;
  const auth = conn.authInFlight[0];
  if (auth !== undefined && auth.seq <= mark) return `the auth packet for scheme ${auth.record.scheme}`;
  return undefined;
}

/** Routes one frame's payload (may throw on an undecodable header: receiveChunk drops the link then). */
export function routeFrame(conn: Connection, payload: Uint8Array, routes: FrameRoutes): void {
  const r = new JuteReader(payload);
  if (!conn.handshakeDone) {
    // A ConnectResponse is at least 36 bytes; a 16-byte frame is a reply header: the server refusing the session
    // (a 3.8 read-only server answers NOTREADONLY so when it may not create sessions: no localSessionsEnabled).
    if (payload.length === REPLY_HEADER_BYTES) {
      const { err } = decodeReplyHeader(r);
      const name = errorName(err) ?? `error ${err}`;
      const hint = err === ErrorCode.NOTREADONLY ? ' (a read-only server creates sessions only with localSessionsEnabled=true)' : '';
      routes.drop(conn, clientError('CONNECTIONLOSS', `${conn.description} refused the session: ${name}${hint}`));
      return;
    }
    routes.connectResponse(conn, decodeConnectResponse(r));
    return;
  }
  const header = decodeReplyHeader(r);
  switch (header.xid) {
    case Xid.notification: {
      const event = decodeWatcherEvent(r);
      const type = knownEventType(event.type);
      if (type === undefined || event.path === null) return;
      const fired: { -readonly [K in keyof WatchEvent]: WatchEvent[K] } = { type, state: 'SyncConnected', path: event.path };
      // 3.9 puts the zxid of the transaction that fired the watch in the header (ZOOKEEPER-4655); older servers -1.
      // Set, not spread in: a spread copy costs V8 more than the rest of the event (every lock hand-off has one).
      if (header.zxid > 0n) fired.zxid = header.zxid;
      routes.notification(fired);
      return;
    }
    case Xid.ping: {
      const lost = lostBeforePing(conn, conn.pingMarks.shift());
      if (lost !== undefined) routes.drop(conn, clientError('PROTOCOL_ERROR', `ping answered before the reply to ${lost}: that reply was lost`));
      return;
    }
    case Xid.auth:
      if (conn.authInFlight.length === 0) {
        routes.drop(conn, clientError('PROTOCOL_ERROR', 'auth reply without an auth request'));
        return;
      }
      routes.authReply(conn, header.err);
      return;
  }
  const head = conn.pending.peek();
  // Two refusals skip the server's pipeline and may overtake the replies to earlier requests still in it: ZooKeeper
  // 3.4 answers an op it does not know (create2, checkWatches, addWatch…) UNIMPLEMENTED in submitRequest, and a
  // read-only server answers every write NOTREADONLY from ReadOnlyRequestProcessor, ahead of FinalRequestProcessor.
  // Each carries its own xid; the requests it overtook keep their order.
  const overtaking = (header.err === ErrorCode.UNIMPLEMENTED || header.err === ErrorCode.NOTREADONLY) && head !== undefined && head.xid !== header.xid;
  const request = overtaking ? conn.pending.take(header.xid) : head?.xid === header.xid ? conn.pending.shift() : undefined;
  if (request === undefined) {
    const expected = head === undefined ? 'no request outstanding' : `expected xid ${head.xid}`;
    routes.drop(conn, clientError('PROTOCOL_ERROR', `reply with xid ${header.xid} from ${conn.description}, ${expected}`));
    return;
  }
  routes.replied(header.zxid);
  request.got = payload.length + 4;
  let body: unknown;
  if (header.err === 0) {
    try {
      body = readReply(request.opcode, r);
    } catch (e) {
      const err = clientError('PROTOCOL_ERROR', `undecodable reply to xid ${request.xid}`, { cause: e });
      request.fail(err);
      routes.drop(conn, err);
      return;
    }
  }
  request.complete({ err: header.err, zxid: header.zxid, body });
}
