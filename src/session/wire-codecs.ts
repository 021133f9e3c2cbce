/**
 * The client's half of the opcode table: how the session writes each request it may send and reads the reply to
 * it. The protocol's full table (src/protocol/ops.ts) also decodes requests, encodes replies and names every record,
 * which the frame describer, the re-encoding check and fake servers need; a client never does, so the session
 * keeps to this half and an application's bundle carries no server-side codec.
 */

import {
  decodeCreate2Response,
  decodeCreateResponse,
  decodeErrorResponse,
  decodeExistsResponse,
  decodeGetACLResponse,
  decodeGetAllChildrenNumberResponse,
  decodeGetChildren2Response,
  decodeGetChildrenResponse,
  decodeGetDataResponse,
  decodeGetEphemeralsResponse,
  decodeMultiResponse,
  decodeSetACLResponse,
  decodeSetDataResponse,
  decodeSetSASLResponse,
  decodeSyncResponse,
  decodeWhoAmIResponse,
  encodeAddWatchRequest,
  encodeAuthPacket,
  encodeCheckVersionRequest,
  encodeCheckWatchesRequest,
  encodeCreateRequest,
  encodeCreateTTLRequest,
  encodeDeleteRequest,
  encodeExistsRequest,
  encodeGetACLRequest,
  encodeGetAllChildrenNumberRequest,
  encodeGetChildren2Request,
  encodeGetChildrenRequest,
  encodeGetDataRequest,
  encodeGetEphemeralsRequest,
  encodeGetSASLRequest,
  encodeMultiRequest,
  encodeReconfigRequest,
  encodeRemoveWatchesRequest,
  encodeRequestHeader,
  encodeSetACLRequest,
  encodeSetDataRequest,
  encodeSetWatches,
  encodeSetWatches2,
  encodeSyncRequest,
  JuteEncodeError,
  OpCode,
  type JuteReader,
  type JuteWriter,
  type RequestHeader,
} from '../protocol/index.js';

// Bodies of different records share the tables (hence `any`); the client's `send` types what goes with each opcode.
type Encode = (w: JuteWriter, body: any) => void;
type Decode = (r: JuteReader) => unknown;

/** Request records by opcode; an opcode absent here is sent as a bare header (ping, whoAmI, closeSession). */
const REQUESTS = new Map<number, Encode>([
  [OpCode.create, encodeCreateRequest],
  [OpCode.create2, encodeCreateRequest],
  [OpCode.createContainer, encodeCreateRequest],
  [OpCode.createTTL, encodeCreateTTLRequest],
  [OpCode.delete, encodeDeleteRequest],
  [OpCode.exists, encodeExistsRequest],
  [OpCode.getData, encodeGetDataRequest],
  [OpCode.setData, encodeSetDataRequest],
  [OpCode.getACL, encodeGetACLRequest],
  [OpCode.setACL, encodeSetACLRequest],
  [OpCode.getChildren, encodeGetChildrenRequest],
  [OpCode.getChildren2, encodeGetChildren2Request],
  [OpCode.sync, encodeSyncRequest],
  [OpCode.check, encodeCheckVersionRequest],
  [OpCode.multi, encodeMultiRequest],
  [OpCode.multiRead, encodeMultiRequest],
  [OpCode.reconfig, encodeReconfigRequest],
  [OpCode.checkWatches, encodeCheckWatchesRequest],
  [OpCode.removeWatches, encodeRemoveWatchesRequest],
  [OpCode.addWatch, encodeAddWatchRequest],
  [OpCode.auth, encodeAuthPacket],
  [OpCode.setWatches, encodeSetWatches],
  [OpCode.setWatches2, encodeSetWatches2],
  [OpCode.sasl, encodeGetSASLRequest],
  [OpCode.getEphemerals, encodeGetEphemeralsRequest],
  [OpCode.getAllChildrenNumber, encodeGetAllChildrenNumberRequest],
]);

/** Success-reply records by opcode; an opcode absent here is answered by a bare header. */
const REPLIES = new Map<number, Decode>([
  [OpCode.create, decodeCreateResponse],
  [OpCode.create2, decodeCreate2Response],
  [OpCode.createContainer, decodeCreate2Response],
  [OpCode.createTTL, decodeCreate2Response],
  [OpCode.exists, decodeExistsResponse],
  [OpCode.getData, decodeGetDataResponse],
  [OpCode.setData, decodeSetDataResponse],
  [OpCode.getACL, decodeGetACLResponse],
  [OpCode.setACL, decodeSetACLResponse],
  [OpCode.getChildren, decodeGetChildrenResponse],
  [OpCode.getChildren2, decodeGetChildren2Response],
  [OpCode.sync, decodeSyncResponse],
  [OpCode.multi, decodeMultiResponse],
  [OpCode.multiRead, decodeMultiResponse],
  [OpCode.reconfig, decodeGetDataResponse],
  [OpCode.addWatch, decodeErrorResponse],
  [OpCode.sasl, decodeSetSASLResponse],
  [OpCode.getEphemerals, decodeGetEphemeralsResponse],
  [OpCode.getAllChildrenNumber, decodeGetAllChildrenNumberResponse],
  [OpCode.whoAmI, decodeWhoAmIResponse],
]);

/** Appends one whole request frame (length prefix, RequestHeader, then the body of `header.type`'s record). */
export function writeRequest(w: JuteWriter, header: RequestHeader, body: unknown): void {
  const encode = REQUESTS.get(header.type);
  if (encode === undefined && body !== undefined) throw new JuteEncodeError(`opcode ${header.type} carries no request body`);
  if (encode !== undefined && body === undefined) throw new JuteEncodeError(`opcode ${header.type} needs a request body`);
  const mark = w.beginFrame();
  encodeRequestHeader(w, header);
  encode?.(w, body);
  w.endFrame(mark);
}

/** Reads the body of a successful reply to `opcode`: undefined when the reply is a bare header. */
export function readReply(opcode: number, r: JuteReader): unknown {
  return REPLIES.get(opcode)?.(r);
}
