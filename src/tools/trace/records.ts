/**
 * What the tracing proxy reports, in the order things happened: one record per frame (decoded or not), per stretch
 * of bytes that cannot be framed, and per connection opening and closing. The live printer (format.ts), the capture
 * writer (capture.ts) and the summary (stats.ts) all consume this one stream.
 */

import type { DescribedFrame, Direction } from '../../protocol/index.js';

export type { Direction } from '../../protocol/index.js';

interface RecordBase {
  /** 1-based connection number, in accept order. */
  conn: number;
  /** Wall-clock time, ms since the epoch. */
  time: number;
}

/** A whole frame (or a four-letter word's raw text), exactly as it crossed the proxy. */
export interface FrameRecord extends RecordBase {
  type: 'frame';
  /** 0-based position among all frame and raw records of this proxy (the capture's `seq`). */
  seq: number;
  dir: Direction;
  /** The frame's bytes including its length prefix (raw text for four-letter words). */
  bytes: Uint8Array;
  /** The length prefix, or null for four-letter-word text. */
  len: number | null;
  /** The describer's view; `frame.error` is set when it could not be decoded (the bytes were forwarded anyway). */
  frame: DescribedFrame;
  /** The connection's session, once its ConnectResponse was seen. */
  sessionId: bigint | undefined;
  /** Replies (and the ConnectResponse): ms since the matching request crossed the proxy. */
  latencyMs: number | undefined;
}

/** Bytes that are not a frame: everything after a broken length prefix, or an incomplete frame at close. */
export interface RawRecord extends RecordBase {
  type: 'raw';
  seq: number;
  dir: Direction;
  bytes: Uint8Array;
  /** Capture kind: 'unframed' after a broken length prefix, 'incomplete-frame' for a partial frame at close. */
  kind: 'unframed' | 'incomplete-frame';
  /** Why (set on the first record of a broken stream and on incomplete frames). */
  error: string | undefined;
  sessionId: bigint | undefined;
}

/** A client connected to the proxy. */
export interface OpenRecord extends RecordBase {
  type: 'open';
  /** The client's address, "host:port". */
  client: string;
  upstream: string;
}

/** A proxied connection ended. */
export interface CloseRecord extends RecordBase {
  type: 'close';
  /** Which side ended the connection first. */
  by: 'client' | 'server' | 'proxy';
  /** A socket error (e.g. ECONNRESET, ECONNREFUSED for the upstream), if there was one. */
  error: string | undefined;
  sessionId: bigint | undefined;
  bytes: { c2s: number; s2c: number };
}

/** Anything the tracing proxy reports. */
export type TraceRecord = FrameRecord | RawRecord | OpenRecord | CloseRecord;
