/**
 * The frame describer's two outputs: `toJsonValue`, which turns decoded records into the JSON shape of the golden
 * files' `decoded` field, and the one-line human summaries. The session's frame tracing, `zkwire decode` and the
 * decoding proxy all print frames through these, so a frame looks the same everywhere.
 */

import { errorName } from './error-codes.js';
import { hexEncode } from './hex.js';
import { AddWatchMode, CreateFlags, knownEventType, opName, Perms, WatcherType } from './opcodes.js';
import { OpaqueBody } from './records/opaque.js';
import { isValidUtf8, utf8Decode } from './utf8.js';

/** A JSON value, as JSON.parse returns it and toJsonValue produces it; the one JSON type of the package (also the discovery payloads'). */
export type JsonValue = null | boolean | number | string | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/**
 * bigint → decimal string, Uint8Array → {len, hex, text?} (text only when the bytes are valid UTF-8),
 * OpaqueBody → {raw: hex}, null stays null, properties whose value is undefined are left out.
 */
export function toJsonValue(value: unknown): JsonValue {
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case 'bigint':
      return value.toString();
    case 'string':
    case 'number':
    case 'boolean':
      return value;
    case 'object':
      break;
    default:
      return String(value);
  }
  if (value instanceof Uint8Array) return bufferJson(value);
  if (value instanceof OpaqueBody) return { raw: hexEncode(value.raw) };
  if (Array.isArray(value)) return value.map(toJsonValue);
  const out: { [key: string]: JsonValue } = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (v !== undefined) out[k] = toJsonValue(v);
  }
  return out;
}

function bufferJson(b: Uint8Array): JsonValue {
  const out: { [key: string]: JsonValue } = { len: b.length, hex: hexEncode(b) };
  // Decoded once: text without U+FFFD is valid UTF-8 (isValidUtf8 decodes too, only then compares).
  const text = utf8Decode(b);
  if (text.indexOf('\ufffd') === -1 || isValidUtf8(b)) out['text'] = text;
  return out;
}

/**
 * "0x…" for zxids and session ids, as ZooKeeper prints them (Long.toHexString): the 64 bits unsigned, so a session
 * id whose top bit is set (a server id of 128 or more) reads the same here as in the server's log, and -1 is
 * 0xffffffffffffffff.
 */
export function hexId(v: bigint): string {
  return `0x${BigInt.asUintN(64, v).toString(16)}`;
}

const SHORT = 32;

/** A short, printable rendering of node data: quoted text when it is readable, else hex. */
export function shortData(b: Uint8Array | null): string {
  if (b === null) return 'null';
  if (b.length === 0) return '""';
  // Most data is printable ASCII: then only the shown prefix needs decoding (a capture decoder calls this for every
  // reply, and decoding kilobytes to show 32 characters dominated its profile). Same result as the general path.
  if (isPrintableAscii(b)) {
    const cut = b.length > SHORT ? `${utf8Decode(b, 0, SHORT)}…` : utf8Decode(b);
    return `${JSON.stringify(cut)}(${b.length}B)`;
  }
  if (isValidUtf8(b)) {
    const s = utf8Decode(b);
    if (!/[\u0000-\u0008\u000e-\u001f\u007f]/.test(s)) {
      const cut = s.length > SHORT ? `${s.slice(0, SHORT)}…` : s;
      return `${JSON.stringify(cut)}(${b.length}B)`;
    }
  }
  const n = Math.min(b.length, SHORT / 2);
  return `0x${hexEncode(b, 0, n)}${b.length > n ? '…' : ''}(${b.length}B)`;
}

/** Tab to CR and space to '~' only: the characters the general path shows as text when they are all ASCII. */
function isPrintableAscii(b: Uint8Array): boolean {
  for (let i = 0; i < b.length; i++) {
    const c = b[i]!;
    if (c > 0x7e || (c < 0x20 && (c < 0x09 || c > 0x0d))) return false;
  }
  return true;
}

function list(items: readonly (string | null)[] | null, max = 5): string {
  if (items === null) return 'null';
  const shown = items.slice(0, max).map((s) => s ?? 'null');
  return `[${shown.join(', ')}${items.length > max ? `, …+${items.length - max}` : ''}]`;
}

/** A watch event type's name for display: `NodeCreated`, …, or `event(N)` for a number ZooKeeper does not define. */
export function eventTypeName(type: number): string {
  return knownEventType(type) ?? `event(${type})`;
}

/** The error name of a reply code: OK, NONODE, … or the bare number for codes ZooKeeper does not define. */
export function errName(err: number): string {
  return errorName(err) ?? String(err);
}

type Rec = Record<string, unknown>;

function isRec(v: unknown): v is Rec {
  return typeof v === 'object' && v !== null && !(v instanceof Uint8Array);
}

function statShort(stat: unknown): string {
  if (!isRec(stat)) return '';
  return `v${String(stat['version'])} mzxid=${typeof stat['mzxid'] === 'bigint' ? hexId(stat['mzxid']) : '?'}`;
}

/** A number's name in one of the protocol's enumerations (as ZooKeeper's Java names spell it), else the number. */
function nameIn(table: Readonly<Record<string, number>>, n: number, spell: (key: string) => string): string {
  for (const [key, value] of Object.entries(table)) if (value === n) return spell(key);
  return String(n);
}

/** `persistentSequentialWithTTL` → `PERSISTENT_SEQUENTIAL_WITH_TTL` (CreateMode's Java names). */
const javaConstant = (key: string): string => key.replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase();

/** A create request's flags by CreateMode name, e.g. `EPHEMERAL_SEQUENTIAL`; an unknown value stays a number. */
export function createFlagsName(flags: number): string {
  return nameIn(CreateFlags, flags, javaConstant);
}

/** An addWatch mode by name: `PERSISTENT` or `PERSISTENT_RECURSIVE`. */
export function addWatchModeName(mode: number): string {
  return nameIn(AddWatchMode, mode, javaConstant);
}

/** A checkWatches/removeWatches watcher type by name: `CHILDREN`, `DATA`, `ANY`, … */
export function watcherTypeName(type: number): string {
  return nameIn(WatcherType, type, javaConstant);
}

/**
 * ACL permission bits as letters in zkCli's order, e.g. 31 → `cdrwa`, 1 → `r`; no bits → `-`; bits ZooKeeper
 * does not define are added as `+0x…`.
 */
export function permsText(perms: number): string {
  // The letters live here, not in a module-level table: a bundler keeps such a table (it reads Perms' properties)
  // in every application that imports this module for hexId, though only the describer ever calls permsText.
  const letters: readonly [number, string][] = [
    [Perms.CREATE, 'c'],
    [Perms.DELETE, 'd'],
    [Perms.READ, 'r'],
    [Perms.WRITE, 'w'],
    [Perms.ADMIN, 'a'],
  ];
  let text = '';
  for (const [bit, letter] of letters) if ((perms & bit) !== 0) text += letter;
  const unknown = perms & ~Perms.ALL;
  return (text === '' ? '-' : text) + (unknown === 0 ? '' : `+0x${unknown.toString(16)}`);
}

/** An ACL list as `[cdrwa world:anyone, r ip:10.0.0.1]`. */
function aclText(acl: unknown[]): string {
  return list(acl.filter(isRec).map((a) => `${typeof a['perms'] === 'number' ? permsText(a['perms']) : '?'} ${String((a['id'] as Rec)['scheme'])}:${String((a['id'] as Rec)['id'])}`));
}

/** The path a request or reply body is about, if it has one. */
export function bodyPath(body: unknown): string | undefined {
  if (!isRec(body)) return undefined;
  const p = body['path'] ?? body['prefixPath'];
  return typeof p === 'string' ? p : undefined;
}

/** One line for a request body (without the op name). Never prints auth secrets, only their size. */
export function summarizeRequestBody(op: string, body: unknown): string {
  if (body === undefined) return '';
  if (body instanceof OpaqueBody) return `raw ${body.raw.length}B`;
  if (!isRec(body)) return '';
  const parts: string[] = [];
  const path = bodyPath(body);
  if (path !== undefined) parts.push(path);
  if (Array.isArray(body['ops'])) {
    const ops = body['ops'] as Rec[];
    parts.push(`${ops.length} op(s) ${list(ops.map((o) => `${String(o['op'] ?? opName((o['header'] as Rec)['type'] as number))} ${bodyPath(o['body']) ?? ''}`.trim()))}`);
  }
  if ('data' in body && (body['data'] === null || body['data'] instanceof Uint8Array)) parts.push(`data=${shortData(body['data'])}`);
  if (typeof body['flags'] === 'number') parts.push(`flags=${createFlagsName(body['flags'])}`);
  if (typeof body['ttl'] === 'bigint') parts.push(`ttl=${body['ttl']}`);
  if (Array.isArray(body['acl'])) parts.push(`acl=${aclText(body['acl'] as unknown[])}`);
  if (typeof body['version'] === 'number') parts.push(`version=${body['version']}`);
  if (body['watch'] === true) parts.push('watch');
  if (typeof body['mode'] === 'number') parts.push(`mode=${addWatchModeName(body['mode'])}`);
  if (typeof body['type'] === 'number' && op !== 'auth') parts.push(`type=${watcherTypeName(body['type'])}`);
  if (op === 'auth') {
    const auth = body['auth'];
    parts.push(`scheme=${String(body['scheme'])} (${auth instanceof Uint8Array ? auth.length : 0}B credentials)`);
  }
  if (typeof body['relativeZxid'] === 'bigint') {
    parts.push(`relativeZxid=${hexId(body['relativeZxid'])}`);
    for (const k of ['dataWatches', 'existWatches', 'childWatches', 'persistentWatches', 'persistentRecursiveWatches']) {
      if (k in body) parts.push(`${k.replace('Watches', '')}=${list(body[k] as string[] | null, 3)}`);
    }
  }
  if (typeof body['newMembers'] === 'string' || typeof body['joiningServers'] === 'string') {
    parts.push(`joining=${String(body['joiningServers'])} leaving=${String(body['leavingServers'])} members=${String(body['newMembers'])}`);
  }
  return parts.join(' ');
}

/** One line for a successful reply body (without the op name). */
export function summarizeResponseBody(body: unknown): string {
  if (body === undefined) return '';
  if (body instanceof OpaqueBody) return `raw ${body.raw.length}B`;
  if (!isRec(body)) return '';
  const parts: string[] = [];
  if (typeof body['path'] === 'string') parts.push(body['path']);
  if ('data' in body && (body['data'] === null || body['data'] instanceof Uint8Array)) parts.push(`data=${shortData(body['data'])}`);
  if ('children' in body) parts.push(`children=${list(body['children'] as string[] | null)}`);
  if ('ephemerals' in body) parts.push(`ephemerals=${list(body['ephemerals'] as string[] | null)}`);
  if (typeof body['totalNumber'] === 'number') parts.push(`total=${body['totalNumber']}`);
  if ('acl' in body && Array.isArray(body['acl'])) {
    parts.push(`acl=${aclText(body['acl'] as unknown[])}`);
  }
  if ('clientInfo' in body && Array.isArray(body['clientInfo'])) {
    parts.push(`identities=${list((body['clientInfo'] as Rec[]).map((c) => `${String(c['authScheme'])}:${String(c['user'])}`))}`);
  }
  if ('token' in body) parts.push(`token=${shortData(body['token'] as Uint8Array | null)}`);
  if (typeof body['err'] === 'number') parts.push(`err=${errName(body['err'])}`);
  if (Array.isArray(body['results'])) {
    const results = body['results'] as Rec[];
    parts.push(
      `${results.length} result(s) ${list(results.map((r) => {
        const h = r['header'] as Rec;
        const op = String(r['op'] ?? opName(h['type'] as number));
        return op === 'error' ? `error ${errName(h['err'] as number)}` : `${op} ${bodyPath(r['body']) ?? ''}`.trim();
      }))}`,
    );
  }
  if ('stat' in body) parts.push(statShort(body['stat']));
  return parts.join(' ');
}
