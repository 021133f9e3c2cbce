/**
 * The readable lines `zkwire trace` and `zkwire decode --pretty` print (decode/printer.ts puts them together per
 * event): time, connection, session, direction, xid, op, path, result, latency, then the describer's details.
 */

import { errName, hexEncode, hexId, summarizeRequestBody, summarizeResponseBody, type DecodedReply, type DecodedRequest, type DescribedFrame } from '../../protocol/index.js';
import { safeText } from '../shared/safe-text.js';
import type { TraceSummary } from './summary.js';

/** Local wall-clock time with milliseconds, as people read it next to their own logs. */
export function clockTime(ms: number): string {
  const d = new Date(ms);
  const p = (n: number, w = 2): string => String(n).padStart(w, '0');
  return `${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}.${p(d.getMilliseconds(), 3)}`;
}

function session(id: bigint | undefined): string {
  return id === undefined ? '-' : hexId(id);
}

function latency(ms: number | undefined): string {
  if (ms === undefined) return '';
  return ms < 10 ? `${ms.toFixed(2)}ms` : `${ms.toFixed(1)}ms`;
}

const HEX_PREVIEW = 24;

/** The first bytes in hex, for lines about bytes that could not be decoded. */
export function hexPreview(bytes: Uint8Array): string {
  const n = Math.min(bytes.length, HEX_PREVIEW);
  return `${hexEncode(bytes, 0, n)}${bytes.length > n ? '…' : ''}`;
}

/** The describer's details without what the columns already show. */
function details(f: DescribedFrame): string {
  const body = (f.decoded as DecodedRequest | DecodedReply | undefined)?.body;
  if (f.kind === 'request') {
    const s = summarizeRequestBody(f.op ?? '', body);
    return f.path !== undefined && s.startsWith(f.path) ? s.slice(f.path.length).trim() : s;
  }
  if (f.kind === 'reply') {
    const s = summarizeResponseBody(body);
    return [s, f.zxid === undefined ? '' : `zxid=${hexId(f.zxid)}`].filter((x) => x !== '').join(' ');
  }
  return '';
}

/** What the readable line of a decoded frame shows. */
export interface FrameLineFields {
  /** Wall-clock ms since the epoch. */
  timeMs: number;
  /** The connection's number (`#n`). */
  conn: number;
  sessionId: bigint | undefined;
  dir: 'c2s' | 's2c';
  frame: DescribedFrame;
  latencyMs: number | undefined;
}

/** The start of every line about a connection: time, `#conn`, the session (or -) in a fixed-width column. */
export function lineHead(timeMs: number, conn: number, sessionId: bigint | undefined): string {
  return `${clockTime(timeMs)} #${conn} ${session(sessionId).padEnd(18)}`;
}

/**
 * One decoded frame as a readable line (the frame must have no `error`): the proxy's live output and `zkwire decode
 * --pretty` for packet captures both print this.
 */
export function formatFrameLine(l: FrameLineFields): string {
  const f = l.frame;
  const cols: string[] = [];
  switch (f.kind) {
    case 'connect-request':
    case 'connect-response':
      // The describer's summary starts with "connect"/"connected" (or says the session was rejected): keep its words.
      cols.push(f.kind === 'connect-request' ? 'CONNECT' : 'CONNECTED', f.summary.replace(/^connect(ed)? /, ''), latency(l.latencyMs));
      break;
    case '4lw-command':
    case '4lw-response':
      cols.push('4LW', f.summary.replace(/^4lw /, ''));
      break;
    case 'notification':
      // Notifications carry zxid -1 in their header (ZooKeeper does not say which change fired them): not worth a column.
      cols.push('EVENT', f.summary, f.zxid === undefined || f.zxid < 0n ? '' : `zxid=${hexId(f.zxid)}`);
      break;
    case 'request':
    case 'reply': {
      const ping = f.op === 'ping';
      cols.push(`xid=${f.xid ?? '?'}`.padEnd(9), ping ? 'PING' : (f.op ?? '?'));
      if (f.path !== undefined) cols.push(f.path);
      if (f.kind === 'reply') cols.push(errName(f.err ?? 0), latency(l.latencyMs));
      if (!ping) cols.push(details(f));
      break;
    }
  }
  // Paths come from the wire as sent: a control character in one must not act on the terminal.
  return `${lineHead(l.timeMs, l.conn, l.sessionId)} ${arrow(l.dir)} ${safeText(cols.filter((c) => c !== '').join(' '))}`;
}

/** The direction column. */
export function arrow(dir: 'c2s' | 's2c'): string {
  return dir === 'c2s' ? 'c2s →' : 's2c ←';
}

/** The Ctrl-C summary as a table. */
export function formatSummaryText(s: TraceSummary): string {
  const rows: string[][] = [['op', 'requests', 'replies', 'errors', 'p50 ms', 'p99 ms', 'max ms']];
  for (const [op, o] of Object.entries(s.ops)) {
    const errors = Object.values(o.errors).reduce((a, b) => a + b, 0);
    const l = o.latencyMs;
    rows.push([op, String(o.requests), String(o.replies), String(errors), fmt(l?.p50), fmt(l?.p99), fmt(l?.max)]);
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const table = rows.map((r) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ').trimEnd());
  const errors = Object.entries(s.errors);
  return [
    `trace summary: ${s.connections} connection(s), ${s.frames.c2s} frame(s) c2s / ${s.frames.s2c} s2c, ` +
      `${s.bytes.c2s} B c2s / ${s.bytes.s2c} B s2c, ${s.notifications} notification(s), ${s.undecodable} undecodable`,
    ...(rows.length > 1 ? table : ['(no requests)']),
    `errors: ${errors.length === 0 ? 'none' : errors.map(([name, n]) => `${name} ${n}`).join(', ')}`,
  ].join('\n');
}

function fmt(ms: number | undefined): string {
  if (ms === undefined) return '-';
  return ms < 10 ? ms.toFixed(3) : ms.toFixed(1);
}
