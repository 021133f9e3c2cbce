/**
 * ConnectRequest / ConnectResponse: the first frame in each direction of every connection.
 *
 * Both end with a boolean readOnly that 3.4–3.8 treat as optional (the server omits it in its response when the
 * client omitted it). `readOnly` absent in the record means "the old layout without that byte", so a decode and
 * re-encode reproduce the bytes exactly.
 */

import type { JuteReader, JuteWriter } from '../jute.js';

/** The first frame a client sends: protocol version, last zxid seen, timeout, session id and password. */
export interface ConnectRequest {
  protocolVersion: number;
  lastZxidSeen: bigint;
  timeOut: number;
  sessionId: bigint;
  passwd: Uint8Array | null;
  readOnly?: boolean;
}

/** The server's answer to a ConnectRequest: negotiated timeout, session id and password. */
export interface ConnectResponse {
  protocolVersion: number;
  timeOut: number;
  sessionId: bigint;
  passwd: Uint8Array | null;
  readOnly?: boolean;
}

/** Writes a ConnectRequest (the trailing readOnly byte only when `readOnly` is set). */
export function encodeConnectRequest(w: JuteWriter, v: ConnectRequest): void {
  w.writeInt(v.protocolVersion);
  w.writeLong(v.lastZxidSeen);
  w.writeInt(v.timeOut);
  w.writeLong(v.sessionId);
  w.writeBuffer(v.passwd);
  if (v.readOnly !== undefined) w.writeBool(v.readOnly);
}

/** Reads a ConnectRequest; the readOnly byte is optional, as old clients omit it. */
export function decodeConnectRequest(r: JuteReader): ConnectRequest {
  const out: ConnectRequest = {
    protocolVersion: r.readInt('ConnectRequest.protocolVersion'),
    lastZxidSeen: r.readLong('ConnectRequest.lastZxidSeen'),
    timeOut: r.readInt('ConnectRequest.timeOut'),
    sessionId: r.readLong('ConnectRequest.sessionId'),
    passwd: r.readBuffer('ConnectRequest.passwd'),
  };
  if (r.remaining > 0) out.readOnly = r.readBool('ConnectRequest.readOnly');
  return out;
}

/** Writes a ConnectResponse (the trailing readOnly byte only when `readOnly` is set). */
export function encodeConnectResponse(w: JuteWriter, v: ConnectResponse): void {
  w.writeInt(v.protocolVersion);
  w.writeInt(v.timeOut);
  w.writeLong(v.sessionId);
  w.writeBuffer(v.passwd);
  if (v.readOnly !== undefined) w.writeBool(v.readOnly);
}

/** Accepts the 36-byte (no readOnly) and the 37-byte layout. */
export function decodeConnectResponse(r: JuteReader): ConnectResponse {
  const out: ConnectResponse = {
    protocolVersion: r.readInt('ConnectResponse.protocolVersion'),
    timeOut: r.readInt('ConnectResponse.timeOut'),
    sessionId: r.readLong('ConnectResponse.sessionId'),
    passwd: r.readBuffer('ConnectResponse.passwd'),
  };
  if (r.remaining > 0) out.readOnly = r.readBool('ConnectResponse.readOnly');
  return out;
}
