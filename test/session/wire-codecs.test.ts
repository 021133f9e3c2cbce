/**
 * The session's half of the opcode table (src/session/wire-codecs.ts) against the protocol's full table
 * (src/protocol/ops.ts): for every opcode a client sends, the same request bytes and the same decoded reply. The two
 * tables are kept apart for the bundle's sake; this is what keeps them from drifting.
 */

import { describe, expect, it } from 'vitest';
import { decodeResponseBody, encodeRequestFrame, encodeResponseBody, JuteReader, JuteWriter, OpCode, opSpec } from '../../src/protocol/index.js';
import { readReply, writeRequest } from '../../src/session/wire-codecs.js';
import { Gen } from '../protocol/generators.js';
import { genRequestBody, genResponseBody } from '../protocol/record-cases.js';

/** What a client never sends: the server's own (deleteContainer), and codes that are not requests. */
const NOT_SENT = new Set<number>([OpCode.notification, OpCode.deleteContainer, OpCode.createSession, OpCode.error]);
const SENT = Object.values(OpCode).filter((c) => opSpec(c) !== undefined && !NOT_SENT.has(c));

describe('the session writes and reads as the protocol table does', () => {
  it.each(SENT.map((c) => [c] as const))('opcode %i', (opcode) => {
    const g = new Gen(opcode + 2000);
    for (let i = 0; i < 20; i++) {
      const header = { xid: g.int(), type: opcode };
      const body = genRequestBody(g, opcode);
      const ours = new JuteWriter(16);
      writeRequest(ours, header, body);
      const table = new JuteWriter(16);
      encodeRequestFrame(table, header, body);
      expect(ours.toBytes()).toStrictEqual(table.toBytes());

      const reply = genResponseBody(g, opcode);
      const w = new JuteWriter(16);
      if (reply !== undefined) encodeResponseBody(opcode, w, reply);
      const bytes = w.toBytes();
      expect(readReply(opcode, new JuteReader(bytes))).toStrictEqual(decodeResponseBody(opcode, new JuteReader(bytes)));
    }
  });

  it('refuses a body for a header-only op and a missing body for a record op, as the table does', () => {
    expect(() => writeRequest(new JuteWriter(), { xid: 1, type: OpCode.ping }, { path: '/' })).toThrow(/carries no request body/);
    expect(() => writeRequest(new JuteWriter(), { xid: 1, type: OpCode.getData }, undefined)).toThrow(/needs a request body/);
  });
});
