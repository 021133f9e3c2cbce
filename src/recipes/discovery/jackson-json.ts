/**
 * JSON text as Jackson's ObjectMapper writes it (UTF8JsonGenerator, default features), so that what zkwire writes
 * is byte for byte what Curator writes for the same values. It differs from JSON.stringify in its string escapes:
 * control characters other than \b \t \n \f \r become `\u00XX` with upper-case hex, and every UTF-16 surrogate
 * (so every character beyond U+FFFF, as a pair) is written as a `\uXXXX` escape rather than as UTF-8 bytes; `/`,
 * U+007F and U+2028 stay as they are. Numbers are written as JSON.stringify writes them, which is Jackson's form
 * for integers (a Java double such as 2.0 has no JavaScript counterpart).
 */

import type { JsonValue } from '../../protocol/describe.js';

// zkwire's one JSON value type, the frame describer's as well (what JSON.parse returns).
export type { JsonValue };

const SHORT: Readonly<Record<number, string>> = { 0x08: '\\b', 0x09: '\\t', 0x0a: '\\n', 0x0c: '\\f', 0x0d: '\\r' };

function hex4(c: number): string {
  return c.toString(16).toUpperCase().padStart(4, '0');
}

/** A JSON string literal, escaped as Jackson escapes it. */
export function jacksonString(s: string): string {
  let out = '"';
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let escape: string | undefined;
    if (c === 0x22) escape = '\\"';
    else if (c === 0x5c) escape = '\\\\';
    else if (c < 0x20) escape = SHORT[c] ?? `\\u${hex4(c)}`;
    else if (c >= 0xd800 && c <= 0xdfff) escape = `\\u${hex4(c)}`;
    if (escape === undefined) continue;
    out += s.slice(from, i) + escape;
    from = i + 1;
  }
  return out + s.slice(from) + '"';
}

/** Any JSON value in Jackson's text: object properties in their insertion order, no white space. */
export function jacksonValue(value: JsonValue): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return jacksonString(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError(`not a JSON number: ${value}`);
    return JSON.stringify(value);
  }
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (Array.isArray(value)) return `[${(value as readonly JsonValue[]).map(jacksonValue).join(',')}]`;
  if (typeof value === 'object') {
    const fields: string[] = [];
    for (const [key, v] of Object.entries(value as { readonly [key: string]: JsonValue })) {
      if (v === undefined) continue;
      fields.push(`${jacksonString(key)}:${jacksonValue(v)}`);
    }
    return `{${fields.join(',')}}`;
  }
  throw new TypeError(`not a JSON value: ${typeof value}`);
}
