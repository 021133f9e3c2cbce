/**
 * The JSON-lines writer is a sink like the others: a packet capture written as JSON lines reads back through the
 * JSON-lines source as the same frames, so a pcap becomes a golden-format capture (what `zkwire trace --out` writes).
 */

import { describe, expect, it } from 'vitest';
import { JsonLinesWriter } from '../../../src/tools/capture/jsonl-writer.js';
import { collect, frameEvents, goldenConnection, loadFixture, summary } from './helpers.js';
import { capture, Link, pcapFile } from './pcap-writer.js';

describe('JsonLinesWriter', () => {
  it('writes a packet capture as JSON lines that read back as the same frames, with seq, conn and time', async () => {
    const golden = loadFixture('errors.jsonl');
    const { packets } = goldenConnection(golden, { startUs: 1_795_000_000_000_000, mss: 100 });
    const { events } = await collect(pcapFile(Link.ethernet, capture(packets, Link.ethernet)));
    const writer = new JsonLinesWriter();
    const lines = events.flatMap((e) => {
      const l = writer.line(e);
      return l === undefined ? [] : [l];
    });
    const frames = frameEvents(events);
    expect(lines).toHaveLength(frames.length);
    const parsed = lines.map((l) => JSON.parse(l) as { seq: number; t: number; ts: string; conn: number; dir: string; len: number | null; hex: string });
    expect(parsed.map((p) => p.seq)).toStrictEqual(frames.map((_, i) => i));
    expect(new Set(parsed.map((p) => p.conn))).toStrictEqual(new Set([1]));
    expect(parsed[0]).toMatchObject({ t: 0, ts: new Date(frames[0]!.timeUs / 1000).toISOString(), len: frames[0]!.size - 4 });

    const back = await collect(new TextEncoder().encode(`${lines.join('\n')}\n`));
    expect(frameEvents(back.events).map(summary)).toStrictEqual(frames.map(summary));
    // `ts` has ms precision, which the source reads back.
    expect(frameEvents(back.events).map((e) => e.timeUs)).toStrictEqual(frames.map((e) => Math.floor(e.timeUs / 1000) * 1000));
  });
});
