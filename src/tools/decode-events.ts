/**
 * What `zkwire decode` prints for a packet capture: CaptureEvents as JSON lines (the JSON-lines output's fields plus
 * `client`, `server` and `time`, `err` by name) or, with --pretty, the readable lines `zkwire trace` prints, with
 * the session and the request→reply latency tracked per connection as the proxy does.
 */

import { errName, errorName, hexId, type ConnectResponse, type DescribedFrame, type JsonValue } from '../protocol/index.js';
import type { CaptureEvent, FrameEvent } from './capture/index.js';
import { frameJson } from './decode.js';
import { clockTime, formatRecordText } from './trace/format.js';

/** One printed line; `ok` is false for a frame that could not be decoded. */
export interface EventLine {
  ok: boolean;
  line: string;
}

interface ConnState {
  /** 1-based, in the order connections appear (the `#n` of --pretty). */
  num: number;
  sessionId: bigint | undefined;
  /** Capture time of each unanswered request, by xid (the handshake under CONNECT_KEY). */
  sent: Map<number, number>;
  bytes: { c2s: number; s2c: number };
}

const CONNECT_KEY = Number.MIN_SAFE_INTEGER;

/** ISO-8601 UTC with microseconds, e.g. 2026-11-23T20:41:07.123456Z. */
export function isoMicros(timeUs: number): string {
  const ms = Math.floor(timeUs / 1000);
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, -1)}${String(Math.floor(timeUs - ms * 1000)).padStart(3, '0')}Z`;
}

export class CaptureEventPrinter {
  private readonly conns = new Map<string, ConnState>();
  private nextNum = 1;
  private seq = 0;

  constructor(private readonly opts: { pretty?: boolean } = {}) {}

  /** The line for one event, or undefined for events only --pretty shows (open, close). */
  format(e: CaptureEvent): EventLine | undefined {
    let c = this.conns.get(e.conn.id);
    if (c === undefined) {
      c = { num: this.nextNum++, sessionId: undefined, sent: new Map(), bytes: { c2s: 0, s2c: 0 } };
      this.conns.set(e.conn.id, c);
    }
    const pretty = this.opts.pretty === true;
    switch (e.type) {
      case 'open':
        if (!pretty) return undefined;
        return { ok: true, line: `${clockTime(e.timeUs / 1000)} #${c.num} open ${e.conn.client} → ${e.conn.server}${e.midStream ? ' (capture began mid-session)' : ''}` };
      case 'close': {
        this.conns.delete(e.conn.id);
        if (!pretty) return undefined;
        const why = e.reason === 'fin' ? 'closed' : e.reason === 'rst' ? 'reset' : 'still open at the end of the capture';
        return { ok: true, line: `${clockTime(e.timeUs / 1000)} #${c.num} ${session(c.sessionId)} ${why}; c2s ${c.bytes.c2s} B, s2c ${c.bytes.s2c} B` };
      }
      case 'gap': {
        const seq = this.seq++;
        if (pretty) {
          const arrow = e.dir === 'c2s' ? 'c2s →' : 's2c ←';
          const n = e.missingBytes === undefined ? '' : `${e.missingBytes} B `;
          return { ok: true, line: `${clockTime(e.timeUs / 1000)} #${c.num} ${session(c.sessionId)} ${arrow} GAP ${n}(${e.reason})` };
        }
        const json: { [key: string]: JsonValue } = { seq, conn: e.conn.id, client: e.conn.client, server: e.conn.server, time: isoMicros(e.timeUs), dir: e.dir, kind: 'gap' };
        json['missingBytes'] = e.missingBytes ?? null;
        json['reason'] = e.reason;
        return { ok: true, line: JSON.stringify(json) };
      }
      case 'frame':
        return this.frame(e, c);
    }
  }

  private frame(e: FrameEvent, c: ConnState): EventLine {
    const seq = this.seq++;
    const f = e.frame;
    c.bytes[e.dir] += e.size;
    const latencyMs = this.track(e, c);
    const ok = f.error === undefined;
    if (this.opts.pretty === true) {
      if (!ok) {
        const at = f.xid === undefined ? '' : `xid=${f.xid} ${f.op ?? ''} `;
        return { ok, line: `${clockTime(e.timeUs / 1000)} #${c.num} ${session(c.sessionId)} ${e.dir === 'c2s' ? 'c2s →' : 's2c ←'} UNDECODABLE ${at}${f.error} [${e.size} B]` };
      }
      const text = formatRecordText({
        type: 'frame',
        conn: c.num,
        time: e.timeUs / 1000,
        seq,
        dir: e.dir,
        bytes: new Uint8Array(0),
        len: e.size - 4,
        frame: f,
        sessionId: c.sessionId,
        latencyMs,
      });
      return { ok, line: f.unmatched === true ? `${text} (request not in the capture)` : text };
    }
    const head: { [key: string]: JsonValue } = { seq, conn: e.conn.id, client: e.conn.client, server: e.conn.server, time: isoMicros(e.timeUs) };
    if (!ok) {
      const json: { [key: string]: JsonValue } = { ...head, dir: e.dir, kind: f.kind };
      if (f.xid !== undefined) json['xid'] = f.xid;
      if (f.op !== undefined) json['op'] = f.op;
      json['error'] = f.error ?? null;
      return { ok, line: JSON.stringify(json) };
    }
    const body = frameJson(seq, e.conn.id, e.dir, f);
    const json: { [key: string]: JsonValue } = { ...head, ...body };
    if (f.err !== undefined) {
      json['err'] = errorName(f.err) ?? errName(f.err);
      json['errCode'] = f.err;
    }
    if (f.path !== undefined) json['path'] = f.path;
    if (latencyMs !== undefined) json['latencyMs'] = Math.round(latencyMs * 1000) / 1000;
    if (f.unmatched === true) json['unmatched'] = true;
    return { ok, line: JSON.stringify(json) };
  }

  /** Session id from the handshake; latency of a reply from its request's capture time. */
  private track(e: FrameEvent, c: ConnState): number | undefined {
    const f: DescribedFrame = e.frame;
    if (f.kind === 'connect-request') c.sent.set(CONNECT_KEY, e.timeUs);
    else if (f.kind === 'request' && f.xid !== undefined) c.sent.set(f.xid, e.timeUs);
    const key = f.kind === 'connect-response' ? CONNECT_KEY : f.kind === 'reply' && f.xid !== undefined ? f.xid : undefined;
    if (f.kind === 'connect-response' && f.decoded !== undefined) c.sessionId = (f.decoded as ConnectResponse).sessionId;
    if (key === undefined) return undefined;
    const sent = c.sent.get(key);
    if (sent === undefined) return undefined;
    c.sent.delete(key);
    return (e.timeUs - sent) / 1000;
  }
}

function session(id: bigint | undefined): string {
  return (id === undefined ? '-' : hexId(id)).padEnd(18);
}
