/** Every truncation of a valid frame gives the typed "short" / "need more" result, never a RangeError. */

import { describe, expect, it } from 'vitest';
import {
  ConversationDecoder,
  decodeConnectRequest,
  decodeConnectResponse,
  decodeReplyHeader,
  decodeRequestBody,
  decodeRequestHeader,
  decodeResponseBody,
  decodeWatcherEvent,
  FrameDecoder,
  JuteDecodeError,
  JuteReader,
  JuteWriter,
  OpCode,
} from '../../src/protocol/index.js';
import { allGolden, isRoundTripFrame, type GoldenLine } from './golden.js';
import { Gen } from './generators.js';
import { RECORD_CASES } from './record-cases.js';

function decodePayload(g: GoldenLine, payload: Uint8Array): void {
  const r = new JuteReader(payload);
  switch (g.kind) {
    case 'connect-request':
      decodeConnectRequest(r);
      break;
    case 'connect-response':
      decodeConnectResponse(r);
      break;
    case 'request': {
      const h = decodeRequestHeader(r);
      decodeRequestBody(h.type, r);
      break;
    }
    case 'reply': {
      const h = decodeReplyHeader(r);
      if (h.err === 0) decodeResponseBody(g.opcode!, r);
      break;
    }
    case 'notification':
      decodeReplyHeader(r);
      decodeWatcherEvent(r);
      break;
  }
  if (r.remaining !== 0) throw new Error(`${r.remaining} byte(s) left over`);
}

function shortReason(fn: () => void): string {
  try {
    fn();
    return 'decoded';
  } catch (e) {
    return e instanceof JuteDecodeError ? e.reason : `untyped ${String(e)}`;
  }
}

const frames = allGolden().filter(isRoundTripFrame);

describe('truncated golden frames', () => {
  it('covers every framed golden line', () => {
    expect(frames.length).toBeGreaterThan(600);
  });

  it('every payload prefix is "short" for the record decoder', () => {
    let checked = 0;
    for (const g of frames) {
      const payload = g.bytes.subarray(4);
      expect(shortReason(() => decodePayload(g, payload)), `${g.file} seq ${g.seq} whole`).toBe('decoded');
      for (let cut = 0; cut < payload.length; cut++) {
        const reason = shortReason(() => decodePayload(g, payload.subarray(0, cut)));
        // Legitimately decodable prefixes: a connect record without its trailing readOnly byte (the old layout),
        // and the opaque body of deleteContainer, which takes whatever bytes there are.
        const optionalTail = g.kind.startsWith('connect-') && cut === payload.length - 1;
        const opaque = g.kind === 'request' && g.opcode === OpCode.deleteContainer && cut >= 8;
        if (optionalTail || opaque) expect(reason === 'decoded' || reason === 'short', `${g.file} seq ${g.seq} cut ${cut}`).toBe(true);
        else expect(reason, `${g.file} seq ${g.seq} cut ${cut}`).toBe('short');
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(10_000);
  });

  it('every frame prefix is "need-more" for the frame decoder, with the exact missing count', () => {
    for (const g of frames) {
      for (let cut = 0; cut < g.bytes.length; cut++) {
        const d = new FrameDecoder();
        d.push(g.bytes.subarray(0, cut));
        const res = d.next();
        const needed = cut < 4 ? 4 - cut : g.bytes.length - cut;
        expect(res, `${g.file} seq ${g.seq} cut ${cut}`).toStrictEqual({ kind: 'need-more', needed });
      }
    }
  });

  it('a truncated frame gives the conversation decoder an error, not an exception', () => {
    for (const g of frames.filter((f) => f.bytes.length > 8).slice(0, 200)) {
      const conv = new ConversationDecoder();
      const res = conv.decode(g.dir, g.bytes.subarray(0, g.bytes.length - 1));
      expect(res.error, `${g.file} seq ${g.seq}`).toMatch(/truncated frame/);
    }
  });
});

describe('truncated generated records', () => {
  it.each(RECORD_CASES.map((rc) => [rc.name, rc] as const))('%s', (_name, rc) => {
    const g = new Gen(rc.name.length * 31 + 7);
    const w = new JuteWriter();
    for (let i = 0; i < 25; i++) {
      w.reset();
      rc.encode(w, rc.gen(g) as never);
      const bytes = w.toBytes();
      for (let cut = 0; cut < bytes.length; cut++) {
        const reason = shortReason(() => rc.decode(new JuteReader(bytes.subarray(0, cut))));
        if (rc.prefixMayDecode === true) expect(['decoded', 'short']).toContain(reason);
        else expect(reason, `cut ${cut} of ${bytes.length}`).toBe('short');
      }
    }
  });
});
