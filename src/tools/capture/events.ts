/**
 * What a capture source yields, whatever the capture was (a pcap/pcapng file or pipe, our own JSON-lines captures, or
 * the decoding proxy's live traffic): one event per complete ZooKeeper frame, plus the connection's life and the holes
 * in what was captured. `zkwire decode` prints these; `zkwire analyze` folds them into its report.
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
}

/** Bytes missing from one direction of a connection (not captured, cut by snaplen, lost); decoding resynchronised. */
export interface GapEvent extends EventBase {
  readonly type: 'gap';
  readonly dir: Direction;
  /** Number of bytes missing, when known. */
  readonly missingBytes: number | undefined;
  /** Human-readable cause, e.g. "segment missing", "cut by snaplen", "file truncated". */
  readonly reason: string;
}

/** A connection ended: FIN/RST seen, or the capture ended with it open (`reason: 'capture-end'`). */
export interface ConnectionCloseEvent extends EventBase {
  readonly type: 'close';
  readonly reason: 'fin' | 'rst' | 'capture-end';
}

export type CaptureEvent = ConnectionOpenEvent | FrameEvent | GapEvent | ConnectionCloseEvent;
