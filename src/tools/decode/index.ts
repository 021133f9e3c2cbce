/**
 * `zkwire decode` as a function: any capture's bytes (pcap, pcapng, JSON lines) through the capture sources into the
 * printing sink, with --check's re-encoding sink beside it. Pure: chunks in, lines out, no Node API.
 */

import { readCaptureEventBatches, type CaptureEvent, type ReadCaptureOptions } from '../capture/index.js';
import { CaptureEventPrinter, type EventLine } from './printer.js';
import { FrameRecheck } from './recheck.js';

export { CaptureEventPrinter, type EventLine } from './printer.js';
export { FrameRecheck } from './recheck.js';
export { frameJson, isoMicros } from './frame-json.js';

export interface DecodeOptions extends Pick<ReadCaptureOptions, 'ports' | 'onNote'> {
  /** Re-encode every decoded frame and fail those whose bytes differ. */
  check?: boolean;
  /** Readable lines instead of JSON. */
  pretty?: boolean;
}

/** One printed line and the event it came from. */
export interface DecodedLine extends EventLine {
  event: CaptureEvent;
}

/** The lines `zkwire decode` prints for a capture, in capture order. */
export async function* decodeCapture(chunks: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>, opts: DecodeOptions = {}): AsyncGenerator<DecodedLine> {
  const printer = new CaptureEventPrinter({ pretty: opts.pretty === true });
  const recheck = opts.check === true ? new FrameRecheck() : undefined;
  const source = Symbol.asyncIterator in chunks ? chunks : (async function* () { yield* chunks; })();
  const read: ReadCaptureOptions = {};
  if (opts.ports !== undefined) read.ports = opts.ports;
  if (opts.onNote !== undefined) read.onNote = opts.onNote;
  for await (const batch of readCaptureEventBatches(source, read)) {
    for (const event of batch) {
      const r = printer.format(event, event.type === 'frame' ? recheck?.check(event) : undefined);
      if (r !== undefined) yield { ...r, event };
    }
  }
}
