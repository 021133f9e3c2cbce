/**
 * `--out FILE.jsonl`: every frame and raw stretch exactly as it crossed the proxy, one JSON line each, in the
 * `zkwire decode` input format — {seq, t, ts, conn, dir, len, hex}, the fields of the golden captures — so a capture
 * replays through `zkwire decode FILE` later. Stretches that are not frames carry `kind` ("unframed" after a broken
 * length prefix, "incomplete-frame" at close, as in the golden files); decode reports those as errors, correctly.
 */

import { hexEncode } from '../../protocol/index.js';
import type { TraceRecord } from './records.js';

export class CaptureFormatter {
  private firstTime: number | undefined;

  /** The capture line for a record, or undefined for records that carry no bytes (open, close). */
  line(rec: TraceRecord): string | undefined {
    if (rec.type !== 'frame' && rec.type !== 'raw') return undefined;
    this.firstTime ??= rec.time;
    const out: Record<string, unknown> = {
      seq: rec.seq,
      // Seconds since the first captured frame, ms precision: the golden files' `t`.
      t: Math.round(rec.time - this.firstTime) / 1000,
      ts: new Date(rec.time).toISOString(),
      conn: rec.conn,
      dir: rec.dir,
      len: rec.type === 'frame' ? rec.len : null,
      hex: hexEncode(rec.bytes),
    };
    if (rec.type === 'raw') out['kind'] = rec.kind;
    return JSON.stringify(out);
  }
}
