/** A decoded frame as the object of one JSON line: the golden files' fields, with `err` by name. */

import { errName, hexEncode, toJsonValue, type DescribedFrame, type Direction, type JsonValue } from '../../protocol/index.js';

/**
 * `{seq, conn, dir, kind, xid, opcode, op, zxid, err, decoded, trailing_hex, errCode}` (the fields the frame has).
 * `err` is ZooKeeper's name for the result (`OK`, `NONODE`, ...) and `errCode` its number; `decoded` keeps the
 * reply header's numeric `err`, as on the wire.
 */
export function frameJson(seq: JsonValue, conn: JsonValue, dir: Direction, f: DescribedFrame): { [key: string]: JsonValue } {
  const out: { [key: string]: JsonValue } = { seq, conn, dir, kind: f.kind };
  if (f.xid !== undefined) out['xid'] = f.xid;
  if (f.opcode !== undefined) out['opcode'] = f.opcode;
  if (f.op !== undefined) out['op'] = f.op;
  if (f.zxid !== undefined) out['zxid'] = f.zxid.toString();
  if (f.err !== undefined) out['err'] = errName(f.err);
  out['decoded'] = toJsonValue(f.decoded);
  if (f.trailing !== undefined) out['trailing_hex'] = hexEncode(f.trailing);
  // After the golden files' fields, where packet-capture lines have always had it.
  if (f.err !== undefined) out['errCode'] = f.err;
  return out;
}

/** ISO-8601 UTC with microseconds, e.g. 2026-11-23T20:41:07.123456Z. */
export function isoMicros(timeUs: number): string {
  const ms = Math.floor(timeUs / 1000);
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, -1)}${String(Math.floor(timeUs - ms * 1000)).padStart(3, '0')}Z`;
}

/** A JSON object (Array.isArray does not narrow a readonly array out of a union). */
function isJsonObject(v: JsonValue | undefined): v is { readonly [key: string]: JsonValue } {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** An AuthPacket's `decoded` with its credentials replaced by their length (for live output; see the printer's option). */
export function redactCredentials(f: DescribedFrame, decoded: JsonValue): JsonValue {
  if (f.op !== 'auth' || f.kind !== 'request' || !isJsonObject(decoded)) return decoded;
  const body = decoded['body'];
  if (!isJsonObject(body)) return decoded;
  const auth = body['auth'];
  const len = isJsonObject(auth) ? (auth['len'] ?? null) : null;
  return { ...decoded, body: { ...body, auth: { len, redacted: true } } };
}
