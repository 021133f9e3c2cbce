/**
 * describeFrames: the onFrame trace decoded, one ConversationDecoder per connection of the session. The raw trace
 * carries bytes only (the describer is not in a bundle that does not import it); the wrapper adds `frame`.
 */

import { describe, expect, it } from 'vitest';
import { encodeConnectRequestFrame, encodeConnectResponseFrame, encodeReplyFrame, encodeRequestFrame, JuteWriter, OpCode } from '../../src/protocol/index.js';
import { describeFrames, type DescribedFrameTrace } from '../../src/session/describe-frames.js';
import type { FrameTrace } from '../../src/session/trace.js';

const passwd = new Uint8Array(16);

function frame(fn: (w: JuteWriter) => void): Uint8Array {
  const w = new JuteWriter();
  fn(w);
  return w.toBytes();
}

const connectRequest = frame((w) => encodeConnectRequestFrame(w, { protocolVersion: 0, lastZxidSeen: 0n, timeOut: 30000, sessionId: 0n, passwd, readOnly: false }));
const connectResponse = frame((w) => encodeConnectResponseFrame(w, { protocolVersion: 0, timeOut: 30000, sessionId: 0x1234n, passwd, readOnly: false }));
const getData = frame((w) => encodeRequestFrame(w, { xid: 1, type: OpCode.getData }, { path: '/a', watch: false }));
const getDataReply = frame((w) =>
  encodeReplyFrame(w, { xid: 1, zxid: 5n, err: 0 }, OpCode.getData, {
    data: new Uint8Array([1]),
    stat: { czxid: 1n, mzxid: 1n, ctime: 0n, mtime: 0n, version: 0, cversion: 0, aversion: 0, ephemeralOwner: 0n, dataLength: 1, numChildren: 0, pzxid: 1n },
  }),
);

const trace = (connection: number, dir: 'c2s' | 's2c', bytes: Uint8Array): FrameTrace => ({ dir, at: 0, connection, sessionId: '0x0', bytes });

describe('describeFrames', () => {
  it('decodes each frame by the conversation so far, and starts over on a new connection', () => {
    const seen: DescribedFrameTrace[] = [];
    const listener = describeFrames((t) => seen.push(t));
    listener(trace(1, 'c2s', connectRequest));
    listener(trace(1, 's2c', connectResponse));
    listener(trace(1, 'c2s', getData));
    listener(trace(1, 's2c', getDataReply));
    // A reconnect: its first frames are a handshake again, which a decoder carried over would misread.
    listener(trace(2, 'c2s', connectRequest));
    listener(trace(2, 's2c', connectResponse));
    expect(seen.map((t) => [t.connection, t.frame.kind, t.frame.op ?? null])).toEqual([
      [1, 'connect-request', null],
      [1, 'connect-response', null],
      [1, 'request', 'getData'],
      [1, 'reply', 'getData'],
      [2, 'connect-request', null],
      [2, 'connect-response', null],
    ]);
    expect(seen[3]?.frame.path).toBe('/a');
    expect(seen[3]?.bytes).toBe(getDataReply);
  });
});
