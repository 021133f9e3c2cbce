/**
 * The `zkwire/protocol` entry: ZooKeeper's wire protocol as a pure codec over Uint8Array (no sockets, no Node APIs).
 * Cut a byte stream into frames, decode a whole conversation into described frames, encode any request, reply or
 * notification, and read four-letter-word answers. The client does not need any of this; it is for tools that look
 * at ZooKeeper traffic (captures, proxies, test servers).
 *
 * @module zkwire/protocol
 */

// Framing and whole-conversation decoding.
export { DEFAULT_MAX_FRAME_SIZE, FrameDecoder, type FrameDecoderOptions, type FrameError, type FrameResult } from './protocol/frame.js';
export {
  ConversationDecoder,
  type ConversationOptions,
  type DecodedFrame,
  type DecodedReply,
  type DecodedRequest,
  type DescribedFrame,
  type DescribedMultiRequest,
  type DescribedMultiResponse,
  type Direction,
  type FourLetterText,
  type FrameKind,
} from './protocol/conversation.js';
export { errName, hexId, toJsonValue, type JsonValue } from './protocol/describe.js';
export { encodeDescribedFrame } from './protocol/reencode.js';

// Bodies by opcode and whole frames.
export {
  decodeRequestBody,
  decodeResponseBody,
  encodeConnectRequestFrame,
  encodeConnectResponseFrame,
  encodeNotificationFrame,
  encodeReplyFrame,
  encodeRequestBody,
  encodeRequestFrame,
  encodeResponseBody,
  requestRecordName,
  responseRecordName,
  type RequestBodyByOp,
  type ResponseBodyByOp,
} from './protocol/ops.js';
export { decodeReplyHeader, decodeRequestHeader, encodeReplyHeader, encodeRequestHeader } from './protocol/records/headers.js';
export { decodeConnectRequest, decodeConnectResponse, encodeConnectRequest, encodeConnectResponse } from './protocol/records/connect.js';
export { decodeWatcherEvent, encodeWatcherEvent } from './protocol/records/watcher-event.js';

// The tables: opcodes, special xids, flags, event and error codes.
export {
  CreateFlags,
  EventType,
  JUTE_MAX_BUFFER,
  KeeperState,
  knownEventType,
  OpCode,
  opName,
  WatcherType,
  Xid,
  type EventTypeName,
  type OpCodeValue,
  type OpName,
} from './protocol/opcodes.js';
export {
  ClientErrorCode,
  ErrorCode,
  errorName,
  type ClientErrorName,
  type ServerErrorName,
} from './protocol/error-codes.js';

// Jute, the serialization underneath, for records this list does not name.
export { JuteDecodeError, JuteReader, JuteWriter, type JuteDecodeReason } from './protocol/jute.js';
export { JuteEncodeError } from './protocol/encode-error.js';
export type { RecordCodec } from './protocol/records/codec.js';
export { hexDecode, hexEncode } from './protocol/hex.js';

// Four-letter words: detection and the parsers of their text answers.
export {
  detectFourLetterWord,
  FOUR_LETTER_WORDS,
  isFourLetterWord,
  parseCons,
  parseConnectionLine,
  parseMntr,
  parseSrvr,
  parseStat,
  parseWchs,
  type ConnectionInfo,
  type FourLetterWord,
  type ServerStats,
  type WatchSummary,
} from './protocol/four-letter.js';

// The record types the bodies above carry.
export type { GetACLRequest, GetACLResponse, SetACLRequest, SetACLResponse } from './protocol/records/acl-ops.js';
export type { ErrorResponse, ReconfigRequest } from './protocol/records/admin.js';
export type { AuthPacket, ClientInfo, GetSASLRequest, SetSASLResponse, WhoAmIResponse } from './protocol/records/auth.js';
export type {
  GetAllChildrenNumberRequest,
  GetAllChildrenNumberResponse,
  GetChildren2Request,
  GetChildren2Response,
  GetChildrenRequest,
  GetChildrenResponse,
  GetEphemeralsRequest,
  GetEphemeralsResponse,
} from './protocol/records/children.js';
export type { ConnectRequest, ConnectResponse } from './protocol/records/connect.js';
export type { Create2Response, CreateRequest, CreateResponse, CreateTTLRequest } from './protocol/records/create.js';
export type { ReplyHeader, RequestHeader } from './protocol/records/headers.js';
export type { MultiHeader, MultiOp, MultiOpRequest, MultiRequest, MultiResponse, MultiResult, MultiResultBody } from './protocol/records/multi.js';
export type {
  CheckVersionRequest,
  DeleteRequest,
  ExistsRequest,
  ExistsResponse,
  GetDataRequest,
  GetDataResponse,
  SetDataRequest,
  SetDataResponse,
  SyncRequest,
  SyncResponse,
} from './protocol/records/node-data.js';
export type { OpaqueBody } from './protocol/records/opaque.js';
export type { WatcherEvent } from './protocol/records/watcher-event.js';
export type { AddWatchRequest, CheckWatchesRequest, RemoveWatchesRequest, SetWatches, SetWatches2 } from './protocol/records/watches.js';
