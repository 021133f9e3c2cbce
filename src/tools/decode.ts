/**
 * The conversation decoder behind `zkwire decode`: JSON lines in (each with `dir`, `hex`, optionally `conn`,
 * `seq`, `t`/`ts` — the golden-file format), one result per frame out. Pure apart from its input iterable, so it
 * is tested without spawning a process.
 */

import { ConversationDecoder, encodeDescribedFrame, errName, hexDecode, hexEncode, JuteWriter, toJsonValue } from '../protocol/index.js';
import type { DescribedFrame, Direction, JsonValue } from '../protocol/index.js';

export interface DecodeOptions {
  /** Re-encode every decoded frame and report any whose bytes differ. */
  check?: boolean;
  /** One human-readable line per frame instead of JSON. */
  pretty?: boolean;
}

export interface DecodeResult {
  /** False when the frame could not be decoded, or (with check) did not re-encode to the same bytes. */
  ok: boolean;
  /** The JSON line's object (also built in pretty mode, for callers that want both). */
  json: { [key: string]: JsonValue };
  /** The line to print (JSON or pretty text), without a newline. */
  line: string;
}

interface InputLine {
  seq: JsonValue;
  conn: JsonValue;
  dir: Direction;
  hex: string;
  time: string | undefined;
}

/** Decodes one capture (one file): connection state lives as long as this object. */
export class CaptureDecoder {
  private readonly conversations = new Map<string, ConversationDecoder>();
  private readonly writer = new JuteWriter(1024);
  private index = 0;

  constructor(private readonly opts: DecodeOptions = {}) {}

  /** Decodes one input line; returns undefined for a blank line. */
  decodeLine(text: string): DecodeResult | undefined {
    if (text.trim() === '') return undefined;
    const index = this.index++;
    const parsed = parseInput(text, index);
    if ('error' in parsed) return this.failure(parsed.seq, parsed.conn, parsed.dir, parsed.error, undefined);
    const { seq, conn, dir, hex, time } = parsed;
    const bytes = hexDecode(hex);
    if (bytes === null) return this.failure(seq, conn, dir, `bad hex: ${describeBadHex(hex)}`, time);

    const key = JSON.stringify(conn);
    let conv = this.conversations.get(key);
    if (conv === undefined) {
      conv = new ConversationDecoder();
      this.conversations.set(key, conv);
    }
    const frame = conv.decode(dir, bytes);
    if (frame.error !== undefined) return this.failure(seq, conn, dir, frame.error, time);

    const json = frameJson(seq, conn, dir, frame);
    let ok = true;
    let checkError: string | undefined;
    if (this.opts.check === true) {
      checkError = this.recheck(frame, bytes);
      if (checkError !== undefined) {
        ok = false;
        json['check_error'] = checkError;
      }
    }
    const line = this.opts.pretty === true ? prettyLine(time ?? String(seq), conn, dir, frame, checkError) : JSON.stringify(json);
    return { ok, json, line };
  }

  private recheck(frame: DescribedFrame, original: Uint8Array): string | undefined {
    const w = this.writer.reset();
    try {
      encodeDescribedFrame(w, frame);
    } catch (e) {
      return `re-encoding failed: ${e instanceof Error ? e.message : String(e)}`;
    }
    const got = w.written();
    const n = Math.min(got.length, original.length);
    let at = 0;
    while (at < n && got[at] === original[at]) at++;
    if (at === n && got.length === original.length) return undefined;
    const from = Math.max(0, at - 4);
    return (
      `re-encoded ${got.length} byte(s) differ from the original ${original.length} at offset ${at}: ` +
      `expected …${hexEncode(original, from, Math.min(original.length, at + 8))}, got …${hexEncode(got, from, Math.min(got.length, at + 8))}`
    );
  }

  private failure(seq: JsonValue, conn: JsonValue, dir: JsonValue, error: string, time: string | undefined): DecodeResult {
    const json: { [key: string]: JsonValue } = { seq, conn, dir, error };
    const line = this.opts.pretty === true ? `${time ?? String(seq)} #${String(conn)} ${String(dir)} ERROR ${error}` : JSON.stringify(json);
    return { ok: false, json, line };
  }
}

function parseInput(text: string, index: number): InputLine | { seq: JsonValue; conn: JsonValue; dir: JsonValue; error: string } {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return { seq: index, conn: null, dir: null, error: `not a JSON line: ${e instanceof Error ? e.message : String(e)}` };
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    return { seq: index, conn: null, dir: null, error: 'not a JSON object' };
  }
  const o = v as Record<string, unknown>;
  const seq = isJsonScalar(o['seq']) ? o['seq'] : index;
  const conn = isJsonScalar(o['conn']) ? o['conn'] : 1;
  const dir = o['dir'];
  if (dir !== 'c2s' && dir !== 's2c') {
    return { seq, conn, dir: isJsonScalar(dir) ? dir : null, error: `"dir" must be "c2s" or "s2c", got ${JSON.stringify(dir) ?? 'nothing'}` };
  }
  if (typeof o['hex'] !== 'string') return { seq, conn, dir, error: '"hex" is missing or not a string' };
  const t = o['t'];
  const ts = o['ts'];
  const time = typeof t === 'number' ? t.toFixed(3).padStart(8) : typeof ts === 'string' ? ts : undefined;
  return { seq, conn, dir, hex: o['hex'], time };
}

function isJsonScalar(v: unknown): v is string | number {
  return typeof v === 'string' || typeof v === 'number';
}

function describeBadHex(hex: string): string {
  if (hex.length % 2 !== 0) return `odd number of digits (${hex.length})`;
  const at = hex.search(/[^0-9a-fA-F]/);
  return `invalid character ${JSON.stringify(hex[at] ?? '')} at position ${at}`;
}

/** A decoded frame as a JSON line's object (the golden files' fields); shared with the packet-capture output. */
export function frameJson(seq: JsonValue, conn: JsonValue, dir: Direction, f: DescribedFrame): { [key: string]: JsonValue } {
  const out: { [key: string]: JsonValue } = { seq, conn, dir, kind: f.kind };
  if (f.xid !== undefined) out['xid'] = f.xid;
  if (f.opcode !== undefined) out['opcode'] = f.opcode;
  if (f.op !== undefined) out['op'] = f.op;
  if (f.zxid !== undefined) out['zxid'] = f.zxid.toString();
  if (f.err !== undefined) out['err'] = f.err;
  out['decoded'] = toJsonValue(f.decoded);
  if (f.trailing !== undefined) out['trailing_hex'] = hexEncode(f.trailing);
  return out;
}

function prettyLine(time: string, conn: JsonValue, dir: Direction, f: DescribedFrame, checkError: string | undefined): string {
  const xid = f.xid === undefined ? '' : `xid=${f.xid}`;
  const arrow = dir === 'c2s' ? 'c2s →' : 's2c ←';
  const err = f.err !== undefined && f.err !== 0 && f.summary.indexOf(errName(f.err)) < 0 ? ` ${errName(f.err)}` : '';
  const check = checkError === undefined ? '' : `  [CHECK FAILED: ${checkError}]`;
  return `${time} #${String(conn)} ${arrow} ${xid.padEnd(9)} ${f.summary}${err}${check}`;
}

/** Decodes a whole capture; the results come out in input order. */
export async function* decodeCapture(lines: AsyncIterable<string> | Iterable<string>, opts: DecodeOptions = {}): AsyncGenerator<DecodeResult> {
  const decoder = new CaptureDecoder(opts);
  for await (const line of lines) {
    const r = decoder.decodeLine(line);
    if (r !== undefined) yield r;
  }
}
