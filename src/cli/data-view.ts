/**
 * Node data shown the way it is: JSON pretty-printed, gzip (Curator's GzipCompressionProvider writes plain gzip)
 * recognised by its magic and inflated with a note, text as text, anything else as a hex dump. One module for every
 * command that prints node data (`get`, in the shell and one-shot; `watch` may use it too). Node-only (node:zlib):
 * it lives with the CLI, above the library's floors.
 */

import { gunzipSync } from 'node:zlib';
import { isValidUtf8, utf8Decode } from '../protocol/utf8.js';
import { hexEncode } from '../protocol/hex.js';

/** How data may be shown: `auto` detects; the others force one view. */
export const DATA_FORMATS = ['auto', 'json', 'text', 'hex', 'base64'] as const;
export type DataFormat = (typeof DATA_FORMATS)[number];

export function isDataFormat(s: string): s is DataFormat {
  return (DATA_FORMATS as readonly string[]).includes(s);
}

/** What to print: the text (no trailing newline), the view chosen, and notes for stderr (what was done to it). */
export interface DataViewResult {
  readonly text: string;
  readonly view: 'json' | 'text' | 'hex' | 'base64';
  readonly notes: readonly string[];
}

/** The largest inflated size shown: a node holds at most ~1 MB, but gzip of zeros inflates a thousandfold. */
export const MAX_INFLATED_BYTES = 16 * 1024 * 1024;

const GZIP_MAGIC = [0x1f, 0x8b, 0x08] as const;

/** gzip's magic and deflate method byte: what Curator's GzipCompressionProvider (java.util.zip) writes. */
export function looksGzipped(bytes: Uint8Array): boolean {
  return bytes.length >= 18 && GZIP_MAGIC.every((b, i) => bytes[i] === b);
}

/** The inflated bytes, or undefined when the stream is damaged or inflates past MAX_INFLATED_BYTES. */
function inflate(bytes: Uint8Array): Uint8Array | undefined {
  try {
    return new Uint8Array(gunzipSync(bytes, { maxOutputLength: MAX_INFLATED_BYTES }));
  } catch {
    return undefined;
  }
}

/**
 * Text a person can read: valid UTF-8 without control characters other than tab, newline and carriage return
 * (bytes such as 00 01 are valid UTF-8 but are not text, and would be printed raw to the terminal).
 */
export function isPrintableText(bytes: Uint8Array): boolean {
  if (!isValidUtf8(bytes)) return false;
  for (const b of bytes) if ((b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d) || b === 0x7f) return false;
  return true;
}

/** The JSON value of `text` when it is a JSON object or array (a bare `42` or `"x"` reads fine as text). */
function parseJsonDocument(text: string): unknown {
  const t = text.trim();
  if (!(t.startsWith('{') || t.startsWith('['))) return undefined;
  try {
    return JSON.parse(t) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * A hex dump as `xxd` and `hexdump -C` print one: offset, 16 bytes in hex (two groups of eight), the printable
 * ASCII beside them ('.' for the rest).
 */
export function hexDump(bytes: Uint8Array): string {
  const lines: string[] = [];
  for (let at = 0; at < bytes.length; at += 16) {
    const row = bytes.subarray(at, at + 16);
    const hex = hexEncode(row).match(/../g) ?? [];
    const left = hex.slice(0, 8).join(' ');
    const right = hex.slice(8).join(' ');
    const ascii = [...row].map((b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.')).join('');
    lines.push(`${at.toString(16).padStart(8, '0')}  ${left.padEnd(23)}  ${right.padEnd(23)}  |${ascii}|`);
  }
  return lines.join('\n');
}

export function base64(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

/**
 * How `bytes` are shown in `format`, or the reason they cannot be (`--format json` of data that is not JSON).
 * `hex` and `base64` show the bytes as stored; `auto`, `json` and `text` first inflate gzip data, saying so.
 */
export function viewData(bytes: Uint8Array, format: DataFormat = 'auto'): DataViewResult | { error: string } {
  if (format === 'hex') return { text: hexDump(bytes), view: 'hex', notes: [] };
  if (format === 'base64') return { text: base64(bytes), view: 'base64', notes: [] };
  const notes: string[] = [];
  let content = bytes;
  if (looksGzipped(bytes)) {
    const inflated = inflate(bytes);
    if (inflated === undefined) notes.push(`starts like gzip but does not inflate (damaged, or over ${MAX_INFLATED_BYTES} bytes); shown as stored`);
    else {
      notes.push(`gzip, ${bytes.length} bytes → ${inflated.length} bytes`);
      content = inflated;
    }
  }
  const text = isPrintableText(content) ? utf8Decode(content) : undefined;
  const json = text === undefined ? undefined : parseJsonDocument(text);
  if (format === 'json') {
    if (json === undefined) return { error: text === undefined ? 'the data is not text, so not JSON (try --format hex)' : 'the data is not a JSON object or array' };
    return { text: JSON.stringify(json, null, 2), view: 'json', notes };
  }
  if (format === 'text') {
    if (text === undefined) return { error: `the data (${content.length} bytes) is not printable UTF-8 text (try --format hex)` };
    return { text, view: 'text', notes };
  }
  if (json !== undefined) return { text: JSON.stringify(json, null, 2), view: 'json', notes };
  if (text !== undefined) return { text, view: 'text', notes };
  notes.push(`${content.length} byte(s) that are not text; shown as a hex dump`);
  return { text: hexDump(content), view: 'hex', notes };
}
