/** Id and ACL: who may do what on a znode. Used by create, getACL and setACL. */

import type { JuteReader, JuteWriter } from '../jute.js';

/** An identity under an auth scheme: `world:anyone`, `digest:user:base64(sha1)`, `ip:10.0.0.0/8`, `auth:`. */
export interface Id {
  readonly scheme: string;
  readonly id: string;
}

/** One ACL entry: the permissions (a sum of `Perms`) granted to an identity. */
export interface ACL {
  readonly perms: number;
  readonly id: Id;
}

export function encodeId(w: JuteWriter, v: Id): void {
  w.writeString(v.scheme);
  w.writeString(v.id);
}

/**
 * Jute lets a string be null (length -1), but an identity without a scheme or id means nothing, and ZooKeeper never
 * writes one: a null decodes as '' (as a null element of a string vector does), so every Id holds two strings.
 */
export function decodeId(r: JuteReader): Id {
  return { scheme: r.readString('Id.scheme') ?? '', id: r.readString('Id.id') ?? '' };
}

export function encodeACL(w: JuteWriter, v: ACL): void {
  w.writeInt(v.perms);
  encodeId(w, v.id);
}

export function decodeACL(r: JuteReader): ACL {
  return { perms: r.readInt('ACL.perms'), id: decodeId(r) };
}

/** vector<ACL>; null is distinct from empty on the wire (both are refused by the server, differently logged). */
export function encodeACLVector(w: JuteWriter, v: readonly ACL[] | null): void {
  w.writeVector(v, encodeACL);
}

export function decodeACLVector(r: JuteReader): ACL[] | null {
  return r.readVector(decodeACL, 'vector<ACL>');
}
