/** Property-style round trips: generated values of every record type survive encode → decode unchanged. */

import { describe, expect, it } from 'vitest';
import {
  decodeACLVector,
  decodeReplyHeader,
  decodeRequestBody,
  decodeRequestHeader,
  decodeResponseBody,
  encodeReplyFrame,
  encodeRequestFrame,
  JuteReader,
  JuteWriter,
  OpCode,
  opSpec,
} from '../../src/protocol/index.js';
import { Gen } from './generators.js';
import { genRequestBody, genResponseBody, RECORD_CASES } from './record-cases.js';

const ITERATIONS = 300;

describe('record round trip', () => {
  it.each(RECORD_CASES.map((rc) => [rc.name, rc] as const))('%s', (_name, rc) => {
    const g = new Gen(0x5eed ^ rc.name.length * 7919);
    const w = new JuteWriter(8);
    for (let i = 0; i < ITERATIONS; i++) {
      const value = rc.gen(g);
      w.reset();
      rc.encode(w, value as never);
      const bytes = w.toBytes();
      const r = new JuteReader(bytes);
      const back = rc.decode(r);
      expect(back).toStrictEqual(value);
      expect(r.remaining).toBe(0);
      // Encoding the decoded value again gives the same bytes.
      w.reset();
      rc.encode(w, back as never);
      expect(w.toBytes()).toStrictEqual(bytes);
    }
  });
});

const OPCODES = Object.values(OpCode).filter((c) => opSpec(c) !== undefined);

describe('whole frames through the opcode table', () => {
  it.each(OPCODES.map((c) => [c] as const))('opcode %i request and reply frames', (opcode) => {
    const g = new Gen(opcode + 1000);
    // One writer for all frames: frames are appended, as a session coalesces them.
    const w = new JuteWriter(16);
    const sent: { xid: number; req: unknown; res: unknown; zxid: bigint }[] = [];
    for (let i = 0; i < 50; i++) {
      const xid = g.int();
      const req = genRequestBody(g, opcode);
      encodeRequestFrame(w, { xid, type: opcode }, req);
      const res = genResponseBody(g, opcode);
      const zxid = g.long();
      encodeReplyFrame(w, { xid, zxid, err: 0 }, opcode, res);
      sent.push({ xid, req, res, zxid });
    }
    const all = w.toBytes();
    const view = new DataView(all.buffer);
    let at = 0;
    const nextPayload = (): JuteReader => {
      const len = view.getInt32(at);
      const r = new JuteReader(all.subarray(at + 4, at + 4 + len));
      at += 4 + len;
      return r;
    };
    for (const s of sent) {
      const rq = nextPayload();
      expect(decodeRequestHeader(rq)).toStrictEqual({ xid: s.xid, type: opcode });
      expect(decodeRequestBody(opcode, rq)).toStrictEqual(s.req);
      expect(rq.remaining).toBe(0);
      const rp = nextPayload();
      expect(decodeReplyHeader(rp)).toStrictEqual({ xid: s.xid, zxid: s.zxid, err: 0 });
      expect(decodeResponseBody(opcode, rp)).toStrictEqual(s.res);
      expect(rp.remaining).toBe(0);
    }
    expect(at).toBe(all.length);
  });
});

describe('Id strings', () => {
  it('reads a null scheme or id (length -1) as "", so every decoded ACL entry holds two strings', () => {
    const w = new JuteWriter(32);
    w.writeInt(1); // one ACL entry
    w.writeInt(31); // perms
    w.writeString(null); // scheme
    w.writeString('anyone');
    const r = new JuteReader(w.toBytes());
    expect(decodeACLVector(r)).toStrictEqual([{ perms: 31, id: { scheme: '', id: 'anyone' } }]);
    expect(r.remaining).toBe(0);
  });
});
