/** The transaction log and snapshot decoders on bad and big input, without a server (pure, bytes in). */

import { describe, expect, it } from 'vitest';
import { DataFileError, SnapshotDecoder, TxnLogDecoder, type TxnLogEvent } from '../../../src/tools/txnlog/index.js';
import { createTxn, setDataTxn, txnLogEntry, txnLogHeader } from './txnlog-writer.js';

const enc = new TextEncoder();

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** A log of `n` entries followed by `tail` preallocated zeros; entry offsets returned too. */
function log(n: number, tail = 64): { bytes: Uint8Array; offsets: number[] } {
  const parts = [txnLogHeader()];
  const offsets: number[] = [];
  let at = 16;
  for (let i = 1; i <= n; i++) {
    const e = txnLogEntry(i % 2 === 1 ? createTxn(0x100n, BigInt(i), `/n${i}`, enc.encode(`data ${i}`)) : setDataTxn(0x200n, BigInt(i), `/n${i - 1}`, enc.encode('v2')));
    offsets.push(at);
    at += e.length;
    parts.push(e);
  }
  parts.push(new Uint8Array(tail));
  return { bytes: concat(parts), offsets };
}

function decodeAll(bytes: Uint8Array, split: (len: number) => number[] = () => []): TxnLogEvent[] {
  const d = new TxnLogDecoder();
  const out: TxnLogEvent[] = [];
  let at = 0;
  for (const cut of [...split(bytes.length), bytes.length]) {
    out.push(...d.push(bytes.subarray(at, cut)));
    at = cut;
  }
  out.push(...d.end());
  return out;
}

const zxids = (events: TxnLogEvent[]): bigint[] => events.flatMap((e) => (e.type === 'txn' ? [e.entry.header.zxid] : []));

describe('TxnLogDecoder', () => {
  it('decodes every entry and ends quietly at the zero tail, however the bytes are split', () => {
    const { bytes } = log(20);
    const whole = decodeAll(bytes);
    expect(zxids(whole)).toEqual(Array.from({ length: 20 }, (_, i) => BigInt(i + 1)));
    expect(whole.at(-1)).toMatchObject({ type: 'end', reason: 'zero-tail', entries: 20, tailBytes: 64 });
    expect(whole.some((e) => e.type === 'damage')).toBe(false);
    const oneByOne = decodeAll(bytes, (n) => Array.from({ length: n - 1 }, (_, i) => i + 1));
    expect(oneByOne).toEqual(whole);
    let seed = 7;
    const random = (n: number): number[] => {
      const cuts: number[] = [];
      for (let at = 0; at < n; ) {
        seed = (seed * 1103515245 + 12345) % 2 ** 31;
        at += 1 + (seed % 97);
        if (at < n) cuts.push(at);
      }
      return cuts;
    };
    expect(decodeAll(bytes, random)).toEqual(whole);
  });

  it('reports a flipped payload byte as a checksum mismatch at its offset and goes on', () => {
    const { bytes, offsets } = log(10);
    const bad = bytes.slice();
    bad[offsets[4]! + 30]! ^= 0x01;
    const events = decodeAll(bad);
    expect(events.filter((e) => e.type === 'damage')).toEqual([
      expect.objectContaining({ code: 'CHECKSUM_MISMATCH', offset: offsets[4], resumedAt: offsets[5] }),
    ]);
    expect(zxids(events)).toEqual([1n, 2n, 3n, 4n, 6n, 7n, 8n, 9n, 10n]);
  });

  it('resynchronises after a damaged length', () => {
    const { bytes, offsets } = log(10);
    const bad = bytes.slice();
    bad[offsets[2]! + 10]! ^= 0x40; // the length's third byte: now far too long, no 'B' where it says
    const events = decodeAll(bad);
    expect(events.filter((e) => e.type === 'damage')).toEqual([expect.objectContaining({ code: 'BAD_ENTRY', offset: offsets[2], resumedAt: offsets[3] })]);
    expect(zxids(events)).toEqual([1n, 2n, 4n, 5n, 6n, 7n, 8n, 9n, 10n]);
  });

  it('reports a truncated last entry with its offset', () => {
    const { bytes, offsets } = log(5, 0);
    const events = decodeAll(bytes.subarray(0, offsets[4]! + 20));
    expect(events.filter((e) => e.type === 'damage')).toEqual([expect.objectContaining({ code: 'TRUNCATED_ENTRY', offset: offsets[4], resumedAt: undefined })]);
    expect(zxids(events)).toEqual([1n, 2n, 3n, 4n]);
  });

  it('refuses an empty file, a snapshot, a short file and random bytes with typed errors', () => {
    const code = (bytes: Uint8Array): string => {
      try {
        decodeAll(bytes);
        return 'none';
      } catch (e) {
        return e instanceof DataFileError ? `${e.code}: ${e.message}` : String(e);
      }
    };
    expect(code(new Uint8Array(0))).toMatch(/^EMPTY_FILE/);
    expect(code(enc.encode('ZKSN\0\0\0\u0002\0\0\0\0\0\0\0\0'))).toMatch(/^NOT_A_TXNLOG: .*a ZooKeeper snapshot/);
    expect(code(enc.encode('ZKLG'))).toMatch(/^NOT_A_TXNLOG: 4 byte\(s\) are too few/);
    expect(code(enc.encode('{"dir":"c2s","hex":"00"}\n'))).toMatch(/^NOT_A_TXNLOG/);
  });

  it('streams: holds at most one chunk plus one entry, and never keeps the zero tail', () => {
    const d = new TxnLogDecoder();
    const { bytes } = log(2000, 0);
    const chunk = 4096;
    let most = 0;
    for (let at = 0; at < bytes.length; at += chunk) {
      d.push(bytes.subarray(at, at + chunk));
      most = Math.max(most, d.buffered);
    }
    expect(most).toBeLessThan(chunk + 100);
    // A preallocated tail of 256 MiB pushed as the same zero chunk over and over: nothing of it is held.
    const zeros = new Uint8Array(1024 * 1024);
    for (let i = 0; i < 256; i++) expect(d.push(zeros)).toEqual([]);
    expect(d.buffered).toBe(0);
    expect(d.end().at(-1)).toMatchObject({ type: 'end', reason: 'zero-tail', entries: 2000, tailBytes: 256 * 1024 * 1024 });
  });
});

describe('SnapshotDecoder', () => {
  it('refuses an empty file, a log and a truncated snapshot with typed errors', () => {
    const run = (bytes: Uint8Array): string => {
      const d = new SnapshotDecoder();
      try {
        d.push(bytes);
        d.end();
        return 'none';
      } catch (e) {
        return e instanceof DataFileError ? e.code : String(e);
      }
    };
    expect(run(new Uint8Array(0))).toBe('EMPTY_FILE');
    expect(run(log(1).bytes)).toBe('NOT_A_SNAPSHOT');
    const header = enc.encode('ZKSN\0\0\0\u0002\0\0\0\0\0\0\0\0');
    expect(run(concat([header, new Uint8Array([0, 0, 0, 1, 0, 0])]))).toBe('CORRUPT_SNAPSHOT');
  });
});
