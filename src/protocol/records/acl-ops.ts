/** getACL (6) and setACL (7). */

import type { JuteReader, JuteWriter } from '../jute.js';
import { decodeACLVector, encodeACLVector, type ACL } from './acl.js';
import { decodeStat, encodeStat, type Stat } from './stat.js';

/** The body of a getACL request. */
export interface GetACLRequest {
  path: string | null;
}

/** The body of a getACL reply. */
export interface GetACLResponse {
  acl: ACL[] | null;
  stat: Stat;
}

/** The body of a setACL request. */
export interface SetACLRequest {
  path: string | null;
  acl: ACL[] | null;
  /** Expected aversion, -1 = any. */
  version: number;
}

/** The body of a setACL reply. */
export interface SetACLResponse {
  stat: Stat;
}

export function encodeGetACLRequest(w: JuteWriter, v: GetACLRequest): void {
  w.writeString(v.path);
}

export function decodeGetACLRequest(r: JuteReader): GetACLRequest {
  return { path: r.readString('GetACLRequest.path') };
}

export function encodeGetACLResponse(w: JuteWriter, v: GetACLResponse): void {
  encodeACLVector(w, v.acl);
  encodeStat(w, v.stat);
}

export function decodeGetACLResponse(r: JuteReader): GetACLResponse {
  return { acl: decodeACLVector(r), stat: decodeStat(r) };
}

export function encodeSetACLRequest(w: JuteWriter, v: SetACLRequest): void {
  w.writeString(v.path);
  encodeACLVector(w, v.acl);
  w.writeInt(v.version);
}

export function decodeSetACLRequest(r: JuteReader): SetACLRequest {
  return { path: r.readString('SetACLRequest.path'), acl: decodeACLVector(r), version: r.readInt('SetACLRequest.version') };
}

export function encodeSetACLResponse(w: JuteWriter, v: SetACLResponse): void {
  encodeStat(w, v.stat);
}

export function decodeSetACLResponse(r: JuteReader): SetACLResponse {
  return { stat: decodeStat(r) };
}
