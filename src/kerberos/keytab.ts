/**
 * MIT's keytab file format (version 0x0502, the one ktutil and kadmin write; 0x0501 is the same in host byte order
 * and is refused): entries of principal, timestamp, key version and key, possibly with holes (negative sizes) left
 * by removed entries. We take the keys of one principal, the newest version of each encryption type.
 */

import { utf8Decode } from '../protocol/index.js';
import type { EncryptionKey } from './crypto/profile.js';
import { kerberosError } from './errors.js';
import { principalText, type Principal } from './messages/common.js';

export interface KeytabEntry {
  readonly principal: Principal;
  readonly kvno: number;
  readonly key: EncryptionKey;
}

export function parseKeytab(bytes: Uint8Array): KeytabEntry[] {
  const bad = (what: string): Error => kerberosError('BAD_CONFIG', `not a keytab (version 0x0502) file: ${what}`);
  if (bytes.length < 2 || bytes[0] !== 0x05 || bytes[1] !== 0x02) throw bad('wrong header');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  const entries: KeytabEntry[] = [];
  let at = 2;
  while (at + 4 <= bytes.length) {
    const size = view.getInt32(at);
    at += 4;
    if (size < 0) {
      at += -size;
      continue;
    }
    const end = at + size;
    if (end > bytes.length) throw bad('an entry runs past the end');
    let p = at;
    const u16 = (): number => {
      if (p + 2 > end) throw bad('truncated entry');
      const v = view.getUint16(p);
      p += 2;
      return v;
    };
    const str = (): string => {
      const n = u16();
      if (p + n > end) throw bad('truncated string');
      const s = utf8Decode(bytes, p, p + n);
      p += n;
      return s;
    };
    const count = u16();
    const realm = str();
    const names: string[] = [];
    for (let i = 0; i < count; i++) names.push(str());
    if (p + 9 > end) throw bad('truncated entry');
    const nameType = view.getUint32(p);
    p += 8; // name type, then the timestamp we do not need
    let kvno = bytes[p]!;
    p += 1;
    const etype = u16();
    const keyLength = u16();
    if (p + keyLength > end) throw bad('truncated key');
    const value = bytes.slice(p, p + keyLength);
    p += keyLength;
    // A 32-bit key version follows when the 8-bit one overflowed (and the entry has room for it).
    if (p + 4 <= end) {
      const wide = view.getUint32(p);
      if (wide !== 0) kvno = wide;
    }
    entries.push({ principal: { realm, name: { type: nameType, names } }, kvno, key: { etype, value } });
    at = end;
  }
  return entries;
}

/** The newest key of each encryption type that the keytab holds for `principal`. */
export function keysFor(entries: readonly KeytabEntry[], principal: Principal): EncryptionKey[] {
  const wanted = principalText(principal);
  const newest = new Map<number, KeytabEntry>();
  for (const e of entries) {
    if (principalText(e.principal) !== wanted) continue;
    const had = newest.get(e.key.etype);
    if (had === undefined || e.kvno > had.kvno) newest.set(e.key.etype, e);
  }
  return [...newest.values()].map((e) => e.key);
}
