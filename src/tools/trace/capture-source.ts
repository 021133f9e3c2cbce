/**
 * The decoding proxy as a capture source: its records (trace/records.ts, the public `onRecord` shape) as
 * CaptureEvents, the stream every sink reads. The proxy feeds its summary through this (trace/proxy.ts), and
 * `zkwire trace --analyze` the same Analyzer a capture file gets. Times come from `nowUs` (called as each record is
 * emitted, which is synchronous with the socket event) so latencies keep the monotonic clock's precision.
 */

import type { TraceRecord } from './records.js';
import type { CaptureConnection, CaptureEvent } from '../capture/events.js';

export class TraceEventAdapter {
  readonly #nowUs: () => number;
  readonly #conns = new Map<number, CaptureConnection>();

  constructor(nowUs: () => number) {
    this.#nowUs = nowUs;}

  /** The events of one record (none for a record of an unknown connection). */
  events(rec: TraceRecord): CaptureEvent[] {
    const timeUs = this.#nowUs();
    if (rec.type === 'open') {
      const conn: CaptureConnection = { id: String(rec.conn), client: rec.client, server: rec.upstream };
      this.#conns.set(rec.conn, conn);
      return [{ type: 'open', conn, timeUs, midStream: false }];
    }
    const conn = this.#conns.get(rec.conn);
    if (conn === undefined) return [];
    switch (rec.type) {
      case 'frame':
        return [{ type: 'frame', conn, timeUs, dir: rec.dir, frame: rec.frame, size: rec.bytes.length, bytes: rec.bytes, sessionId: rec.sessionId, latencyMs: rec.latencyMs }];
      case 'raw':
        // The bytes crossed the proxy; only their decoding is lost. The first stretch of a broken stream says why.
        return [
          {
            type: 'gap',
            conn,
            timeUs,
            dir: rec.dir,
            missingBytes: undefined,
            reason: rec.error ?? `${rec.kind} bytes`,
            undecoded: { bytes: rec.bytes, kind: rec.kind },
            continues: rec.error === undefined,
          },
        ];
      case 'close':
        this.#conns.delete(rec.conn);
        // The proxy cutting connections as it stops is the end of the capture, not something a peer did.
        return [{ type: 'close', conn, timeUs, reason: rec.error !== undefined ? 'rst' : rec.by === 'proxy' ? 'capture-end' : 'fin' }];
    }
  }
}

/** Wall-clock µs with sub-millisecond precision, for `TraceEventAdapter` on Node. */
export function preciseNowUs(origin: number, now: () => number): () => number {
  return () => Math.round((origin + now()) * 1000);
}
