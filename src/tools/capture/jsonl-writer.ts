/**
 * The JSON-lines capture writer (`zkwire trace --out FILE.jsonl`), a sink over CaptureEvents: every frame and every
 * stretch of undecodable bytes exactly as it crossed, one line each, in the format jsonl-source.ts reads —
 * {seq, t, ts, conn, dir, len, hex}, the fields of the golden captures — so a capture replays through
 * `zkwire decode FILE` later. Stretches that are not frames carry `kind` ("unframed" after a broken length prefix,
 * "incomplete-frame" at close, as in the golden files); decode reports those as errors, correctly.
 */

import { hexEncode } from '../../protocol/index.js';
import type { CaptureEvent } from './events.js';

export class JsonLinesWriter {
  #firstUs: number | undefined;
  #seq = 0;
  /** Connections numbered 1, 2, … in the order they appear (the proxy's accept order). */
  readonly #nums = new Map<string, number>();

  /** The capture line for an event, or undefined for events that carry no bytes (open, close, holes). */
  line(e: CaptureEvent): string | undefined {
    if (e.type === 'open') this.#num(e.conn.id, e.conn.lineConn);
    if (e.type !== 'frame' && (e.type !== 'gap' || e.undecoded === undefined)) return undefined;
    this.#firstUs ??= e.timeUs;
    const bytes = e.type === 'frame' ? e.bytes : e.undecoded!.bytes;
    // A four-letter word is text with no length prefix.
    const text = e.type === 'frame' && (e.frame.kind === '4lw-command' || e.frame.kind === '4lw-response');
    const out: Record<string, unknown> = {
      seq: this.#seq++,
      // Seconds since the first captured frame, ms precision: the golden files' `t`.
      t: Math.round((e.timeUs - this.#firstUs) / 1000) / 1000,
      ts: new Date(e.timeUs / 1000).toISOString(),
      conn: this.#num(e.conn.id, e.conn.lineConn),
      dir: e.dir,
      len: e.type === 'frame' && !text && bytes.length >= 4 ? new DataView(bytes.buffer, bytes.byteOffset, 4).getInt32(0) : null,
      hex: hexEncode(bytes),
    };
    if (e.type === 'gap') out['kind'] = e.undecoded!.kind;
    return JSON.stringify(out);
  }

  #num(id: string, lineConn: string | number | undefined): string | number {
    if (lineConn !== undefined) return lineConn;
    let n = this.#nums.get(id);
    if (n === undefined) {
      n = this.#nums.size + 1;
      this.#nums.set(id, n);
    }
    return n;
  }
}
