/**
 * Permissions on the in-memory server, by ZooKeeper's rules: the ACL schemes `world` (only `anyone`), `auth`
 * (stands for every identity the connection authenticated with), `digest` (`user:BASE64(SHA1(user:password))`)
 * and `ip` (an address, optionally `/bits`); `super` is not a scheme an ACL may name. A connection holds the
 * identities it authenticated with: `ip:127.0.0.1` from the start, `digest:user:…` after an `addAuth('digest', …)`.
 */

import type { ACL, Id } from '../../protocol/records/acl.js';
import { utf8Decode, utf8Encode } from '../../protocol/utf8.js';
import { base64, sha1 } from '../../util/sha1.js';
import { fail } from './keeper-error.js';

/** The address every in-memory connection comes from (its `ip` identity). */
export const CLIENT_ADDRESS = '127.0.0.1';

/** The identity an `addAuth('digest', 'user:password')` gives (DigestAuthenticationProvider.generateDigest). */
export function digestIdentity(auth: Uint8Array): Id {
  const text = utf8Decode(auth);
  const user = text.split(':', 1)[0] ?? '';
  return { scheme: 'digest', id: `${user}:${base64(sha1(utf8Encode(text)))}` };
}

/** The user whoAmI reports for an identity: a digest id's user part, an ip id as is. */
export function userOf(id: Id): string {
  return id.scheme === 'digest' ? (id.id.split(':', 1)[0] ?? '') : id.id;
}

function parseIpv4(text: string): number[] | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  const bytes = parts.map((p) => (/^\d{1,3}$/.test(p) ? Number(p) : NaN));
  return bytes.every((b) => b >= 0 && b <= 255) ? bytes : undefined;
}

/** An `ip` ACL id: `a.b.c.d` or `a.b.c.d/bits` (IPv4 only here). */
function parseIpAcl(id: string): { bytes: number[]; bits: number } | undefined {
  const [address = '', bitsText] = id.split('/', 2);
  const bytes = parseIpv4(address);
  const bits = bitsText === undefined ? 32 : /^\d+$/.test(bitsText) ? Number(bitsText) : NaN;
  if (bytes === undefined || !(bits >= 0 && bits <= 32)) return undefined;
  return { bytes, bits };
}

function ipMatches(aclId: string, address: string): boolean {
  const acl = parseIpAcl(aclId);
  const addr = parseIpv4(address);
  if (acl === undefined || addr === undefined) return false;
  for (let bit = 0; bit < acl.bits; bit++) {
    const byte = bit >> 3;
    const mask = 0x80 >> (bit & 7);
    if (((acl.bytes[byte]! ^ addr[byte]!) & mask) !== 0) return false;
  }
  return true;
}

/** Whether an ACL id is well formed for its scheme (the providers' isValid). */
function isValidId(id: Id): boolean {
  switch (id.scheme) {
    case 'digest':
      return id.id.split(':').length === 2;
    case 'ip':
      return parseIpAcl(id.id) !== undefined;
    default:
      return false;
  }
}

/**
 * The ACL a create or setACL stores (PrepRequestProcessor.fixupACL): `auth` entries become the connection's
 * identities; an empty list, an unknown scheme, a malformed id or an `auth` entry with no identity to stand for
 * is INVALIDACL. Duplicates are dropped.
 */
export function fixupAcl(acl: readonly ACL[] | null, identities: readonly Id[]): ACL[] {
  if (acl === null || acl.length === 0) fail('INVALIDACL');
  const out: ACL[] = [];
  const push = (entry: ACL): void => {
    if (!out.some((e) => e.perms === entry.perms && e.id.scheme === entry.id.scheme && e.id.id === entry.id.id)) out.push(entry);
  };
  for (const entry of acl) {
    if (entry.id.scheme === 'world' && entry.id.id === 'anyone') {
      push(entry);
    } else if (entry.id.scheme === 'auth') {
      const authenticated = identities.filter((id) => id.scheme === 'digest');
      if (authenticated.length === 0) fail('INVALIDACL');
      for (const id of authenticated) push({ perms: entry.perms, id });
    } else if (isValidId(entry.id)) {
      push(entry);
    } else {
      fail('INVALIDACL');
    }
  }
  return out;
}

/** NOAUTH unless one entry of `acl` grants one of the bits of `perm` to an identity of the connection. */
export function checkAcl(acl: readonly ACL[], perm: number, identities: readonly Id[], superUser: boolean): void {
  if (superUser || acl.length === 0) return;
  for (const entry of acl) {
    if ((entry.perms & perm) === 0) continue;
    const { scheme, id } = entry.id;
    if (scheme === 'world' && id === 'anyone') return;
    for (const mine of identities) {
      if (mine.scheme !== scheme) continue;
      if (scheme === 'digest' && mine.id === id) return;
      if (scheme === 'ip' && ipMatches(id, mine.id)) return;
    }
  }
  fail('NOAUTH');
}
