/** ConversationDecoder behaviour beyond the golden files: routing, errors, opaque bodies, 4lw. */

import { describe, expect, it } from 'vitest';
import {
  ConversationDecoder,
  encodeConnectRequestFrame,
  encodeConnectResponseFrame,
  encodeNotificationFrame,
  encodeReplyFrame,
  encodeRequestFrame,
  hexDecode,
  JuteWriter,
  OpaqueBody,
  OpCode,
  toJsonValue,
  utf8Encode,
  Xid,
} from '../../src/protocol/index.js';

const passwd = new Uint8Array(16);

function frame(fn: (w: JuteWriter) => void): Uint8Array {
  const w = new JuteWriter();
  fn(w);
  return w.toBytes();
}

function connected(): ConversationDecoder {
  const c = new ConversationDecoder();
  const req = c.decode('c2s', frame((w) => encodeConnectRequestFrame(w, { protocolVersion: 0, lastZxidSeen: 0n, timeOut: 30000, sessionId: 0n, passwd, readOnly: false })));
  expect(req.kind).toBe('connect-request');
  const res = c.decode('s2c', frame((w) => encodeConnectResponseFrame(w, { protocolVersion: 0, timeOut: 30000, sessionId: 0x1234n, passwd, readOnly: false })));
  expect(res.kind).toBe('connect-response');
  expect(res.summary).toContain('sessionId=0x1234');
  return c;
}

describe('ConversationDecoder', () => {
  it('matches replies to requests by xid and names the op and path', () => {
    const c = connected();
    c.decode('c2s', frame((w) => encodeRequestFrame(w, { xid: 1, type: OpCode.getData }, { path: '/a', watch: true })));
    c.decode('c2s', frame((w) => encodeRequestFrame(w, { xid: 2, type: OpCode.delete }, { path: '/b', version: -1 })));
    const r1 = c.decode('s2c', frame((w) => encodeReplyFrame(w, { xid: 1, zxid: 5n, err: -101 }, OpCode.getData)));
    expect(r1).toMatchObject({ kind: 'reply', xid: 1, opcode: 4, op: 'getData', path: '/a', err: -101 });
    expect(r1.summary).toBe('getData /a NONODE zxid=0x5');
    const r2 = c.decode('s2c', frame((w) => encodeReplyFrame(w, { xid: 2, zxid: 6n, err: 0 }, OpCode.delete)));
    expect(r2).toMatchObject({ op: 'delete', path: '/b' });
    expect(r2.decoded).toStrictEqual({ header: { xid: 2, zxid: 6n, err: 0 } });
  });

  it('routes ping, auth and set-watches replies by their reserved xids', () => {
    const c = connected();
    expect(c.decode('s2c', frame((w) => encodeReplyFrame(w, { xid: Xid.ping, zxid: 1n, err: 0 }, OpCode.ping))).op).toBe('ping');
    expect(c.decode('s2c', frame((w) => encodeReplyFrame(w, { xid: Xid.auth, zxid: 0n, err: -115 }, OpCode.auth)))).toMatchObject({ op: 'auth', opcode: 100 });
    expect(c.decode('s2c', frame((w) => encodeReplyFrame(w, { xid: Xid.setWatches, zxid: 1n, err: 0 }, OpCode.setWatches))).op).toBe('setWatches');
    // A setWatches2 sent with xid -8 is answered as setWatches2.
    c.decode('c2s', frame((w) => encodeRequestFrame(w, { xid: -8, type: OpCode.setWatches2 }, {
      relativeZxid: 1n, dataWatches: [], existWatches: [], childWatches: [], persistentWatches: ['/p'], persistentRecursiveWatches: [],
    })));
    expect(c.decode('s2c', frame((w) => encodeReplyFrame(w, { xid: -8, zxid: 1n, err: 0 }, OpCode.setWatches2))).op).toBe('setWatches2');
  });

  it('reports a reply whose xid matches no request, and a duplicate reply', () => {
    const c = connected();
    const orphan = c.decode('s2c', frame((w) => encodeReplyFrame(w, { xid: 42, zxid: 1n, err: 0 }, OpCode.ping)));
    expect(orphan.error).toBe('reply with xid 42 matches no outstanding request on this connection');
    c.decode('c2s', frame((w) => encodeRequestFrame(w, { xid: 1, type: OpCode.closeSession })));
    expect(c.decode('s2c', frame((w) => encodeReplyFrame(w, { xid: 1, zxid: 1n, err: 0 }, OpCode.closeSession))).error).toBeUndefined();
    expect(c.decode('s2c', frame((w) => encodeReplyFrame(w, { xid: 1, zxid: 1n, err: 0 }, OpCode.closeSession))).error).toMatch(/no outstanding request/);
  });

  it('decodes notifications', () => {
    const c = connected();
    const n = c.decode('s2c', frame((w) => encodeNotificationFrame(w, { xid: -1, zxid: -1n, err: 0 }, { type: 3, state: 3, path: '/x' })));
    expect(n).toMatchObject({ kind: 'notification', xid: -1, path: '/x', summary: 'NodeDataChanged /x' });
  });

  it('keeps the body of an unknown opcode as opaque bytes, named unknown', () => {
    const c = connected();
    const r = c.decode('c2s', frame((w) => encodeRequestFrame(w, { xid: 3, type: 99 }, new OpaqueBody(new Uint8Array([1, 2, 0xff])))));
    expect(r).toMatchObject({ kind: 'request', op: 'unknown', opcode: 99 });
    expect(toJsonValue(r.decoded)).toStrictEqual({ header: { xid: 3, type: 99 }, body: { raw: '0102ff' } });
    const reply = c.decode('s2c', frame((w) => encodeReplyFrame(w, { xid: 3, zxid: -1n, err: -6 }, 99)));
    expect(reply).toMatchObject({ op: 'unknown', err: -6 });
    expect(reply.summary).toContain('UNIMPLEMENTED');
  });

  it('refuses a first client frame that is not a ConnectRequest', () => {
    const c = new ConversationDecoder();
    const r = c.decode('c2s', hexDecode('0000000e0000000100000003000000012f00')!);
    expect(r.kind).toBe('connect-request');
    expect(r.error).toMatch(/^not a valid ConnectRequest .*need 4 byte\(s\) for ConnectRequest.timeOut at offset 12, have 2$/);
    const long = new ConversationDecoder().decode('c2s', frame((w) => encodeRequestFrame(w, { xid: 1, type: 1 }, {
      path: '/a-path-long-enough-to-fill-a-connect-request', data: null, acl: [], flags: 0,
    })));
    expect(long.error).toMatch(/not a valid ConnectRequest/);
  });

  it('accepts a ConnectResponse with and without the readOnly byte', () => {
    for (const readOnly of [undefined, true]) {
      const c = new ConversationDecoder();
      const res = c.decode('s2c', frame((w) => encodeConnectResponseFrame(w, { protocolVersion: 0, timeOut: 0, sessionId: 0n, passwd, ...(readOnly === undefined ? {} : { readOnly }) })));
      expect(res.error).toBeUndefined();
      expect((res.decoded as { readOnly?: boolean }).readOnly).toBe(readOnly);
      expect(res.summary).toMatch(/session rejected or expired/);
    }
  });

  it('keeps trailing bytes after a record and says so', () => {
    const c = connected();
    const bytes = frame((w) => {
      const mark = w.beginFrame();
      w.writeInt(7).writeInt(OpCode.sync).writeString('/s').writeBytes(new Uint8Array([0xaa, 0xbb]));
      w.endFrame(mark);
    });
    const r = c.decode('c2s', bytes);
    expect(r.trailing).toStrictEqual(new Uint8Array([0xaa, 0xbb]));
    expect(r.summary).toContain('2 trailing');
  });

  it('shows a four-letter-word connection as text', () => {
    const c = new ConversationDecoder();
    expect(c.decode('c2s', utf8Encode('ruok'))).toMatchObject({ kind: '4lw-command', decoded: { text: 'ruok' } });
    expect(c.decode('s2c', utf8Encode('imok'))).toMatchObject({ kind: '4lw-response', decoded: { text: 'imok' } });
  });

  it('never throws on garbage', () => {
    const c = connected();
    for (const hex of ['', '00', '000000', 'ffffffff', '0000000400000001', '00000008ffffffff0000000e']) {
      expect(() => c.decode('c2s', hexDecode(hex)!)).not.toThrow();
      expect(() => c.decode('s2c', hexDecode(hex)!)).not.toThrow();
    }
  });
});
