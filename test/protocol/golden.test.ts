/** Every golden frame decodes to exactly its `decoded` value and re-encodes byte for byte. */

import { describe, expect, it } from 'vitest';
import {
  ConversationDecoder,
  encodeDescribedFrame,
  hexEncode,
  JuteWriter,
  toJsonValue,
  type DescribedFrame,
} from '../../src/protocol/index.js';
import { goldenFiles, isRoundTripFrame, loadGolden } from './golden.js';

describe.each(goldenFiles())('golden %s', (file) => {
  const lines = loadGolden(file);
  // Decode the file in order, one conversation per connection, as the replies need their requests.
  const conversations = new Map<number, ConversationDecoder>();
  const described = lines.map((g) => {
    let c = conversations.get(g.conn);
    if (c === undefined) conversations.set(g.conn, (c = new ConversationDecoder()));
    return c.decode(g.dir, g.bytes);
  });
  const cases = lines.map((g, i) => ({ g, d: described[i]! })).filter(({ g }) => isRoundTripFrame(g));

  const fourLetter = lines.map((g, i) => ({ g, d: described[i]! })).filter(({ g }) => g.kind.startsWith('4lw-'));

  it('has frames to check', () => {
    expect(cases.length + fourLetter.length).toBeGreaterThan(0);
  });

  it.each(fourLetter.map(({ g, d }) => [`seq ${g.seq} ${g.kind}`, g, d] as const))('%s shown as text', (_name, g, d: DescribedFrame) => {
    expect(d.error).toBeUndefined();
    expect(d.kind).toBe(g.kind);
    if (g.decoded !== undefined) expect(toJsonValue(d.decoded)).toStrictEqual(g.decoded);
    const w = new JuteWriter(16);
    encodeDescribedFrame(w, d);
    expect(hexEncode(w.written())).toBe(g.hex);
  });

  it.each(cases.map(({ g, d }) => [`seq ${g.seq} ${g.kind} ${g.op ?? ''}`, g, d] as const))('%s', (_name, g, d: DescribedFrame) => {
    expect(d.error).toBeUndefined();
    expect(d.kind).toBe(g.kind);
    expect(d.xid).toBe(g.xid);
    expect(d.opcode).toBe(g.opcode);
    expect(d.op).toBe(g.op);
    expect(d.trailing).toBeUndefined();
    expect(toJsonValue(d.decoded)).toStrictEqual(g.decoded);
    const w = new JuteWriter(16);
    encodeDescribedFrame(w, d);
    expect(hexEncode(w.written())).toBe(g.hex);
  });
});
