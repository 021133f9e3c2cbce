/**
 * Every capture zkwire reads, through one entry point: `readCaptureEvents` detects the format by its first bytes
 * (pcap a1b2c3d4/a1b23c4d in either byte order, pcapng 0a0d0d0a, JSON lines when the first character is `{`) and
 * yields CaptureEvents. Anything else — an empty input, a text file, a header cut short — is a CaptureFormatError,
 * never an empty result. Packet captures without `ports` find their ZooKeeper connections by the frames' shape
 * (port-finder.ts). Pure: it works on Uint8Array chunks from any source (a file, standard input, a fetch body), with
 * no Node API.
 */

import { ConnectionTable } from './connections.js';
import type { CaptureEvent } from './events.js';
import { PacketDecoder } from './ip-tcp.js';
import { JsonLinesReader } from './jsonl-source.js';
import type { CaptureFileReader, NoteSink } from './packet.js';
import { isPcapMagic, PcapReader } from './pcap.js';
import { isPcapngMagic, PcapngReader } from './pcapng.js';
import { PortFinder } from './port-finder.js';
import { CaptureFormatError } from './capture-error.js';
import { safeText } from '../shared/safe-text.js';
import { hexEncode } from '../../protocol/hex.js';

export type { BadLineEvent, CaptureConnection, CaptureEvent, ConnectionCloseEvent, ConnectionOpenEvent, FrameEvent, GapEvent, LineOrigin } from './events.js';
export { CaptureFormatError } from './capture-error.js';

/** The ZooKeeper client port: always taken for a server end when no ports are given. */
export const DEFAULT_ZOOKEEPER_PORT = 2181;

/** `unknown`: none of the three (the reader refuses it). */
export type CaptureFormat = 'pcap' | 'pcapng' | 'jsonl' | 'unknown';

export interface ReadCaptureOptions {
  /**
   * Server ports: a TCP connection to one of them is ZooKeeper traffic, the others are ignored. Default (undefined
   * or empty): 2181, and any port whose connections look like ZooKeeper (a ConnectRequest first, or a request
   * answered by a reply with its xid).
   */
  ports?: readonly number[];
  /** Called for what is worth telling but is no error: a file truncated at the end, ignored fragments. */
  onNote?: NoteSink;
  /**
   * JSON-lines captures: a line that is not a frame makes the capture corrupt (CaptureFormatError) instead of
   * becoming a `bad-line` event — for an analysis, which a capture with holes would mislead.
   */
  strictLines?: boolean;
}

/** The capture format its first bytes announce (at least four, or the whole input when it is shorter). */
export function detectCaptureFormat(first: Uint8Array): CaptureFormat {
  if (isPcapMagic(first)) return 'pcap';
  if (isPcapngMagic(first)) return 'pcapng';
  const at = firstNonBlank(first);
  return at !== undefined && first[at] === 0x7b ? 'jsonl' : 'unknown';
}

/** Where the first byte that is not whitespace (nor a UTF-8 byte-order mark) is, if `b` has one. */
function firstNonBlank(b: Uint8Array): number | undefined {
  let at = b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? 3 : 0;
  while (at < b.length && (b[at] === 0x20 || b[at] === 0x09 || b[at] === 0x0a || b[at] === 0x0d)) at++;
  return at < b.length ? at : undefined;
}

/** Blank lines are allowed before the first JSON line: this much is read looking for its `{`. */
const MAX_LEADING_BLANKS = 64 * 1024;

/** Enough of the start to tell the format: four bytes and something that is not whitespace. */
function decidable(head: Uint8Array): boolean {
  return head.length >= MAX_LEADING_BLANKS || (head.length >= 4 && firstNonBlank(head) !== undefined);
}

/** The first bytes of something that is no capture, shown so one can tell what it was. */
function describeStart(head: Uint8Array): string {
  const start = head.subarray(0, 24);
  const text = new TextDecoder('utf-8', { fatal: false }).decode(start);
  // Text (mostly printable) is quoted with its control characters escaped; anything else is shown as hex.
  const printable = [...text].filter((c) => c >= ' ' || c === '\n' || c === '\t' || c === '\r').length;
  if (!text.includes('\ufffd') && printable >= text.length * 0.9) return `"${safeText(text)}${head.length > start.length ? '…' : ''}"`;
  return `bytes ${hexEncode(start).replace(/(..)(?=.)/g, '$1 ')}${head.length > start.length ? ' …' : ''}`;
}

function refuse(head: Uint8Array): never {
  if (head.length === 0) throw new CaptureFormatError('the capture is empty (0 bytes): nothing was captured, or it is not the capture file', undefined);
  throw new CaptureFormatError(
    `not a capture: neither pcap, pcapng nor JSON lines (${head.length < 4 ? `only ${head.length} byte(s)` : `it begins with ${describeStart(head)}`})`,
    undefined,
  );
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
      if (!decidable(head)) continue;
      reader = createReader(detectCaptureFormat(head), head, out, opts, onNote);
      reader.push(head);
    } else reader.push(bytes);
    if (out.length > 0) {
      const batch = out.slice();
      out.length = 0;
      yield batch;
    }
  }
  if (reader === undefined) {
    reader = createReader(detectCaptureFormat(head), head, out, opts, onNote);
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
  head: Uint8Array,
  out: CaptureEvent[],
  opts: ReadCaptureOptions,
  onNote: NoteSink,
): CaptureFileReader & { finish?: () => void } {
  if (format === 'unknown') refuse(head);
  if (format === 'jsonl') return new JsonLinesReader(out, opts.strictLines === true);
  const given = opts.ports !== undefined && opts.ports.length > 0;
  const ports = new Set(given ? opts.ports : [DEFAULT_ZOOKEEPER_PORT]);
  const table = new ConnectionTable(out, ports);
  const finder = given ? undefined : new PortFinder(ports, (seg, t) => table.segment(seg, t));
  const packets = new PacketDecoder(onNote);
  const sink = (linkType: number, timeUs: number, buf: Uint8Array, view: DataView, offset: number, capLen: number): void => {
    const seg = packets.decode(linkType, buf, view, offset, capLen);
    if (seg === undefined) return;
    if (finder === undefined) table.segment(seg, timeUs);
    else finder.segment(seg, timeUs);
  };
  const file = format === 'pcap' ? new PcapReader(sink, onNote) : new PcapngReader(sink, onNote);
  return {
    push: (b) => file.push(b),
    end: () => file.end(),
    finish: () => {
      const none = finder?.finish();
      table.finish();
      if (none !== undefined) onNote(none);
    },
  };
}
