/**
 * Our own JSON-lines captures (the golden-file format that `zkwire trace --out` writes: one frame per line with `dir`
 * and `hex`, optionally `conn`, `seq`, `t`/`ts`) as CaptureEvents, so every capture kind reaches decode and analyze
 * the same way. Each frame keeps its line's `seq`, `conn` and time as written (`zkwire decode` prints them back). A
 * line that is not a frame becomes a `bad-line` event, or with `strict` makes the whole capture corrupt.
 */

import { ConversationDecoder, hexDecode } from '../../protocol/index.js';
import type { BadLineEvent, CaptureConnection, CaptureEvent } from './events.js';
import { CaptureFormatError } from './capture-error.js';
import { RequestTimes } from './request-times.js';

interface JsonlConnection {
  conn: CaptureConnection;
  conv: ConversationDecoder;
  times: RequestTimes;
  lastTimeUs: number;
}

type Scalar = string | number;

export class JsonLinesReader {
  readonly #strict: boolean;
  readonly #out: CaptureEvent[];
  readonly #decoder = new TextDecoder();
  #rest = '';
  #lineNo = 0;
  /** Non-blank lines so far: the `seq` of a line that has none. */
  #index = 0;
  #lastTimeUs = 0;
  readonly #conns = new Map<string, JsonlConnection>();

  constructor(
    out: CaptureEvent[],
    /** A line that is not a frame throws CaptureFormatError instead of becoming a `bad-line` event. */
    strict = false,
  ) {
    this.#strict = strict;
    this.#out = out;}

  #badLine(seq: Scalar, conn: Scalar | null, dir: Scalar | null, error: string): void {
    if (this.#strict) throw new CaptureFormatError(`line ${this.#lineNo}: ${error}`, undefined);
    const e: BadLineEvent = { type: 'bad-line', timeUs: this.#lastTimeUs, lineNo: this.#lineNo, seq, conn, dir, error };
    this.#out.push(e);
  }

  push(bytes: Uint8Array): void {
    const text = this.#rest + this.#decoder.decode(bytes, { stream: true });
    const lines = text.split('\n');
    this.#rest = lines.pop()!;
    for (const l of lines) this.#line(l);
  }

  end(): void {
    const last = this.#rest + this.#decoder.decode();
    this.#rest = '';
    if (last !== '') this.#line(last);
    for (const c of this.#conns.values()) this.#out.push({ type: 'close', conn: c.conn, timeUs: c.lastTimeUs, reason: 'capture-end' });
    this.#conns.clear();
  }

  #line(raw: string): void {
    this.#lineNo++;
    const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (text.trim() === '') return;
    const index = this.#index++;
    let v: unknown;
    try {
      v = JSON.parse(text);
    } catch (e) {
      this.#badLine(index, null, null, `not a JSON line: ${e instanceof Error ? e.message : String(e)}`);
      return;
    }
    if (typeof v !== 'object' || v === null || Array.isArray(v)) {
      this.#badLine(index, null, null, 'not a JSON object');
      return;
    }
    const o = v as Record<string, unknown>;
    const seq = isScalar(o['seq']) ? o['seq'] : index;
    const lineConn = isScalar(o['conn']) ? o['conn'] : 1;
    const dir = o['dir'];
    if (dir !== 'c2s' && dir !== 's2c') {
      this.#badLine(seq, lineConn, isScalar(dir) ? dir : null, `"dir" must be "c2s" or "s2c", got ${JSON.stringify(dir) ?? 'nothing'}`);
      return;
    }
    const hex = o['hex'];
    if (typeof hex !== 'string') {
      this.#badLine(seq, lineConn, dir, '"hex" is missing or not a string');
      return;
    }
    const bytes = hexDecode(hex);
    if (bytes === null) {
      this.#badLine(seq, lineConn, dir, `bad hex: ${describeBadHex(hex)}`);
      return;
    }
    const id = String(lineConn);
    const timeUs = lineTimeUs(o);
    this.#lastTimeUs = timeUs;
    let c = this.#conns.get(id);
    if (c === undefined) {
      c = { conn: { id, client: `conn ${id}`, server: 'unknown', lineConn }, conv: new ConversationDecoder(), times: new RequestTimes(), lastTimeUs: timeUs };
      this.#conns.set(id, c);
      this.#out.push({ type: 'open', conn: c.conn, timeUs, midStream: false });
    }
    c.lastTimeUs = timeUs;
    const frame = c.conv.decode(dir, bytes);
    const latencyMs = c.times.observe(frame, timeUs);
    const line = { seq, time: lineTime(o) };
    this.#out.push({ type: 'frame', conn: c.conn, timeUs, dir, frame, size: bytes.length, bytes, sessionId: c.times.sessionId, latencyMs, line });
  }
}

function isScalar(v: unknown): v is Scalar {
  return typeof v === 'string' || typeof v === 'number';
}

function describeBadHex(hex: string): string {
  if (hex.length % 2 !== 0) return `odd number of digits (${hex.length})`;
  const at = hex.search(/[^0-9a-fA-F]/);
  return `invalid character ${JSON.stringify(hex[at] ?? '')} at position ${at}`;
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

/** The time a reader of the line sees: `t` with ms (as the golden files and `trace --out` write it), else `ts`. */
function lineTime(o: Record<string, unknown>): string | undefined {
  const t = o['t'];
  const ts = o['ts'];
  return typeof t === 'number' ? t.toFixed(3).padStart(8) : typeof ts === 'string' ? ts : undefined;
}
