/**
 * The opcode tables: which record a request of each opcode carries and which record its successful reply
 * carries (records named as in ZooKeeper's zookeeper.jute), plus whole-frame encoders for the session's hot path.
 *
 * Frame encoders append to a caller-owned JuteWriter (length prefix back-patched), so a session can coalesce
 * many frames into one write and reuse one writer: nothing here allocates per field.
 */

import type { JuteReader, JuteWriter } from './jute.js';
import { JuteEncodeError } from './encode-error.js';
import { OpCode, type OpName } from './opcodes.js';
import { decodeErrorResponse, decodeReconfigRequest, encodeErrorResponse, encodeReconfigRequest } from './records/admin.js';
import type { ErrorResponse, ReconfigRequest } from './records/admin.js';
import { decodeGetACLRequest, decodeGetACLResponse, decodeSetACLRequest, decodeSetACLResponse } from './records/acl-ops.js';
import { encodeGetACLRequest, encodeGetACLResponse, encodeSetACLRequest, encodeSetACLResponse } from './records/acl-ops.js';
import type { GetACLRequest, GetACLResponse, SetACLRequest, SetACLResponse } from './records/acl-ops.js';
import { decodeAuthPacket, decodeGetSASLRequest, decodeSetSASLResponse, decodeWhoAmIResponse } from './records/auth.js';
import { encodeAuthPacket, encodeGetSASLRequest, encodeSetSASLResponse, encodeWhoAmIResponse } from './records/auth.js';
import type { AuthPacket, GetSASLRequest, SetSASLResponse, WhoAmIResponse } from './records/auth.js';
import * as children from './records/children.js';
import type { GetAllChildrenNumberRequest, GetAllChildrenNumberResponse, GetChildren2Request } from './records/children.js';
import type { GetChildren2Response, GetChildrenRequest, GetChildrenResponse } from './records/children.js';
import type { GetEphemeralsRequest, GetEphemeralsResponse } from './records/children.js';
import { codec, type RecordCodec } from './records/codec.js';
import { encodeConnectRequest, encodeConnectResponse, type ConnectRequest, type ConnectResponse } from './records/connect.js';
import * as create from './records/create.js';
import type { Create2Response, CreateRequest, CreateResponse, CreateTTLRequest } from './records/create.js';
import { encodeReplyHeader, encodeRequestHeader, type ReplyHeader, type RequestHeader } from './records/headers.js';
import { decodeMultiRequest, decodeMultiResponse, encodeMultiRequest, encodeMultiResponse } from './records/multi.js';
import type { MultiRequest, MultiResponse } from './records/multi.js';
import * as node from './records/node-data.js';
import type { CheckVersionRequest, DeleteRequest, ExistsRequest, ExistsResponse } from './records/node-data.js';
import type { GetDataRequest, GetDataResponse, SetDataRequest, SetDataResponse, SyncRequest, SyncResponse } from './records/node-data.js';
import { decodeOpaqueBody, encodeOpaqueBody, OpaqueBody } from './records/opaque.js';
import * as watches from './records/watches.js';
import type { AddWatchRequest, CheckWatchesRequest, RemoveWatchesRequest, SetWatches, SetWatches2 } from './records/watches.js';
import { encodeWatcherEvent, type WatcherEvent } from './records/watcher-event.js';

/** Request body type per op name, for callers that want the compiler to check what they pass. */
export interface RequestBodyByOp {
  create: CreateRequest;
  delete: DeleteRequest;
  exists: ExistsRequest;
  getData: GetDataRequest;
  setData: SetDataRequest;
  getACL: GetACLRequest;
  setACL: SetACLRequest;
  getChildren: GetChildrenRequest;
  sync: SyncRequest;
  ping: undefined;
  getChildren2: GetChildren2Request;
  check: CheckVersionRequest;
  multi: MultiRequest;
  create2: CreateRequest;
  reconfig: ReconfigRequest;
  checkWatches: CheckWatchesRequest;
  removeWatches: RemoveWatchesRequest;
  createContainer: CreateRequest;
  deleteContainer: OpaqueBody;
  createTTL: CreateTTLRequest;
  multiRead: MultiRequest;
  auth: AuthPacket;
  setWatches: SetWatches;
  sasl: GetSASLRequest;
  getEphemerals: GetEphemeralsRequest;
  getAllChildrenNumber: GetAllChildrenNumberRequest;
  setWatches2: SetWatches2;
  addWatch: AddWatchRequest;
  whoAmI: undefined;
  closeSession: undefined;
}

/** Success reply body type per op name (undefined = header-only reply). */
export interface ResponseBodyByOp {
  create: CreateResponse;
  delete: undefined;
  exists: ExistsResponse;
  getData: GetDataResponse;
  setData: SetDataResponse;
  getACL: GetACLResponse;
  setACL: SetACLResponse;
  getChildren: GetChildrenResponse;
  sync: SyncResponse;
  ping: undefined;
  getChildren2: GetChildren2Response;
  check: undefined;
  multi: MultiResponse;
  create2: Create2Response;
  reconfig: GetDataResponse;
  checkWatches: undefined;
  removeWatches: undefined;
  createContainer: Create2Response;
  deleteContainer: undefined;
  createTTL: Create2Response;
  multiRead: MultiResponse;
  auth: undefined;
  setWatches: undefined;
  sasl: SetSASLResponse;
  getEphemerals: GetEphemeralsResponse;
  getAllChildrenNumber: GetAllChildrenNumberResponse;
  setWatches2: undefined;
  addWatch: ErrorResponse;
  whoAmI: WhoAmIResponse;
  closeSession: undefined;
}

/** One row of the table: null = no record (header only). */
export interface OpSpec {
  readonly code: number;
  readonly name: OpName;
  readonly request: RecordCodec<any> | null;
  readonly response: RecordCodec<any> | null;
}

/** The opaque row: also how decodeRequestBody tells a raw body from a record. */
const opaque: RecordCodec<OpaqueBody> = { name: 'raw', encode: encodeOpaqueBody, decode: decodeOpaqueBody };

// Built on first use: a module-level table would be a top-level statement a bundler must keep, and then every
// record's codec with it, in the bundle of an application that only ever sends requests (the session has its own
// half of the table, src/session/wire-codecs.ts).
let table: Map<number, OpSpec> | undefined;

function row(opcode: number): OpSpec | undefined {
  table ??= buildTable();
  return table.get(opcode);
}

function buildTable(): Map<number, OpSpec> {
  const createRequest = codec('CreateRequest', create.encodeCreateRequest, create.decodeCreateRequest);
  const create2Response = codec('Create2Response', create.encodeCreate2Response, create.decodeCreate2Response);
  const getDataResponse = codec('GetDataResponse', node.encodeGetDataResponse, node.decodeGetDataResponse);
  const multiRequest = codec('MultiRequest', encodeMultiRequest, decodeMultiRequest);
  const multiResponse = codec('MultiResponse', encodeMultiResponse, decodeMultiResponse);

  const rows: [OpName, RecordCodec<any> | null, RecordCodec<any> | null][] = [
    ['notification', null, null],
    ['create', createRequest, codec('CreateResponse', create.encodeCreateResponse, create.decodeCreateResponse)],
    ['delete', codec('DeleteRequest', node.encodeDeleteRequest, node.decodeDeleteRequest), null],
    [
      'exists',
      codec('ExistsRequest', node.encodeExistsRequest, node.decodeExistsRequest),
      codec('ExistsResponse', node.encodeExistsResponse, node.decodeExistsResponse),
    ],
    ['getData', codec('GetDataRequest', node.encodeGetDataRequest, node.decodeGetDataRequest), getDataResponse],
    [
      'setData',
      codec('SetDataRequest', node.encodeSetDataRequest, node.decodeSetDataRequest),
      codec('SetDataResponse', node.encodeSetDataResponse, node.decodeSetDataResponse),
    ],
    ['getACL', codec('GetACLRequest', encodeGetACLRequest, decodeGetACLRequest), codec('GetACLResponse', encodeGetACLResponse, decodeGetACLResponse)],
    ['setACL', codec('SetACLRequest', encodeSetACLRequest, decodeSetACLRequest), codec('SetACLResponse', encodeSetACLResponse, decodeSetACLResponse)],
    [
      'getChildren',
      codec('GetChildrenRequest', children.encodeGetChildrenRequest, children.decodeGetChildrenRequest),
      codec('GetChildrenResponse', children.encodeGetChildrenResponse, children.decodeGetChildrenResponse),
    ],
    [
      'sync',
      codec('SyncRequest', node.encodeSyncRequest, node.decodeSyncRequest),
      codec('SyncResponse', node.encodeSyncResponse, node.decodeSyncResponse),
    ],
    ['ping', null, null],
    [
      'getChildren2',
      codec('GetChildren2Request', children.encodeGetChildren2Request, children.decodeGetChildren2Request),
      codec('GetChildren2Response', children.encodeGetChildren2Response, children.decodeGetChildren2Response),
    ],
    // A standalone check has no reply record (a standalone ZooKeeper 3.8.0 never even answers a matching one).
    ['check', codec('CheckVersionRequest', node.encodeCheckVersionRequest, node.decodeCheckVersionRequest), null],
    ['multi', multiRequest, multiResponse],
    ['create2', createRequest, create2Response],
    ['reconfig', codec('ReconfigRequest', encodeReconfigRequest, decodeReconfigRequest), getDataResponse],
    ['checkWatches', codec('CheckWatchesRequest', watches.encodeCheckWatchesRequest, watches.decodeCheckWatchesRequest), null],
    ['removeWatches', codec('RemoveWatchesRequest', watches.encodeRemoveWatchesRequest, watches.decodeRemoveWatchesRequest), null],
    ['createContainer', createRequest, create2Response],
    // Server-internal; a client-sent one is parsed by the server as raw path bytes, so keep it opaque.
    ['deleteContainer', opaque, null],
    ['createTTL', codec('CreateTTLRequest', create.encodeCreateTTLRequest, create.decodeCreateTTLRequest), create2Response],
    ['multiRead', multiRequest, multiResponse],
    ['auth', codec('AuthPacket', encodeAuthPacket, decodeAuthPacket), null],
    ['setWatches', codec('SetWatches', watches.encodeSetWatches, watches.decodeSetWatches), null],
    ['sasl', codec('GetSASLRequest', encodeGetSASLRequest, decodeGetSASLRequest), codec('SetSASLResponse', encodeSetSASLResponse, decodeSetSASLResponse)],
    [
      'getEphemerals',
      codec('GetEphemeralsRequest', children.encodeGetEphemeralsRequest, children.decodeGetEphemeralsRequest),
      codec('GetEphemeralsResponse', children.encodeGetEphemeralsResponse, children.decodeGetEphemeralsResponse),
    ],
    [
      'getAllChildrenNumber',
      codec('GetAllChildrenNumberRequest', children.encodeGetAllChildrenNumberRequest, children.decodeGetAllChildrenNumberRequest),
      codec('GetAllChildrenNumberResponse', children.encodeGetAllChildrenNumberResponse, children.decodeGetAllChildrenNumberResponse),
    ],
    ['setWatches2', codec('SetWatches2', watches.encodeSetWatches2, watches.decodeSetWatches2), null],
    ['addWatch', codec('AddWatchRequest', watches.encodeAddWatchRequest, watches.decodeAddWatchRequest), codec('ErrorResponse', encodeErrorResponse, decodeErrorResponse)],
    ['whoAmI', null, codec('WhoAmIResponse', encodeWhoAmIResponse, decodeWhoAmIResponse)],
    ['createSession', null, null],
    ['closeSession', null, null],
    ['error', null, null],
  ];
  return new Map(rows.map(([name, request, response]) => [OpCode[name], { code: OpCode[name], name, request, response }]));
}

/** The table row of an opcode, or undefined for an opcode ZooKeeper 3.5–3.9 does not define. */
export function opSpec(opcode: number): OpSpec | undefined {
  return row(opcode);
}

/** The request record name (`raw` for opaque bodies), null for header-only requests, undefined if unknown. */
export function requestRecordName(opcode: number): string | null | undefined {
  const spec = row(opcode);
  return spec === undefined ? undefined : (spec.request?.name ?? null);
}

/** The success-reply record name, null for header-only replies, undefined if the opcode is unknown. */
export function responseRecordName(opcode: number): string | null | undefined {
  const spec = row(opcode);
  return spec === undefined ? undefined : (spec.response?.name ?? null);
}

/** Writes a request body by opcode. Unknown opcodes and header-only ops accept an OpaqueBody (written as is). */
export function encodeRequestBody(opcode: number, w: JuteWriter, body: unknown): void {
  const c = row(opcode)?.request ?? null;
  if (c !== null) {
    if (body === undefined) throw new JuteEncodeError(`opcode ${opcode} needs a ${c.name} body`);
    c.encode(w, body);
  } else if (body instanceof OpaqueBody) {
    w.writeBytes(body.raw);
  } else if (body !== undefined) {
    throw new JuteEncodeError(`opcode ${opcode} carries no request body`);
  }
}

/** Reads a request body by opcode: undefined for header-only requests, OpaqueBody for unknown opcodes with bytes. */
export function decodeRequestBody(opcode: number, r: JuteReader): unknown {
  const c = row(opcode)?.request ?? null;
  if (c === null || c === opaque) return r.remaining > 0 ? decodeOpaqueBody(r) : undefined;
  return c.decode(r);
}

/** Writes a success-reply body by opcode (for fake servers, tests and the re-encoding check). */
export function encodeResponseBody(opcode: number, w: JuteWriter, body: unknown): void {
  const c = row(opcode)?.response ?? null;
  if (c !== null) {
    if (body === undefined) throw new JuteEncodeError(`opcode ${opcode} replies with a ${c.name} body`);
    c.encode(w, body);
  } else if (body instanceof OpaqueBody) {
    w.writeBytes(body.raw);
  } else if (body !== undefined) {
    throw new JuteEncodeError(`opcode ${opcode} replies without a body`);
  }
}

/**
 * Reads the body of a reply with err == 0. Returns undefined for header-only replies (delete, setWatches,
 * closeSession, ...); bytes after a header-only reply or for an unknown opcode come back as an OpaqueBody.
 */
export function decodeResponseBody(opcode: number, r: JuteReader): unknown {
  const c = row(opcode)?.response ?? null;
  if (c === null) return r.remaining > 0 ? decodeOpaqueBody(r) : undefined;
  return c.decode(r);
}

/** Appends one whole request frame (length prefix + RequestHeader + body) to `w`. */
export function encodeRequestFrame(w: JuteWriter, header: RequestHeader, body?: unknown): void {
  const mark = w.beginFrame();
  encodeRequestHeader(w, header);
  encodeRequestBody(header.type, w, body);
  w.endFrame(mark);
}

/** Appends the ConnectRequest frame. */
export function encodeConnectRequestFrame(w: JuteWriter, req: ConnectRequest): void {
  const mark = w.beginFrame();
  encodeConnectRequest(w, req);
  w.endFrame(mark);
}

/** Appends a ConnectResponse frame (fake servers and tests). */
export function encodeConnectResponseFrame(w: JuteWriter, res: ConnectResponse): void {
  const mark = w.beginFrame();
  encodeConnectResponse(w, res);
  w.endFrame(mark);
}

/**
 * Appends a reply frame: ReplyHeader, then the body of `opcode`'s reply when given. Error replies carry no body,
 * so pass none when header.err != 0.
 */
export function encodeReplyFrame(w: JuteWriter, header: ReplyHeader, opcode: number, body?: unknown): void {
  const mark = w.beginFrame();
  encodeReplyHeader(w, header);
  if (body !== undefined) encodeResponseBody(opcode, w, body);
  w.endFrame(mark);
}

/** Appends a notification frame (ReplyHeader with xid -1, then the WatcherEvent). */
export function encodeNotificationFrame(w: JuteWriter, header: ReplyHeader, event: WatcherEvent): void {
  const mark = w.beginFrame();
  encodeReplyHeader(w, header);
  encodeWatcherEvent(w, event);
  w.endFrame(mark);
}
