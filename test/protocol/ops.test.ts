/** Opcode tables and frame encoders against golden bytes: what the session will send must match real clients. */

import { describe, expect, it } from 'vitest';
import {
  encodeConnectRequestFrame,
  encodeRequestFrame,
  hexEncode,
  JuteEncodeError,
  JuteWriter,
  MULTI_END,
  multiOp,
  OpCode,
  requestRecordName,
  responseRecordName,
} from '../../src/protocol/index.js';
import { loadGolden } from './golden.js';

const OPEN_ACL = [{ perms: 31, id: { scheme: 'world', id: 'anyone' } }];

describe('frame encoders', () => {
  it('encode the Java client handshake byte for byte', () => {
    const golden = loadGolden('connect_handshake.jsonl')[0]!;
    const w = new JuteWriter();
    encodeConnectRequestFrame(w, { protocolVersion: 0, lastZxidSeen: 0n, timeOut: 30000, sessionId: 0n, passwd: new Uint8Array(16), readOnly: false });
    expect(hexEncode(w.written())).toBe(golden.hex);
  });

  it('append many frames to one writer (coalescing) and reproduce the golden multi', () => {
    const golden = loadGolden('multi.jsonl').find((l) => l.op === 'multi' && l.dir === 'c2s' && l.xid === 4)!;
    const w = new JuteWriter(8);
    encodeRequestFrame(w, { xid: -2, type: OpCode.ping });
    const start = w.length;
    encodeRequestFrame(w, { xid: 4, type: OpCode.multi }, {
      ops: [
        multiOp(OpCode.create, { path: '/g-multi/b', data: new Uint8Array(0), acl: OPEN_ACL, flags: 0 }),
        multiOp(OpCode.check, { path: '/g-multi/a', version: 7 }),
        multiOp(OpCode.setData, { path: '/g-multi/a', data: new TextEncoder().encode('never'), version: -1 }),
      ],
      end: MULTI_END,
    });
    expect(hexEncode(w.written(), 0, start)).toBe('00000008fffffffe0000000b');
    expect(hexEncode(w.written(), start)).toBe(golden.hex);
  });

  it('refuse a missing body or a body for a header-only op with a typed error', () => {
    const w = new JuteWriter();
    expect(() => encodeRequestFrame(w, { xid: 1, type: OpCode.getData })).toThrow(JuteEncodeError);
    expect(() => encodeRequestFrame(w, { xid: 1, type: OpCode.ping }, { path: '/' })).toThrow(JuteEncodeError);
    expect(() => encodeRequestFrame(w, { xid: 1, type: OpCode.multi }, { ops: [multiOp(OpCode.exists, { path: '/', version: 1 })], end: MULTI_END })).toThrow(
      JuteEncodeError,
    );
  });
});

describe('opcode table', () => {
  it('names the records as zookeeper.jute does', () => {
    expect(requestRecordName(OpCode.createContainer)).toBe('CreateRequest');
    expect(responseRecordName(OpCode.createContainer)).toBe('Create2Response');
    expect(responseRecordName(OpCode.addWatch)).toBe('ErrorResponse');
    expect(responseRecordName(OpCode.reconfig)).toBe('GetDataResponse');
    expect(requestRecordName(OpCode.whoAmI)).toBeNull();
    expect(responseRecordName(OpCode.delete)).toBeNull();
    expect(requestRecordName(OpCode.deleteContainer)).toBe('raw');
    expect(requestRecordName(99)).toBeUndefined();
  });

  it('covers opcodes 1–22 except 10, 100–107, -10 and -11', () => {
    const codes = [...Array.from({ length: 22 }, (_, i) => i + 1).filter((c) => c !== 10), 100, 101, 102, 103, 104, 105, 106, 107, -10, -11];
    for (const c of codes) expect(requestRecordName(c), `opcode ${c}`).not.toBeUndefined();
  });
});
