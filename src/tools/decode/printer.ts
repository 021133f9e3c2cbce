/**
 * The printing sink of `zkwire decode`: CaptureEvents as JSON lines or, with --pretty, as readable lines.
 *
 * Packet captures and the proxy print the lines `zkwire trace` prints (--pretty), or JSON with `client`, `server`
 * and `time` beside the frame's fields (frame-json.ts). Frames of a JSON-lines capture keep that capture's own
 * `seq` and `conn` and its short forms (no addresses, no open/close lines): the output `zkwire decode` always gave
 * for them. Either way `err` is the error's name with `errCode` its number.
 */

import { errName, hexEncode, hexId, type JsonValue } from '../../protocol/index.js';
import type { BadLineEvent, CaptureEvent, ConnectionCloseEvent, FrameEvent, GapEvent, LineOrigin } from '../capture/index.js';
import { arrow, clockTime, formatFrameLine, hexPreview, lineHead } from '../trace/format.js';
import { frameJson, isoMicros, redactCredentials } from './frame-json.js';

/** One printed line; `ok` is false for a frame that could not be decoded (or failed --check). */
export interface EventLine {
  ok: boolean;
  line: string;
}

interface ConnState {
  /** 1-based, in the order connections appear (the `#n` of --pretty). */
  num: number;
  bytes: { c2s: number; s2c: number };
  /** The session of its last frame, for the lines of events that carry none (gaps, close). */
  sessionId: bigint | undefined;
}

/** How a `CaptureEventPrinter` prints. */
export interface CaptureEventPrinterOptions {
  /** Readable lines (`zkwire decode --pretty`, `zkwire trace`) instead of one JSON object per line. */
  pretty?: boolean;
  /**
   * JSON lines for each connection's open and close too (`kind: "open"` / `"close"`), as `zkwire trace --json`
   * prints them; readable lines always show them.
   */
  connections?: boolean;
  /**
   * Live output is for reading and pasting into tickets: an AuthPacket's credentials (digest "user:password") are
   * shown only as their length in JSON too, as readable lines always show them. `zkwire trace` sets it; a capture file
   * decoded later shows what it holds.
   */
  redactCredentials?: boolean;
}

/** Prints capture events as `zkwire decode` and `zkwire trace` do: one line per event, keeping per-connection state. */
export class CaptureEventPrinter {
  readonly #opts: CaptureEventPrinterOptions;
  readonly #conns = new Map<string, ConnState>();
  #nextNum = 1;
  #seq = 0;

  constructor(opts: CaptureEventPrinterOptions = {}) {
    this.#opts = opts;
  }

  /**
   * The line for one event, or undefined for events only --pretty shows (open, close). `checkError`: what --check
   * found wrong with a frame (recheck.ts), printed with it.
   */
  format(e: CaptureEvent, checkError?: string): EventLine | undefined {
    if (e.type === 'bad-line') return this.#badLine(e);
    let c = this.#conns.get(e.conn.id);
    if (c === undefined) {
      c = { num: this.#nextNum++, bytes: { c2s: 0, s2c: 0 }, sessionId: undefined };
      this.#conns.set(e.conn.id, c);
    }
    const pretty = this.#opts.pretty === true;
    switch (e.type) {
      case 'open':
        if (e.conn.lineConn !== undefined) return undefined;
        if (pretty) return { ok: true, line: `${clockTime(e.timeUs / 1000)} #${c.num} open ${e.conn.client} → ${e.conn.server}${e.midStream ? ' (capture began mid-session)' : ''}` };
        if (this.#opts.connections !== true) return undefined;
        return { ok: true, line: JSON.stringify({ ...this.#connJson(e), kind: 'open', midStream: e.midStream }) };
      case 'close':
        this.#conns.delete(e.conn.id);
        if (e.conn.lineConn !== undefined || (!pretty && this.#opts.connections !== true)) return undefined;
        return { ok: true, line: pretty ? closeLine(e, c) : JSON.stringify(closeJson(this.#connJson(e), e, c)) };
      case 'gap':
        return this.#gap(e, c);
      case 'frame':
        c.bytes[e.dir] += e.size;
        if (e.sessionId !== undefined) c.sessionId = e.sessionId;
        return e.line === undefined ? this.#frame(e, c, checkError) : this.#lineFrame(e, e.line, checkError);
    }
  }

  /** The fields every JSON line about a connection starts with. */
  #connJson(e: Exclude<CaptureEvent, BadLineEvent>): { [key: string]: JsonValue } {
    return { conn: e.conn.id, client: e.conn.client, server: e.conn.server, time: isoMicros(e.timeUs) };
  }

  /** A hole in the capture, or (from the proxy) bytes that crossed it but cannot be framed. */
  #gap(e: GapEvent, c: ConnState): EventLine {
    const seq = this.#seq++;
    const lost = e.undecoded;
    if (lost !== undefined) c.bytes[e.dir] += lost.bytes.length;
    if (this.#opts.pretty === true) {
      const head = `${lineHead(e.timeUs / 1000, c.num, c.sessionId)} ${arrow(e.dir)}`;
      if (lost === undefined) return { ok: true, line: `${head} GAP ${e.missingBytes === undefined ? '' : `${e.missingBytes} B `}(${e.reason})` };
      const what = lost.kind === 'incomplete-frame' ? 'INCOMPLETE' : 'UNFRAMED';
      const why = e.continues === true ? '' : ` ${e.reason}`;
      return { ok: true, line: `${head} ${what}${why} [${lost.bytes.length} B passed through: ${hexPreview(lost.bytes)}]` };
    }
    const json: { [key: string]: JsonValue } = { seq, ...this.#connJson(e), dir: e.dir, kind: 'gap' };
    json['missingBytes'] = e.missingBytes ?? null;
    json['reason'] = e.reason;
    if (lost !== undefined) json['undecoded'] = { kind: lost.kind, len: lost.bytes.length, hex: hexEncode(lost.bytes) };
    return { ok: true, line: JSON.stringify(json) };
  }

  #frame(e: FrameEvent, c: ConnState, checkError: string | undefined): EventLine {
    const seq = this.#seq++;
    const f = e.frame;
    const ok = f.error === undefined && checkError === undefined;
    if (this.#opts.pretty === true) {
      const head = `${lineHead(e.timeUs / 1000, c.num, e.sessionId)} ${arrow(e.dir)}`;
      if (f.error !== undefined) {
        const at = f.xid === undefined ? '' : `xid=${f.xid} ${f.op ?? ''} `;
        return { ok, line: `${head} UNDECODABLE ${at}${f.error} [${e.size} B: ${hexPreview(e.bytes)}]` };
      }
      const text = formatFrameLine({ timeMs: e.timeUs / 1000, conn: c.num, sessionId: e.sessionId, dir: e.dir, frame: f, latencyMs: e.latencyMs });
      return { ok, line: `${text}${f.unmatched === true ? ' (request not in the capture)' : ''}${checked(checkError)}` };
    }
    const head: { [key: string]: JsonValue } = { seq, ...this.#connJson(e) };
    if (e.sessionId !== undefined) head['session'] = hexId(e.sessionId);
    if (f.error !== undefined) {
      const json: { [key: string]: JsonValue } = { ...head, dir: e.dir, kind: f.kind };
      if (f.xid !== undefined) json['xid'] = f.xid;
      if (f.op !== undefined) json['op'] = f.op;
      json['error'] = f.error;
      json['hex'] = hexEncode(e.bytes);
      return { ok, line: JSON.stringify(json) };
    }
    const json: { [key: string]: JsonValue } = { ...head, ...frameJson(seq, e.conn.id, e.dir, f) };
    if (this.#opts.redactCredentials === true) json['decoded'] = redactCredentials(f, json['decoded'] ?? null);
    if (f.path !== undefined) json['path'] = f.path;
    if (e.latencyMs !== undefined) json['latencyMs'] = Math.round(e.latencyMs * 1000) / 1000;
    if (f.unmatched === true) json['unmatched'] = true;
    if (checkError !== undefined) json['check_error'] = checkError;
    return { ok, line: JSON.stringify(json) };
  }

  /** A frame of a JSON-lines capture, in that capture's terms. */
  #lineFrame(e: FrameEvent, line: LineOrigin, checkError: string | undefined): EventLine {
    const f = e.frame;
    const conn = e.conn.lineConn ?? e.conn.id;
    if (f.error !== undefined) return this.#failure(line.seq, conn, e.dir, f.error, line.time);
    const ok = checkError === undefined;
    if (this.#opts.pretty === true) {
      const xid = f.xid === undefined ? '' : `xid=${f.xid}`;
      const err = f.err !== undefined && f.err !== 0 && f.summary.indexOf(errName(f.err)) < 0 ? ` ${errName(f.err)}` : '';
      return { ok, line: `${line.time ?? String(line.seq)} #${String(conn)} ${arrow(e.dir)} ${xid.padEnd(9)} ${f.summary}${err}${checked(checkError)}` };
    }
    const json = frameJson(line.seq, conn, e.dir, f);
    if (checkError !== undefined) json['check_error'] = checkError;
    return { ok, line: JSON.stringify(json) };
  }

  #badLine(e: BadLineEvent): EventLine {
    return this.#failure(e.seq, e.conn, e.dir, e.error, undefined);
  }

  #failure(seq: JsonValue, conn: JsonValue, dir: JsonValue, error: string, time: string | undefined): EventLine {
    const line = this.#opts.pretty === true ? `${time ?? String(seq)} #${String(conn)} ${String(dir)} ERROR ${error}` : JSON.stringify({ seq, conn, dir, error });
    return { ok: false, line };
  }
}

function closeLine(e: ConnectionCloseEvent, c: ConnState): string {
  const why =
    e.by !== undefined
      ? `closed by ${e.by}${e.error === undefined ? '' : ` (${e.error})`}`
      : e.reason === 'fin'
        ? 'closed'
        : e.reason === 'rst'
          ? 'reset'
          : 'still open at the end of the capture';
  return `${lineHead(e.timeUs / 1000, c.num, c.sessionId)} ${why}; c2s ${c.bytes.c2s} B, s2c ${c.bytes.s2c} B`;
}

function closeJson(head: { [key: string]: JsonValue }, e: ConnectionCloseEvent, c: ConnState): { [key: string]: JsonValue } {
  const json: { [key: string]: JsonValue } = { ...head, kind: 'close', reason: e.reason };
  if (c.sessionId !== undefined) json['session'] = hexId(c.sessionId);
  if (e.by !== undefined) json['by'] = e.by;
  if (e.error !== undefined) json['error'] = e.error;
  json['bytes'] = { ...c.bytes };
  return json;
}

function checked(checkError: string | undefined): string {
  return checkError === undefined ? '' : `  [CHECK FAILED: ${checkError}]`;
}
