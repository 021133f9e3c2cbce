/**
 * The one event stream of the capture tools. Every source yields it, whatever the capture was: a pcap/pcapng file or
 * pipe (connections.ts), our own JSON-lines captures (jsonl-source.ts) or the decoding proxy's live traffic
 * (trace/connection.ts), or a client's own `onFrame` trace (onframe-source.ts): one event per complete ZooKeeper frame, plus the connection's life and the holes in what was
 * captured. Every sink reads it: `zkwire decode`'s JSON lines and --pretty lines (decode/printer.ts), --check
 * (decode/recheck.ts), `zkwire analyze` (analyze/analyzer.ts), the proxy's summary (trace/summary.ts) and the
 * JSON-lines capture writer of `zkwire trace --out` (jsonl-writer.ts). A new
 * capture format is a new source; a new report is a new sink; nothing is decoded twice.
 */

import type { DescribedFrame, Direction } from '../../protocol/index.js';

/** One TCP connection between a ZooKeeper client and server, as seen in the capture. */
export interface CaptureConnection {
  /**
   * Unique within one capture: `"client>server"` for pcap sources (with `#2`, `#3`… appended when the same
   * address pair is reused by a later connection), the `conn` value for JSON-lines captures.
   */
  readonly id: string;
  /** `"ip:port"`, an IPv6 address in brackets; for JSON-lines captures without addresses, `"conn <id>"`. */
  readonly client: string;
  /** `"ip:port"` of the ZooKeeper server end. */
  readonly server: string;
  /** JSON-lines captures: the line's `conn` as written (a number stays a number; 1 when the line has none). */
  readonly lineConn?: string | number;
}

/** Where a frame of a JSON-lines capture came from: the line's own `seq` and time, as written. */
export interface LineOrigin {
  /** The line's `seq`, or its 0-based position among the capture's non-blank lines. */
  readonly seq: string | number;
  /** The line's time as people read it: `t` (seconds, 3 decimals) or else `ts`; undefined when it has neither. */
  readonly time: string | undefined;
}

interface EventBase {
  readonly conn: CaptureConnection;
  /** Capture timestamp in microseconds since the Unix epoch (JSON-lines captures: from `ts`, else `t`, else 0). */
  readonly timeUs: number;
}

/** A connection seen for the first time. `midStream` when its handshake is not in the capture. */
export interface ConnectionOpenEvent extends EventBase {
  readonly type: 'open';
  readonly midStream: boolean;
}

/** One complete, decoded ZooKeeper frame. */
export interface FrameEvent extends EventBase {
  readonly type: 'frame';
  readonly dir: Direction;
  /**
   * The decoded frame. Replies carry the op and path of their request (matched by xid on the same connection);
   * a reply whose request is not in the capture has `op` undefined and is still reported with its header.
   */
  readonly frame: DescribedFrame;
  /** Whole frame size on the wire, length prefix included. */
  readonly size: number;
  /**
   * The frame's bytes, length prefix included (what --check re-encodes against). A view into the source's buffers:
   * never overwritten, but do not keep it past handling the event.
   */
  readonly bytes: Uint8Array;
  /** The connection's session once its ConnectResponse was seen (undefined before, or if it is not in the capture). */
  readonly sessionId: bigint | undefined;
  /**
   * Replies and the ConnectResponse: ms since the request it answers was captured (request-times.ts), undefined when
   * that request is not in the capture.
   */
  readonly latencyMs: number | undefined;
  /** JSON-lines captures: the line the frame was read from. */
  readonly line?: LineOrigin;
}

/** Bytes missing from one direction of a connection (not captured, cut by snaplen, lost) or skipped as unframeable. */
export interface GapEvent extends EventBase {
  readonly type: 'gap';
  readonly dir: Direction;
  /** Number of bytes missing, when known. */
  readonly missingBytes: number | undefined;
  /** Human-readable cause, e.g. "segment missing", "cut by snaplen", "file truncated". */
  readonly reason: string;
  /**
   * Bytes that were seen but could not be framed (the proxy passes them through undecoded): everything after a
   * broken length prefix (`unframed`), or a partial frame at close (`incomplete-frame`). None for a hole.
   */
  readonly undecoded?: { readonly bytes: Uint8Array; readonly kind: 'unframed' | 'incomplete-frame' };
  /** More of a stretch already reported (the rest of a broken stream), not a new break. */
  readonly continues?: boolean;
}

/** A connection ended: FIN/RST seen, or the capture ended with it open (`reason: 'capture-end'`). */
export interface ConnectionCloseEvent extends EventBase {
  readonly type: 'close';
  readonly reason: 'fin' | 'rst' | 'capture-end';
  /** The decoding proxy knows which side ended the connection first (`proxy`: it was stopped); captures do not. */
  readonly by?: 'client' | 'server' | 'proxy';
  /** The decoding proxy: the socket error that ended it (e.g. `server: ECONNREFUSED`), if there was one. */
  readonly error?: string;
}

/**
 * A JSON-lines capture's line that is no frame (not JSON, no valid `dir` or `hex`): reported, never silently dropped.
 * It belongs to no connection (the line may not even say which).
 */
export interface BadLineEvent {
  readonly type: 'bad-line';
  /** The time of the last good line before it (0 at the start). */
  readonly timeUs: number;
  /** 1-based line number in the input. */
  readonly lineNo: number;
  readonly seq: string | number;
  /** The line's `conn`, `dir` as written when they are scalars, else null. */
  readonly conn: string | number | null;
  readonly dir: string | number | null;
  readonly error: string;
}

/** Anything a capture source yields: a connection's open and close, a frame, a hole, a line that is no frame. */
export type CaptureEvent = ConnectionOpenEvent | FrameEvent | GapEvent | ConnectionCloseEvent | BadLineEvent;
