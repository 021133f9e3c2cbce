/** Identity: auth (100), sasl (102) and whoAmI (107). */

import type { JuteReader, JuteWriter } from '../jute.js';

/** The body of an auth request (xid -4): scheme and credentials. */
export interface AuthPacket {
  /** Always 0 in practice. */
  type: number;
  scheme: string | null;
  auth: Uint8Array | null;
}

/** The body of a SASL request. */
export interface GetSASLRequest {
  token: Uint8Array | null;
}

/** The body of a SASL reply. */
export interface SetSASLResponse {
  token: Uint8Array | null;
}

/** One identity in a whoAmI reply. */
export interface ClientInfo {
  authScheme: string | null;
  user: string | null;
}

/** The body of a whoAmI reply. */
export interface WhoAmIResponse {
  clientInfo: ClientInfo[] | null;
}

export function encodeAuthPacket(w: JuteWriter, v: AuthPacket): void {
  w.writeInt(v.type);
  w.writeString(v.scheme);
  w.writeBuffer(v.auth);
}

export function decodeAuthPacket(r: JuteReader): AuthPacket {
  return { type: r.readInt('AuthPacket.type'), scheme: r.readString('AuthPacket.scheme'), auth: r.readBuffer('AuthPacket.auth') };
}

export function encodeGetSASLRequest(w: JuteWriter, v: GetSASLRequest): void {
  w.writeBuffer(v.token);
}

export function decodeGetSASLRequest(r: JuteReader): GetSASLRequest {
  return { token: r.readBuffer('GetSASLRequest.token') };
}

export function encodeSetSASLResponse(w: JuteWriter, v: SetSASLResponse): void {
  w.writeBuffer(v.token);
}

export function decodeSetSASLResponse(r: JuteReader): SetSASLResponse {
  return { token: r.readBuffer('SetSASLResponse.token') };
}

export function encodeClientInfo(w: JuteWriter, v: ClientInfo): void {
  w.writeString(v.authScheme);
  w.writeString(v.user);
}

export function decodeClientInfo(r: JuteReader): ClientInfo {
  return { authScheme: r.readString('ClientInfo.authScheme'), user: r.readString('ClientInfo.user') };
}

export function encodeWhoAmIResponse(w: JuteWriter, v: WhoAmIResponse): void {
  w.writeVector(v.clientInfo, encodeClientInfo);
}

export function decodeWhoAmIResponse(r: JuteReader): WhoAmIResponse {
  return { clientInfo: r.readVector(decodeClientInfo, 'WhoAmIResponse.clientInfo') };
}
