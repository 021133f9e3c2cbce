/** Every record type with a generator for its values, used by the round-trip and truncation tests. */

import * as p from '../../src/protocol/index.js';
import type { JuteReader, JuteWriter } from '../../src/protocol/index.js';
import { Gen } from './generators.js';

export interface RecordCase {
  name: string;
  gen(g: Gen): unknown;
  encode(w: JuteWriter, v: never): void;
  decode(r: JuteReader): unknown;
  /** True when some strict prefixes are themselves valid encodings (trailing optional fields, opaque bytes). */
  prefixMayDecode?: boolean;
}

function c<T>(name: string, gen: (g: Gen) => T, encode: (w: JuteWriter, v: T) => void, decode: (r: JuteReader) => T, prefixMayDecode = false): RecordCase {
  return { name, gen, encode: encode as (w: JuteWriter, v: never) => void, decode, prefixMayDecode };
}

const MULTI_OP_TYPES = [1, 15, 19, 21, 2, 5, 13, 4, 8] as const;
const MULTI_RESULT_TYPES = [1, 15, 2, 13, 5, 4, 8, -1] as const;

export function multiOpBody(g: Gen, type: number): p.MultiOpRequest {
  switch (type) {
    case 21:
      return { path: g.string(), data: g.buffer(), acl: g.aclVector(), flags: g.int(), ttl: g.long() };
    case 1:
    case 15:
    case 19:
      return { path: g.string(), data: g.buffer(), acl: g.aclVector(), flags: g.int() };
    case 2:
    case 13:
      return { path: g.string(), version: g.int() };
    case 5:
      return { path: g.string(), data: g.buffer(), version: g.int() };
    default:
      return { path: g.string(), watch: g.bool() };
  }
}

export function multiResultBody(g: Gen, type: number): p.MultiResultBody | null {
  switch (type) {
    case 1:
      return { path: g.string() };
    case 15:
      return { path: g.string(), stat: g.stat() };
    case 5:
      return { stat: g.stat() };
    case 4:
      return { data: g.buffer(), stat: g.stat() };
    case 8:
      return { children: g.stringVector() };
    case -1:
      return { err: g.int() };
    default:
      return null;
  }
}

export function genMultiRequest(g: Gen): p.MultiRequest {
  const n = g.below(5);
  const ops = Array.from({ length: n }, () => {
    const type = g.pick(MULTI_OP_TYPES);
    return { header: g.multiHeader(type), body: multiOpBody(g, type) };
  });
  return { ops, end: { type: g.int(), done: true, err: g.int() } };
}

export function genMultiResponse(g: Gen): p.MultiResponse {
  const n = g.below(5);
  const results = Array.from({ length: n }, () => {
    const type = g.pick(MULTI_RESULT_TYPES);
    return { header: g.multiHeader(type), body: multiResultBody(g, type) };
  });
  return { results, end: { type: g.int(), done: true, err: g.int() } };
}

export const RECORD_CASES: RecordCase[] = [
  c('Stat', (g) => g.stat(), p.encodeStat, p.decodeStat),
  c('Id', (g) => g.id(), p.encodeId, p.decodeId),
  c('ACL', (g) => g.acl(), p.encodeACL, p.decodeACL),
  c(
    'ConnectRequest',
    (g): p.ConnectRequest => {
      const v: p.ConnectRequest = { protocolVersion: g.int(), lastZxidSeen: g.long(), timeOut: g.int(), sessionId: g.long(), passwd: g.buffer() };
      if (g.bool()) v.readOnly = g.bool();
      return v;
    },
    p.encodeConnectRequest,
    p.decodeConnectRequest,
    true,
  ),
  c(
    'ConnectResponse',
    (g): p.ConnectResponse => {
      const v: p.ConnectResponse = { protocolVersion: g.int(), timeOut: g.int(), sessionId: g.long(), passwd: g.buffer() };
      if (g.bool()) v.readOnly = g.bool();
      return v;
    },
    p.encodeConnectResponse,
    p.decodeConnectResponse,
    true,
  ),
  c('RequestHeader', (g) => ({ xid: g.int(), type: g.int() }), p.encodeRequestHeader, p.decodeRequestHeader),
  c('ReplyHeader', (g) => ({ xid: g.int(), zxid: g.long(), err: g.int() }), p.encodeReplyHeader, p.decodeReplyHeader),
  c('WatcherEvent', (g) => ({ type: g.int(), state: g.int(), path: g.string() }), p.encodeWatcherEvent, p.decodeWatcherEvent),
  c('CreateRequest', (g) => ({ path: g.string(), data: g.buffer(), acl: g.aclVector(), flags: g.int() }), p.encodeCreateRequest, p.decodeCreateRequest),
  c(
    'CreateTTLRequest',
    (g) => ({ path: g.string(), data: g.buffer(), acl: g.aclVector(), flags: g.int(), ttl: g.long() }),
    p.encodeCreateTTLRequest,
    p.decodeCreateTTLRequest,
  ),
  c('CreateResponse', (g) => ({ path: g.string() }), p.encodeCreateResponse, p.decodeCreateResponse),
  c('Create2Response', (g) => ({ path: g.string(), stat: g.stat() }), p.encodeCreate2Response, p.decodeCreate2Response),
  c('DeleteRequest', (g) => ({ path: g.string(), version: g.int() }), p.encodeDeleteRequest, p.decodeDeleteRequest),
  c('ExistsRequest', (g) => ({ path: g.string(), watch: g.bool() }), p.encodeExistsRequest, p.decodeExistsRequest),
  c('ExistsResponse', (g) => ({ stat: g.stat() }), p.encodeExistsResponse, p.decodeExistsResponse),
  c('GetDataRequest', (g) => ({ path: g.string(), watch: g.bool() }), p.encodeGetDataRequest, p.decodeGetDataRequest),
  c('GetDataResponse', (g) => ({ data: g.buffer(), stat: g.stat() }), p.encodeGetDataResponse, p.decodeGetDataResponse),
  c('SetDataRequest', (g) => ({ path: g.string(), data: g.buffer(), version: g.int() }), p.encodeSetDataRequest, p.decodeSetDataRequest),
  c('SetDataResponse', (g) => ({ stat: g.stat() }), p.encodeSetDataResponse, p.decodeSetDataResponse),
  c('SyncRequest', (g) => ({ path: g.string() }), p.encodeSyncRequest, p.decodeSyncRequest),
  c('SyncResponse', (g) => ({ path: g.string() }), p.encodeSyncResponse, p.decodeSyncResponse),
  c('CheckVersionRequest', (g) => ({ path: g.string(), version: g.int() }), p.encodeCheckVersionRequest, p.decodeCheckVersionRequest),
  c('GetChildrenRequest', (g) => ({ path: g.string(), watch: g.bool() }), p.encodeGetChildrenRequest, p.decodeGetChildrenRequest),
  c('GetChildrenResponse', (g) => ({ children: g.stringVector() }), p.encodeGetChildrenResponse, p.decodeGetChildrenResponse),
  c('GetChildren2Request', (g) => ({ path: g.string(), watch: g.bool() }), p.encodeGetChildren2Request, p.decodeGetChildren2Request),
  c('GetChildren2Response', (g) => ({ children: g.stringVector(), stat: g.stat() }), p.encodeGetChildren2Response, p.decodeGetChildren2Response),
  c('GetEphemeralsRequest', (g) => ({ prefixPath: g.string() }), p.encodeGetEphemeralsRequest, p.decodeGetEphemeralsRequest),
  c('GetEphemeralsResponse', (g) => ({ ephemerals: g.stringVector() }), p.encodeGetEphemeralsResponse, p.decodeGetEphemeralsResponse),
  c('GetAllChildrenNumberRequest', (g) => ({ path: g.string() }), p.encodeGetAllChildrenNumberRequest, p.decodeGetAllChildrenNumberRequest),
  c('GetAllChildrenNumberResponse', (g) => ({ totalNumber: g.int() }), p.encodeGetAllChildrenNumberResponse, p.decodeGetAllChildrenNumberResponse),
  c('GetACLRequest', (g) => ({ path: g.string() }), p.encodeGetACLRequest, p.decodeGetACLRequest),
  c('GetACLResponse', (g) => ({ acl: g.aclVector(), stat: g.stat() }), p.encodeGetACLResponse, p.decodeGetACLResponse),
  c('SetACLRequest', (g) => ({ path: g.string(), acl: g.aclVector(), version: g.int() }), p.encodeSetACLRequest, p.decodeSetACLRequest),
  c('SetACLResponse', (g) => ({ stat: g.stat() }), p.encodeSetACLResponse, p.decodeSetACLResponse),
  c('CheckWatchesRequest', (g) => ({ path: g.string(), type: g.int() }), p.encodeCheckWatchesRequest, p.decodeCheckWatchesRequest),
  c('RemoveWatchesRequest', (g) => ({ path: g.string(), type: g.int() }), p.encodeRemoveWatchesRequest, p.decodeRemoveWatchesRequest),
  c('AddWatchRequest', (g) => ({ path: g.string(), mode: g.int() }), p.encodeAddWatchRequest, p.decodeAddWatchRequest),
  c(
    'SetWatches',
    (g) => ({ relativeZxid: g.long(), dataWatches: g.stringVector(), existWatches: g.stringVector(), childWatches: g.stringVector() }),
    p.encodeSetWatches,
    p.decodeSetWatches,
  ),
  c(
    'SetWatches2',
    (g) => ({
      relativeZxid: g.long(),
      dataWatches: g.stringVector(),
      existWatches: g.stringVector(),
      childWatches: g.stringVector(),
      persistentWatches: g.stringVector(),
      persistentRecursiveWatches: g.stringVector(),
    }),
    p.encodeSetWatches2,
    p.decodeSetWatches2,
  ),
  c('AuthPacket', (g) => ({ type: g.int(), scheme: g.string(), auth: g.buffer() }), p.encodeAuthPacket, p.decodeAuthPacket),
  c('GetSASLRequest', (g) => ({ token: g.buffer() }), p.encodeGetSASLRequest, p.decodeGetSASLRequest),
  c('SetSASLResponse', (g) => ({ token: g.buffer() }), p.encodeSetSASLResponse, p.decodeSetSASLResponse),
  c('ClientInfo', (g) => ({ authScheme: g.string(), user: g.string() }), p.encodeClientInfo, p.decodeClientInfo),
  c('WhoAmIResponse', (g) => ({ clientInfo: g.vector(() => ({ authScheme: g.string(), user: g.string() })) }), p.encodeWhoAmIResponse, p.decodeWhoAmIResponse),
  c(
    'ReconfigRequest',
    (g) => ({ joiningServers: g.string(), leavingServers: g.string(), newMembers: g.string(), curConfigId: g.long() }),
    p.encodeReconfigRequest,
    p.decodeReconfigRequest,
  ),
  c('ErrorResponse', (g) => ({ err: g.int() }), p.encodeErrorResponse, p.decodeErrorResponse),
  c('MultiHeader', (g) => ({ type: g.int(), done: g.bool(), err: g.int() }), p.encodeMultiHeader, p.decodeMultiHeader),
  c('MultiRequest', genMultiRequest, p.encodeMultiRequest, p.decodeMultiRequest),
  c('MultiResponse', genMultiResponse, p.encodeMultiResponse, p.decodeMultiResponse),
  c('OpaqueBody', (g) => new p.OpaqueBody(g.bytes()), p.encodeOpaqueBody, p.decodeOpaqueBody, true),
];

/** A request body generator per opcode (undefined = header-only request). */
export function genRequestBody(g: Gen, opcode: number): unknown {
  const byName = (name: string) => RECORD_CASES.find((r) => r.name === name)!.gen(g);
  const rec = p.requestRecordName(opcode);
  if (rec === null || rec === undefined) return undefined;
  if (rec === 'raw') {
    // An empty opaque body decodes as "no body"; keep at least one byte so the round trip is exact.
    const b = g.bytes();
    return new p.OpaqueBody(b.length > 0 ? b : new Uint8Array([1]));
  }
  return byName(rec);
}

/** A success-reply body generator per opcode (undefined = header-only reply). */
export function genResponseBody(g: Gen, opcode: number): unknown {
  const rec = p.responseRecordName(opcode);
  if (rec === null || rec === undefined) return undefined;
  return RECORD_CASES.find((r) => r.name === rec)!.gen(g);
}
