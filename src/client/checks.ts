/** Argument checks shared by the client and multi: refused with BAD_ARGUMENT before anything is sent. */

import { clientError } from '../errors.js';
import type { ACL } from './acl.js';

/** A znode version: -1 (any) or 0 … 2^31-1; anything else would be silently mangled by the int32 encoding. */
export function checkVersion(version: number | undefined, op: string, path: string): number {
  const v = version ?? -1;
  if (!Number.isInteger(v) || v < -1 || v > 0x7fffffff) {
    throw clientError('BAD_ARGUMENT', `version must be -1 or an integer from 0 to 2147483647, got ${String(v)}`, { op, path });
  }
  return v;
}

/** An ACL list must be a non-empty array (the server would answer INVALIDACL; the Java client refuses it too). */
export function checkAcl(acl: readonly ACL[], op: string, path: string): ACL[] {
  if (!Array.isArray(acl) || acl.length === 0) throw clientError('BAD_ARGUMENT', 'the ACL list must not be empty', { op, path });
  return [...acl];
}
