/**
 * ACL helpers: permission bits, the standard lists, and ZooKeeper's digest identity.
 */

import { Perms } from '../protocol/opcodes.js';
import type { ACL, Id } from '../protocol/records/acl.js';
import { utf8Encode } from '../protocol/utf8.js';
import { base64, sha1 } from '../util/sha1.js';

export { Perms };
// The one ACL/Id type: the codec's records are readonly and never null, so the client hands them out as they are.
export type { ACL, Id };

/** world:anyone may do anything. */
export const OPEN_ACL_UNSAFE: readonly ACL[] = Object.freeze([{ perms: Perms.ALL, id: { scheme: 'world', id: 'anyone' } }]);
/** Every permission for the identities the creating connection authenticated with (needs addAuth first). */
export const CREATOR_ALL_ACL: readonly ACL[] = Object.freeze([{ perms: Perms.ALL, id: { scheme: 'auth', id: '' } }]);
/** world:anyone may read. */
export const READ_ACL_UNSAFE: readonly ACL[] = Object.freeze([{ perms: Perms.READ, id: { scheme: 'world', id: 'anyone' } }]);

/**
 * The id a digest ACL needs for `user:password`: `user:BASE64(SHA1("user:password"))`, exactly what
 * ZooKeeper's DigestAuthenticationProvider derives when that user authenticates.
 */
export function digestId(user: string, password: string): string {
  return `${user}:${base64(sha1(utf8Encode(`${user}:${password}`)))}`;
}

/** A digest ACL entry for `user:password` with the given permissions. */
export function digestAcl(user: string, password: string, perms: number = Perms.ALL): ACL {
  return { perms, id: { scheme: 'digest', id: digestId(user, password) } };
}
