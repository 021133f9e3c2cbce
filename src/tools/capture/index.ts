/**
 * Every capture zkwire reads, through one entry point: `readCaptureEvents` detects the format by its first bytes
 * (pcap a1b2c3d4/a1b23c4d in either byte order, pcapng 0a0d0d0a, anything else JSON lines) and yields CaptureEvents.
 * Pure: it works on Uint8Array chunks from any source (a file, standard input, a fetch body), with no Node API.
 */

import { ConnectionTable } from './connections.js';
import type { CaptureEvent } from './events.js';
import { PacketDecoder } from './ip-tcp.js';
import { JsonLinesReader } from './jsonl-source.js';
import type { CaptureFileReader, NoteSink } from './packet.js';
import { isPcapMagic, PcapReader } from './pcap.js';
import { isPcapngMagic, PcapngReader } from './pcapng.js';

export type { BadLineEvent, CaptureConnection, CaptureEvent, ConnectionCloseEvent, ConnectionOpenEvent, FrameEvent, GapEvent, LineOrigin } from './events.js';
export { CaptureFormatError } from './capture-error.js';

/** The ZooKeeper client port, the default server end. */
export const DEFAULT_ZOOKEEPER_PORT = 2181;

export type CaptureFormat = 'pcap' | 'pcapng' | 'jsonl';

export interface ReadCaptureOptions {
  /** Server ports: a TCP connection to one of them is ZooKeeper traffic, the others are ignored. Default [2181]. */
  ports?: readonly number[];
  /** Called for what is worth telling but is no error: a file truncated at the end, ignored fragments. */
  onNote?: NoteSink;
  /**
   * JSON-lines captures: a line that is not a frame makes the capture corrupt (CaptureFormatError) instead of
   * becoming a `bad-line` event — for an analysis, which a capture with holes would mislead.
   */
  strictLines?: boolean;
}

/** The capture format its first four bytes announce. */
export function detectCaptureFormat(first: Uint8Array): CaptureFormat {
  if (isPcapMagic(first)) return 'pcap';
  if (isPcapngMagic(first)) return 'pcapng';
  return 'jsonl';
}

const encoder = new TextEncoder();

/**
 * The events of one capture, in batches (one per input chunk, possibly empty): cheaper than one `yield` per event
 * for big files, and a batch is complete as soon as its chunk arrived (what a live pipe needs).
 * Throws CaptureFormatError on a corrupt capture; a truncated end is only a note.
 */
export async function* readCaptureEventBatches(
  chunks: AsyncIterable<Uint8Array | string>,
  opts: ReadCaptureOptions = {},
): AsyncGenerator<CaptureEvent[]> {
  const onNote = opts.onNote ?? ((): void => {});
  // Readers push into this one array; each batch is a copy taken when a chunk is done.
  const out: CaptureEvent[] = [];
  let reader: (CaptureFileReader & { finish?: () => void }) | undefined;
  let head = new Uint8Array(0);
  for await (const chunk of chunks) {
    const bytes = typeof chunk === 'string' ? encoder.encode(chunk) : chunk;
    if (reader === undefined) {
      const joined = new Uint8Array(head.length + bytes.length);
      joined.set(head);
      joined.set(bytes, head.length);
      head = joined;
      if (head.length < 4) continue;
      reader = createReader(detectCaptureFormat(head), out, opts, onNote);
      reader.push(head);
    } else reader.push(bytes);
    if (out.length > 0) {
      const batch = out.slice();
      out.length = 0;
      yield batch;
    }
  }
  if (reader === undefined) {
    if (head.length === 0) return;
    reader = createReader(detectCaptureFormat(head), out, opts, onNote);
    reader.push(head);
  }
  reader.end();
  reader.finish?.();
  if (out.length > 0) yield out;
}

/** The events of one capture, one at a time (see readCaptureEventBatches). */
export async function* readCaptureEvents(chunks: AsyncIterable<Uint8Array | string>, opts: ReadCaptureOptions = {}): AsyncGenerator<CaptureEvent> {
  for await (const batch of readCaptureEventBatches(chunks, opts)) yield* batch;
}

function createReader(
  format: CaptureFormat,
  out: CaptureEvent[],
  opts: ReadCaptureOptions,
  onNote: NoteSink,
): CaptureFileReader & { finish?: () => void } {
  if (format === 'jsonl') return new JsonLinesReader(out, opts.strictLines === true);
  const table = new ConnectionTable(out, new Set(opts.ports ?? [DEFAULT_ZOOKEEPER_PORT]));
  const packets = new PacketDecoder(onNote);
  const sink = (linkType: number, timeUs: number, buf: Uint8Array, view: DataView, offset: number, capLen: number): void => {
    const seg = packets.decode(linkType, buf, view, offset, capLen);
    if (seg !== undefined) table.segment(seg, timeUs);
  };
  const file = format === 'pcap' ? new PcapReader(sink, onNote) : new PcapngReader(sink, onNote);
  return { push: (b) => file.push(b), end: () => file.end(), finish: () => table.finish() };
}
