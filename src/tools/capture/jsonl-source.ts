/**
 * Our own JSON-lines captures (the golden-file format that `zkwire trace --out` writes and `zkwire decode` has always
 * read: one frame per line with `dir`, `hex`, optionally `conn`, `seq`, `t`/`ts`) as CaptureEvents, so every capture
 * kind reaches decode and analyze the same way. A line that is not a frame is reported as a note and skipped.
 */

import { ConversationDecoder, hexDecode, type Direction } from '../../protocol/index.js';
import type { CaptureConnection, CaptureEvent } from './events.js';
import { CaptureFormatError } from './capture-error.js';
import type { NoteSink } from './packet.js';

interface JsonlConnection {
  conn: CaptureConnection;
  conv: ConversationDecoder;
  lastTimeUs: number;
}

export class JsonLinesReader {
  private readonly decoder = new TextDecoder();
  private rest = '';
  private lineNo = 0;
  private readonly conns = new Map<string, JsonlConnection>();

  constructor(
    private readonly out: CaptureEvent[],
    private readonly onNote: NoteSink,
    /** A line that is not a frame throws CaptureFormatError instead of being noted and skipped. */
    private readonly strict = false,
  ) {}

  private badLine(reason: string): void {
    if (this.strict) throw new CaptureFormatError(`line ${this.lineNo}: ${reason}`, undefined);
    this.onNote(`line ${this.lineNo}: ${reason}; skipped`);
  }

  push(bytes: Uint8Array): void {
    const text = this.rest + this.decoder.decode(bytes, { stream: true });
    const lines = text.split('\n');
    this.rest = lines.pop()!;
    for (const l of lines) this.line(l);
  }

  end(): void {
    const last = this.rest + this.decoder.decode();
    this.rest = '';
    if (last !== '') this.line(last);
    for (const c of this.conns.values()) this.out.push({ type: 'close', conn: c.conn, timeUs: c.lastTimeUs, reason: 'capture-end' });
    this.conns.clear();
  }

  private line(text: string): void {
    this.lineNo++;
    if (text.trim() === '') return;
    let v: unknown;
    try {
      v = JSON.parse(text);
    } catch {
      this.badLine('not a JSON line');
      return;
    }
    if (typeof v !== 'object' || v === null || Array.isArray(v)) {
      this.badLine('not a JSON object');
      return;
    }
    const o = v as Record<string, unknown>;
    const dir = o['dir'];
    const bytes = typeof o['hex'] === 'string' ? hexDecode(o['hex']) : null;
    if ((dir !== 'c2s' && dir !== 's2c') || bytes === null) {
      this.badLine('no "dir" (c2s/s2c) and valid "hex"');
      return;
    }
    const connValue = o['conn'];
    const id = typeof connValue === 'string' || typeof connValue === 'number' ? String(connValue) : '1';
    const timeUs = lineTimeUs(o);
    let c = this.conns.get(id);
    if (c === undefined) {
      c = { conn: { id, client: `conn ${id}`, server: 'unknown' }, conv: new ConversationDecoder(), lastTimeUs: timeUs };
      this.conns.set(id, c);
      this.out.push({ type: 'open', conn: c.conn, timeUs, midStream: false });
    }
    c.lastTimeUs = timeUs;
    this.out.push({ type: 'frame', conn: c.conn, timeUs, dir: dir as Direction, frame: c.conv.decode(dir as Direction, bytes), size: bytes.length });
  }
}

/** `ts` (ISO-8601) if present, else `t` (seconds from the capture's start), else 0, in µs. */
function lineTimeUs(o: Record<string, unknown>): number {
  const ts = o['ts'];
  if (typeof ts === 'string') {
    const ms = Date.parse(ts);
    if (!Number.isNaN(ms)) return ms * 1000;
  }
  const t = o['t'];
  return typeof t === 'number' && Number.isFinite(t) ? Math.round(t * 1e6) : 0;
}
