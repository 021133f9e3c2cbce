/**
 * TEMPORARY adapter: our JSON-lines captures (`zkwire trace --out`, the golden files: {seq, t, ts, conn, dir, hex})
 * as capture events, so `zkwire analyze` reads them before the pcap/pcapng capture reader lands. That reader
 * (src/tools/capture) reads JSON-lines captures too and replaces this file.
 */

import { ConversationDecoder, hexDecode } from '../../protocol/index.js';
import type { CaptureConnection, CaptureEvent } from '../capture/events.js';

/** A line that is not a capture line (the whole capture is refused: analysing half of it would mislead). */
export class CaptureLineError extends Error {
  readonly code = 'BADCAPTURE';
  constructor(
    readonly line: number,
    reason: string,
  ) {
    super(`line ${line}: ${reason}`);
    this.name = 'CaptureLineError';
  }
}

function timeUsOf(o: Record<string, unknown>): number {
  if (typeof o['ts'] === 'string') {
    const ms = Date.parse(o['ts']);
    if (Number.isFinite(ms)) return ms * 1000;
  }
  if (typeof o['t'] === 'number' && Number.isFinite(o['t'])) return Math.round(o['t'] * 1e6);
  return 0;
}

/** Capture events from JSON lines, in input order; every connection is closed (`capture-end`) at the end. */
export async function* jsonlCaptureEvents(lines: AsyncIterable<string> | Iterable<string>): AsyncGenerator<CaptureEvent> {
  const conns = new Map<string, { conn: CaptureConnection; decoder: ConversationDecoder }>();
  let n = 0;
  let lastUs = 0;
  for await (const text of lines) {
    n++;
    if (text.trim() === '') continue;
    let o: Record<string, unknown>;
    try {
      const v: unknown = JSON.parse(text);
      if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new Error('not a JSON object');
      o = v as Record<string, unknown>;
    } catch (e) {
      throw new CaptureLineError(n, `not a JSON capture line (${e instanceof Error ? e.message : String(e)})`);
    }
    const dir = o['dir'];
    if (dir !== 'c2s' && dir !== 's2c') throw new CaptureLineError(n, `"dir" must be "c2s" or "s2c"`);
    const bytes = typeof o['hex'] === 'string' ? hexDecode(o['hex']) : null;
    if (bytes === null) throw new CaptureLineError(n, '"hex" is missing or not hex');
    const id = typeof o['conn'] === 'string' || typeof o['conn'] === 'number' ? String(o['conn']) : '1';
    const timeUs = timeUsOf(o);
    lastUs = Math.max(lastUs, timeUs);
    let c = conns.get(id);
    if (c === undefined) {
      c = { conn: { id, client: `conn ${id}`, server: 'server' }, decoder: new ConversationDecoder() };
      conns.set(id, c);
      yield { type: 'open', conn: c.conn, timeUs, midStream: false };
    }
    if (typeof o['kind'] === 'string') {
      // Stretches the proxy could not frame: a hole in what we can decode.
      yield { type: 'gap', conn: c.conn, timeUs, dir, missingBytes: undefined, reason: `${o['kind']} bytes (${bytes.length} B)` };
      continue;
    }
    yield { type: 'frame', conn: c.conn, timeUs, dir, frame: c.decoder.decode(dir, bytes), size: bytes.length };
  }
  for (const c of conns.values()) yield { type: 'close', conn: c.conn, timeUs: lastUs, reason: 'capture-end' };
}
