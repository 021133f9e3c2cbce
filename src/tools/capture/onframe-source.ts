/**
 * A client's own `onFrame` trace as a capture source: every frame the session wrote or read becomes a CaptureEvent,
 * so a program can print (decode/printer.ts), check or analyze (analyze/analyzer.ts) its own traffic with the same
 * sinks as a capture file, without a packet capture or a proxy. Each TCP connection of the session is one capture
 * connection; a new one closes the previous.
 */

import { ConversationDecoder } from '../../protocol/index.js';
import type { FrameListener, FrameTrace } from '../../session/trace.js';
import type { CaptureConnection, CaptureEvent } from './events.js';
import { RequestTimes } from './request-times.js';

interface Current {
  number: number;
  conn: CaptureConnection;
  conv: ConversationDecoder;
  times: RequestTimes;
  lastUs: number;
}

/** Turns `onFrame` traces into capture events for `emit`; pass `listener` as the client's `onFrame` option. */
export class FrameTraceSource {
  readonly #names: { client?: string; server?: string };
  readonly #emit: (event: CaptureEvent) => void;
  #current: Current | undefined;

  constructor(
    emit: (event: CaptureEvent) => void,
    /** How the connections are named in the events (the client has no addresses in its trace). */
    names: { client?: string; server?: string } = {},
  ) {
    this.#names = names;
    this.#emit = emit;}

  /** The `onFrame` listener. */
  readonly listener: FrameListener = (trace: FrameTrace): void => {
    const timeUs = Math.round(trace.at * 1000);
    let c = this.#current;
    if (c === undefined || c.number !== trace.connection) {
      if (c !== undefined) this.#emit({ type: 'close', conn: c.conn, timeUs, reason: 'fin' });
      const id = String(trace.connection);
      c = {
        number: trace.connection,
        conn: { id, client: this.#names.client ?? `connection ${id}`, server: this.#names.server ?? 'unknown' },
        conv: new ConversationDecoder(),
        times: new RequestTimes(),
        lastUs: timeUs,
      };
      this.#current = c;
      this.#emit({ type: 'open', conn: c.conn, timeUs, midStream: false });
    }
    c.lastUs = timeUs;
    const frame = c.conv.decode(trace.dir, trace.bytes);
    const latencyMs = c.times.observe(frame, timeUs);
    this.#emit({ type: 'frame', conn: c.conn, timeUs, dir: trace.dir, frame, size: trace.bytes.length, bytes: trace.bytes, sessionId: c.times.sessionId, latencyMs });
  };

  /** The client is closed: the last connection ends with the capture. */
  end(): void {
    const c = this.#current;
    if (c === undefined) return;
    this.#current = undefined;
    this.#emit({ type: 'close', conn: c.conn, timeUs: c.lastUs, reason: 'capture-end' });
  }
}
