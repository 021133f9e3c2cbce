/** The multi codec's type tables: which record follows each op and result type, and typed errors for any other type. */

import { describe, expect, it } from 'vitest';
import {
  decodeMultiRequest,
  decodeMultiResponse,
  encodeMultiHeader,
  encodeMultiResponse,
  JuteDecodeError,
  JuteEncodeError,
  JuteReader,
  JuteWriter,
  MULTI_END,
  multiOpRecordName,
  multiResultRecordName,
  OpCode,
} from '../../src/protocol/index.js';

/** A multi body of one header (no record after it) and the end marker, as a server or a client could send it. */
function headerOnly(type: number): Uint8Array {
  const w = new JuteWriter();
  encodeMultiHeader(w, { type, done: false, err: 0 });
  encodeMultiHeader(w, MULTI_END);
  return w.written();
}

describe('multi type tables', () => {
  it('name the record of every op type ZooKeeper accepts in a multi, and no other', () => {
    expect(multiOpRecordName(OpCode.create)).toBe('CreateRequest');
    expect(multiOpRecordName(OpCode.create2)).toBe('CreateRequest');
    expect(multiOpRecordName(OpCode.createContainer)).toBe('CreateRequest');
    expect(multiOpRecordName(OpCode.createTTL)).toBe('CreateTTLRequest');
    expect(multiOpRecordName(OpCode.delete)).toBe('DeleteRequest');
    expect(multiOpRecordName(OpCode.setData)).toBe('SetDataRequest');
    expect(multiOpRecordName(OpCode.check)).toBe('CheckVersionRequest');
    expect(multiOpRecordName(OpCode.getData)).toBe('GetDataRequest');
    expect(multiOpRecordName(OpCode.getChildren)).toBe('GetChildrenRequest');
    expect(multiOpRecordName(OpCode.exists)).toBeUndefined();
    expect(multiOpRecordName(OpCode.error)).toBeUndefined();
  });

  it('name the record of every result type, null for the results without one', () => {
    expect(multiResultRecordName(OpCode.create)).toBe('CreateResponse');
    expect(multiResultRecordName(OpCode.create2)).toBe('Create2Response');
    expect(multiResultRecordName(OpCode.createContainer)).toBe('Create2Response');
    expect(multiResultRecordName(OpCode.createTTL)).toBe('Create2Response');
    expect(multiResultRecordName(OpCode.setData)).toBe('SetDataResponse');
    expect(multiResultRecordName(OpCode.getData)).toBe('GetDataResponse');
    expect(multiResultRecordName(OpCode.getChildren)).toBe('GetChildrenResponse');
    expect(multiResultRecordName(OpCode.error)).toBe('ErrorResponse');
    expect(multiResultRecordName(OpCode.delete)).toBeNull();
    expect(multiResultRecordName(OpCode.check)).toBeNull();
    expect(multiResultRecordName(OpCode.exists)).toBeUndefined();
  });

  it('decode a result without a record as null, and refuse an unknown result type as corrupt', () => {
    expect(decodeMultiResponse(new JuteReader(headerOnly(OpCode.delete))).results).toStrictEqual([
      { header: { type: OpCode.delete, done: false, err: 0 }, body: null },
    ]);
    const bad = () => decodeMultiResponse(new JuteReader(headerOnly(OpCode.exists)));
    expect(bad).toThrow(JuteDecodeError);
    expect(bad).toThrow('multi result of type 3 at offset 0 is not defined');
  });

  it('refuse an op type multi does not accept as corrupt', () => {
    const bad = () => decodeMultiRequest(new JuteReader(headerOnly(OpCode.exists)));
    expect(bad).toThrow(JuteDecodeError);
    expect(bad).toThrow('multi op of type 3 at offset 0 is not allowed in multi');
  });

  it('refuse to encode an unknown result type, or a result without the record its type needs', () => {
    const w = new JuteWriter();
    expect(() => encodeMultiResponse(w, { results: [{ header: { type: OpCode.exists, done: false, err: 0 }, body: null }], end: MULTI_END })).toThrow(
      new JuteEncodeError('multi result of type 3 is not defined'),
    );
    expect(() => encodeMultiResponse(w, { results: [{ header: { type: OpCode.setData, done: false, err: 0 }, body: null }], end: MULTI_END })).toThrow(
      new JuteEncodeError('multi result of type 5 needs a SetDataResponse'),
    );
  });
});
