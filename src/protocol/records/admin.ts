/** reconfig (16) and ErrorResponse (addWatch's reply body and the failed-op result inside multi). */

import type { JuteReader, JuteWriter } from '../jute.js';

/** The body of a reconfig request. */
export interface ReconfigRequest {
  joiningServers: string | null;
  leavingServers: string | null;
  newMembers: string | null;
  curConfigId: bigint;
}

/** An error code as a body: addWatch's reply, and a failed op's result inside a multi. */
export interface ErrorResponse {
  err: number;
}

export function encodeReconfigRequest(w: JuteWriter, v: ReconfigRequest): void {
  w.writeString(v.joiningServers);
  w.writeString(v.leavingServers);
  w.writeString(v.newMembers);
  w.writeLong(v.curConfigId);
}

export function decodeReconfigRequest(r: JuteReader): ReconfigRequest {
  return {
    joiningServers: r.readString('ReconfigRequest.joiningServers'),
    leavingServers: r.readString('ReconfigRequest.leavingServers'),
    newMembers: r.readString('ReconfigRequest.newMembers'),
    curConfigId: r.readLong('ReconfigRequest.curConfigId'),
  };
}

export function encodeErrorResponse(w: JuteWriter, v: ErrorResponse): void {
  w.writeInt(v.err);
}

export function decodeErrorResponse(r: JuteReader): ErrorResponse {
  return { err: r.readInt('ErrorResponse.err') };
}
