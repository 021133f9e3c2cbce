/**
 * multi (14) and multiRead (22): a sequence of (MultiHeader + op record) closed by a `done` header.
 *
 * Which record follows a header depends on the header's type; the tables below list exactly the types ZooKeeper's
 * MultiOperationRecord / MultiResponse accept (anything else is corrupt, as it is for the server).
 */

import { JuteDecodeError, type JuteReader, type JuteWriter } from '../jute.js';
import { JuteEncodeError } from '../encode-error.js';
import { OpCode } from '../opcodes.js';
import { decodeErrorResponse, encodeErrorResponse, type ErrorResponse } from './admin.js';
import { decodeGetChildrenRequest, decodeGetChildrenResponse, encodeGetChildrenRequest, encodeGetChildrenResponse } from './children.js';
import type { GetChildrenRequest, GetChildrenResponse } from './children.js';
import {
  decodeCreate2Response,
  decodeCreateRequest,
  decodeCreateResponse,
  decodeCreateTTLRequest,
  encodeCreate2Response,
  encodeCreateRequest,
  encodeCreateResponse,
  encodeCreateTTLRequest,
} from './create.js';
import type { Create2Response, CreateRequest, CreateResponse, CreateTTLRequest } from './create.js';
import {
  decodeCheckVersionRequest,
  decodeDeleteRequest,
  decodeGetDataRequest,
  decodeGetDataResponse,
  decodeSetDataRequest,
  decodeSetDataResponse,
  encodeCheckVersionRequest,
  encodeDeleteRequest,
  encodeGetDataRequest,
  encodeGetDataResponse,
  encodeSetDataRequest,
  encodeSetDataResponse,
} from './node-data.js';
import type { CheckVersionRequest, DeleteRequest, GetDataRequest, GetDataResponse, SetDataRequest, SetDataResponse } from './node-data.js';

/** The header before each op or result of a multi: type, done flag and error. */
export interface MultiHeader {
  /** The op's opcode; -1 for an error result and for the end marker. */
  type: number;
  done: boolean;
  err: number;
}

/** The body of one op of a multi request. */
export type MultiOpRequest =
  | CreateRequest
  | CreateTTLRequest
  | DeleteRequest
  | SetDataRequest
  | CheckVersionRequest
  | GetDataRequest
  | GetChildrenRequest;

/** The body of one result of a multi reply. */
export type MultiResultBody =
  | CreateResponse
  | Create2Response
  | SetDataResponse
  | GetDataResponse
  | GetChildrenResponse
  | ErrorResponse;

/** One op of a multi request: its opcode and body. */
export interface MultiOp {
  header: MultiHeader;
  body: MultiOpRequest;
}

/** One result of a multi reply: its type and body. */
export interface MultiResult {
  header: MultiHeader;
  /** null for delete and check results, which carry no record. */
  body: MultiResultBody | null;
}

/** The body of a multi or multiRead request. */
export interface MultiRequest {
  ops: MultiOp[];
  end: MultiHeader;
}

/** The body of a multi or multiRead reply. */
export interface MultiResponse {
  results: MultiResult[];
  end: MultiHeader;
}

/** The header that closes every multi request and response. */
export const MULTI_END: Readonly<MultiHeader> = Object.freeze({ type: -1, done: true, err: -1 });

/** An op for a multi request with the header real clients send ({type, done: false, err: -1}). */
export function multiOp(type: number, body: MultiOpRequest): MultiOp {
  return { header: { type, done: false, err: -1 }, body };
}

/**
 * Which record follows a multi op header of each type: exactly the types ZooKeeper's MultiOperationRecord accepts.
 * The one list of them; the encoders and decoders below are typed by its record names, so neither can miss one.
 */
const OP_ROWS = [
  [OpCode.create, 'CreateRequest'],
  [OpCode.create2, 'CreateRequest'],
  [OpCode.createContainer, 'CreateRequest'],
  [OpCode.createTTL, 'CreateTTLRequest'],
  [OpCode.delete, 'DeleteRequest'],
  [OpCode.setData, 'SetDataRequest'],
  [OpCode.check, 'CheckVersionRequest'],
  [OpCode.getData, 'GetDataRequest'],
  [OpCode.getChildren, 'GetChildrenRequest'],
] as const;

/** Which record follows a multi result header of each type (null = none: delete, check), as MultiResponse reads it. */
const RESULT_ROWS = [
  [OpCode.create, 'CreateResponse'],
  // The server reports create2, createContainer and createTTL results all as type 15; accept the other two
  // anyway so a reply from a future server still decodes.
  [OpCode.create2, 'Create2Response'],
  [OpCode.createContainer, 'Create2Response'],
  [OpCode.createTTL, 'Create2Response'],
  [OpCode.delete, null],
  [OpCode.check, null],
  [OpCode.setData, 'SetDataResponse'],
  [OpCode.getData, 'GetDataResponse'],
  [OpCode.getChildren, 'GetChildrenResponse'],
  [OpCode.error, 'ErrorResponse'],
] as const;

type OpRecord = (typeof OP_ROWS)[number][1];
type ResultRecord = NonNullable<(typeof RESULT_ROWS)[number][1]>;

const OP_RECORDS = new Map<number, OpRecord>(OP_ROWS);
const RESULT_RECORDS = new Map<number, ResultRecord | null>(RESULT_ROWS);

// One table of functions per direction, by record name, so that an application's bundle (which only encodes
// requests and decodes replies: encodeMultiRequest, decodeMultiResponse) carries no request decoder and no reply
// encoder. The tables mix records of different types (hence `any`); the exported types above say which goes where.
type Encoders<R extends string> = { readonly [K in R]: (w: JuteWriter, v: any) => void };
type Decoders<R extends string> = { readonly [K in R]: (r: JuteReader) => any };

const OP_ENCODERS: Encoders<OpRecord> = {
  CreateRequest: encodeCreateRequest,
  CreateTTLRequest: encodeCreateTTLRequest,
  DeleteRequest: encodeDeleteRequest,
  SetDataRequest: encodeSetDataRequest,
  CheckVersionRequest: encodeCheckVersionRequest,
  GetDataRequest: encodeGetDataRequest,
  GetChildrenRequest: encodeGetChildrenRequest,
};

const OP_DECODERS: Decoders<OpRecord> = {
  CreateRequest: decodeCreateRequest,
  CreateTTLRequest: decodeCreateTTLRequest,
  DeleteRequest: decodeDeleteRequest,
  SetDataRequest: decodeSetDataRequest,
  CheckVersionRequest: decodeCheckVersionRequest,
  GetDataRequest: decodeGetDataRequest,
  GetChildrenRequest: decodeGetChildrenRequest,
};

const RESULT_ENCODERS: Encoders<ResultRecord> = {
  CreateResponse: encodeCreateResponse,
  Create2Response: encodeCreate2Response,
  SetDataResponse: encodeSetDataResponse,
  GetDataResponse: encodeGetDataResponse,
  GetChildrenResponse: encodeGetChildrenResponse,
  ErrorResponse: encodeErrorResponse,
};

const RESULT_DECODERS: Decoders<ResultRecord> = {
  CreateResponse: decodeCreateResponse,
  Create2Response: decodeCreate2Response,
  SetDataResponse: decodeSetDataResponse,
  GetDataResponse: decodeGetDataResponse,
  GetChildrenResponse: decodeGetChildrenResponse,
  ErrorResponse: decodeErrorResponse,
};

/** The record name of a multi op of this type, or undefined if multi does not accept the type. */
export function multiOpRecordName(type: number): string | undefined {
  return OP_RECORDS.get(type);
}

/** The record name of a multi result of this type (null = no record), or undefined for an unknown type. */
export function multiResultRecordName(type: number): string | null | undefined {
  return RESULT_RECORDS.get(type);
}

export function encodeMultiHeader(w: JuteWriter, v: MultiHeader): void {
  w.writeInt(v.type);
  w.writeBool(v.done);
  w.writeInt(v.err);
}

export function decodeMultiHeader(r: JuteReader): MultiHeader {
  return { type: r.readInt('MultiHeader.type'), done: r.readBool('MultiHeader.done'), err: r.readInt('MultiHeader.err') };
}

export function encodeMultiRequest(w: JuteWriter, v: MultiRequest): void {
  for (const op of v.ops) {
    const record = OP_RECORDS.get(op.header.type);
    if (record === undefined) throw new JuteEncodeError(`multi cannot carry an op of type ${op.header.type}`);
    encodeMultiHeader(w, op.header);
    OP_ENCODERS[record](w, op.body);
  }
  encodeMultiHeader(w, v.end);
}

export function decodeMultiRequest(r: JuteReader): MultiRequest {
  const ops: MultiOp[] = [];
  for (;;) {
    const at = r.offset;
    const header = decodeMultiHeader(r);
    if (header.done) return { ops, end: header };
    const record = OP_RECORDS.get(header.type);
    if (record === undefined) throw new JuteDecodeError('corrupt', `multi op of type ${header.type} at offset ${at} is not allowed in multi`, at);
    ops.push({ header, body: OP_DECODERS[record](r) as MultiOpRequest });
  }
}

export function encodeMultiResponse(w: JuteWriter, v: MultiResponse): void {
  for (const res of v.results) {
    const record = RESULT_RECORDS.get(res.header.type);
    if (record === undefined) throw new JuteEncodeError(`multi result of type ${res.header.type} is not defined`);
    encodeMultiHeader(w, res.header);
    if (record !== null) {
      if (res.body === null) throw new JuteEncodeError(`multi result of type ${res.header.type} needs a ${record}`);
      RESULT_ENCODERS[record](w, res.body);
    }
  }
  encodeMultiHeader(w, v.end);
}

export function decodeMultiResponse(r: JuteReader): MultiResponse {
  const results: MultiResult[] = [];
  for (;;) {
    const at = r.offset;
    const header = decodeMultiHeader(r);
    if (header.done) return { results, end: header };
    const record = RESULT_RECORDS.get(header.type);
    if (record === undefined) throw new JuteDecodeError('corrupt', `multi result of type ${header.type} at offset ${at} is not defined`, at);
    results.push({ header, body: record === null ? null : (RESULT_DECODERS[record](r) as MultiResultBody) });
  }
}
