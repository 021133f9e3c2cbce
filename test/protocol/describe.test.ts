/** toJsonValue's golden shape rules and the one-line summaries. */

import { describe, expect, it } from 'vitest';
import {
  ConversationDecoder,
  encodeConnectRequestFrame,
  encodeConnectResponseFrame,
  hexId,
  JuteWriter,
  OpaqueBody,
  addWatchModeName,
  createFlagsName,
  permsText,
  summarizeResponseBody,
  watcherTypeName,
  shortData,
  summarizeRequestBody,
  toJsonValue,
  utf8Encode,
} from '../../src/protocol/index.js';
import { sessionIdHex } from '../../src/session/trace.js';
import { lineHead } from '../../src/tools/trace/format.js';

describe('toJsonValue', () => {
  it('writes longs as decimal strings, including beyond 2^53 and negative', () => {
    expect(toJsonValue({ a: (1n << 63n) - 1n, b: -1n, c: 0n })).toStrictEqual({ a: '9223372036854775807', b: '-1', c: '0' });
  });

  it('adds text to a buffer only when it is valid UTF-8', () => {
    expect(toJsonValue(utf8Encode('héllo'))).toStrictEqual({ len: 6, hex: '68c3a96c6c6f', text: 'héllo' });
    expect(toJsonValue(new Uint8Array([0xc3]))).toStrictEqual({ len: 1, hex: 'c3' });
    expect(toJsonValue(new Uint8Array([0xed, 0xa0, 0x80]))).toStrictEqual({ len: 3, hex: 'eda080' });
    expect(toJsonValue(new Uint8Array(0))).toStrictEqual({ len: 0, hex: '', text: '' });
  });

  it('keeps null distinct from empty and drops undefined properties', () => {
    expect(toJsonValue({ data: null, acl: [], path: '', readOnly: undefined })).toStrictEqual({ data: null, acl: [], path: '' });
  });

  it('shows opaque bodies as raw hex', () => {
    expect(toJsonValue(new OpaqueBody(new Uint8Array([0, 255])))).toStrictEqual({ raw: '00ff' });
  });
});

describe('summaries', () => {
  it('never prints auth credentials', () => {
    const s = summarizeRequestBody('auth', { type: 0, scheme: 'digest', auth: utf8Encode('alice:secret') });
    expect(s).toBe('scheme=digest (12B credentials)');
  });

  it('shortens data', () => {
    expect(shortData(null)).toBe('null');
    expect(shortData(utf8Encode('abc'))).toBe('"abc"(3B)');
    expect(shortData(new Uint8Array([0, 1, 2]))).toBe('0x000102(3B)');
    expect(shortData(new Uint8Array(100).fill(0x41))).toBe(`"${'A'.repeat(32)}…"(100B)`);
  });
});

describe('session ids', () => {
  // A session id starts with the server id in its top byte: server 129 makes it negative as a Jute (signed) long.
  const wire = BigInt.asIntN(64, 0x8100000000000001n);
  const printed = '0x8100000000000001';

  it('print as ZooKeeper prints them, unsigned, even with the top bit set', () => {
    expect(wire < 0n).toBe(true);
    expect(hexId(wire)).toBe(printed);
    expect(hexId(-1n)).toBe('0xffffffffffffffff');
    expect(hexId(0x26n)).toBe('0x26');
  });

  it('read the same in the client (sessionIdHex), the frame describer and the trace printer', () => {
    const w = new JuteWriter();
    encodeConnectRequestFrame(w, { protocolVersion: 0, lastZxidSeen: 0n, timeOut: 30_000, sessionId: 0n, passwd: new Uint8Array(16) });
    const request = w.written().slice();
    w.reset();
    encodeConnectResponseFrame(w, { protocolVersion: 0, timeOut: 30_000, sessionId: wire, passwd: new Uint8Array(16), readOnly: false });
    const decoder = new ConversationDecoder();
    decoder.decode('c2s', request);
    const response = decoder.decode('s2c', w.written().slice());
    expect(sessionIdHex(wire)).toBe(printed);
    expect(response.summary).toContain(`sessionId=${printed}`);
    const line = lineHead(0, 1, wire);
    expect(line).toContain(printed);
  });
});

describe('readable names', () => {
  it('names create flags, addWatch modes and watcher types as ZooKeeper spells them; unknown values stay numbers', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 9].map(createFlagsName)).toEqual([
      'PERSISTENT',
      'EPHEMERAL',
      'PERSISTENT_SEQUENTIAL',
      'EPHEMERAL_SEQUENTIAL',
      'CONTAINER',
      'PERSISTENT_WITH_TTL',
      'PERSISTENT_SEQUENTIAL_WITH_TTL',
      '9',
    ]);
    expect([0, 1, 2].map(addWatchModeName)).toEqual(['PERSISTENT', 'PERSISTENT_RECURSIVE', '2']);
    expect([1, 2, 3].map(watcherTypeName)).toEqual(['CHILDREN', 'DATA', 'ANY']);
  });

  it('spells ACL permission bits as letters', () => {
    expect([31, 1, 17, 12, 0, 32 | 1].map(permsText)).toEqual(['cdrwa', 'r', 'ra', 'cd', '-', 'r+0x20']);
  });

  it('uses the names in request and reply summaries', () => {
    const acl = [{ perms: 31, id: { scheme: 'world', id: 'anyone' } }, { perms: 1, id: { scheme: 'ip', id: '10.0.0.1' } }];
    expect(summarizeRequestBody('create', { path: '/a', data: null, acl, flags: 3 })).toBe('/a data=null flags=EPHEMERAL_SEQUENTIAL acl=[cdrwa world:anyone, r ip:10.0.0.1]');
    expect(summarizeRequestBody('addWatch', { path: '/a', mode: 1 })).toBe('/a mode=PERSISTENT_RECURSIVE');
    expect(summarizeRequestBody('removeWatches', { path: '/a', type: 2 })).toBe('/a type=DATA');
    expect(summarizeResponseBody({ acl: [acl[1]] })).toBe('acl=[r ip:10.0.0.1]');
  });
});

describe('event type names: one table', () => {
  it('names every EventType the same way for the session and the describer, and flags unknown numbers', async () => {
    const { EventType, knownEventType } = await import('../../src/protocol.js');
    const { eventTypeName } = await import('../../src/protocol/describe.js');
    for (const [name, code] of Object.entries(EventType)) {
      expect(knownEventType(code)).toBe(name);
      expect(eventTypeName(code)).toBe(name);
    }
    expect(knownEventType(99)).toBeUndefined();
    expect(eventTypeName(99)).toBe('event(99)');
  });
});
