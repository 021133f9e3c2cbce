/** Id and ACL: who may do what on a znode. Used by create, getACL and setACL. */

import type { JuteReader, JuteWriter } from '../jute.js';

/** An identity under an auth scheme (`world:anyone`, `digest:user:hash`, `ip:addr`). */
export interface Id {
  scheme: string | null;
  id: string | null;
}

/** One ACL entry: permission bits granted to an identity. */
export interface ACL {
  perms: number;
  id: Id;
}

export function encodeId(w: JuteWriter, v: Id): void {
  w.writeString(v.scheme);
  w.writeString(v.id);
}

export function decodeId(r: JuteReader): Id {
  return { scheme: r.readString('Id.scheme'), id: r.readString('Id.id') };
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
