/** The create family: create (1), create2 (15), createContainer (19) and createTTL (21) and their replies. */

import type { JuteReader, JuteWriter } from '../jute.js';
import { decodeACLVector, encodeACLVector, type ACL } from './acl.js';
import { decodeStat, encodeStat, type Stat } from './stat.js';

/** Used by create, create2 and createContainer (flags carry the CreateMode). */
export interface CreateRequest {
  path: string | null;
  data: Uint8Array | null;
  acl: ACL[] | null;
  flags: number;
}

export interface CreateTTLRequest extends CreateRequest {
  ttl: bigint;
}

/** The body of a create reply: the created path. */
export interface CreateResponse {
  path: string | null;
}

/** The reply of create2, createContainer and createTTL. */
export interface Create2Response {
  path: string | null;
  stat: Stat;
}

export function encodeCreateRequest(w: JuteWriter, v: CreateRequest): void {
  w.writeString(v.path);
  w.writeBuffer(v.data);
  encodeACLVector(w, v.acl);
  w.writeInt(v.flags);
}

export function decodeCreateRequest(r: JuteReader): CreateRequest {
  return {
    path: r.readString('CreateRequest.path'),
    data: r.readBuffer('CreateRequest.data'),
    acl: decodeACLVector(r),
    flags: r.readInt('CreateRequest.flags'),
  };
}

export function encodeCreateTTLRequest(w: JuteWriter, v: CreateTTLRequest): void {
  encodeCreateRequest(w, v);
  w.writeLong(v.ttl);
}

export function decodeCreateTTLRequest(r: JuteReader): CreateTTLRequest {
  return {
    path: r.readString('CreateTTLRequest.path'),
    data: r.readBuffer('CreateTTLRequest.data'),
    acl: decodeACLVector(r),
    flags: r.readInt('CreateTTLRequest.flags'),
    ttl: r.readLong('CreateTTLRequest.ttl'),
  };
}

export function encodeCreateResponse(w: JuteWriter, v: CreateResponse): void {
  w.writeString(v.path);
}

export function decodeCreateResponse(r: JuteReader): CreateResponse {
  return { path: r.readString('CreateResponse.path') };
}

export function encodeCreate2Response(w: JuteWriter, v: Create2Response): void {
  w.writeString(v.path);
  encodeStat(w, v.stat);
}

export function decodeCreate2Response(r: JuteReader): Create2Response {
  return { path: r.readString('Create2Response.path'), stat: decodeStat(r) };
}
