/**
 * The decoding side of one proxied connection. The proxy forwards every chunk first and then hands the same chunk
 * here; nothing in this file can hold back, alter or drop a forwarded byte. It frames each direction, runs the shared
 * ConversationDecoder over the frames, tracks the session id and request timestamps for latencies, and turns a
 * four-letter-word connection into frames of raw text. What it reports is the capture tools' one event stream
 * (capture/events.ts): the proxy is a capture source like a pcap file.
 */

import { ConversationDecoder, detectFourLetterWord, type Direction } from '../../protocol/index.js';
import { RequestTimes } from '../capture/request-times.js';
import { FrameSplitter } from '../../testing/frame-splitter.js';
import { concatBytes } from '../../protocol/bytes.js';
import type { CaptureConnection, CaptureEvent, ConnectionCloseEvent, GapEvent } from '../capture/events.js';

/** The clocks the tracer reads (injectable for tests). */
export interface TraceClock {
  /** Wall clock, ms since the epoch (for display and the capture). */
  wall(): number;
  /** Monotonic ms (for latencies). */
  mono(): number;
}

export interface TracedConnectionHooks {
  /** Wall-clock µs since the epoch that advance with the monotonic clock (event times and latencies). */
  nowUs(): number;
  emit(event: CaptureEvent): void;
}

/** Which side ended a proxied connection first. */
export type ClosedBy = NonNullable<ConnectionCloseEvent['by']>;

type Mode = 'start' | 'zk' | '4lw';

export class TracedConnection {
  readonly #hooks: TracedConnectionHooks;
  #mode: Mode = 'start';
  readonly #conv = new ConversationDecoder();
  readonly #splitters: Record<Direction, FrameSplitter>;
  readonly #broken: Record<Direction, boolean> = { c2s: false, s2c: false };
  readonly #bytes = { c2s: 0, s2c: 0 };
  /** c2s bytes before we know whether this is a ZooKeeper session or a four-letter word. */
  #startBytes: Uint8Array[] = [];
  /** Four-letter-word text not yet reported, per direction (reported when the connection closes). */
  readonly #text: Record<Direction, Uint8Array[]> = { c2s: [], s2c: [] };
  /** The session and request times (monotonic, in µs) for latencies. */
  readonly #times = new RequestTimes();
  #closed = false;

  constructor(
    readonly conn: CaptureConnection,
    hooks: TracedConnectionHooks,
    maxFrameSize: number,
  ) {
    this.#hooks = hooks;
    this.#splitters = { c2s: new FrameSplitter(maxFrameSize), s2c: new FrameSplitter(maxFrameSize) };
  }

  /** Observes a chunk that was just forwarded. */
  observe(dir: Direction, chunk: Uint8Array): void {
    if (this.#closed) return;
    this.#bytes[dir] += chunk.length;
    if (this.#mode === 'start' && dir === 'c2s') {
      this.#startBytes.push(chunk);
      const held = concatBytes(this.#startBytes);
      if (held.length < 4) {
        this.#startBytes = [held];
        return;
      }
      this.#startBytes = [];
      this.#mode = detectFourLetterWord(held) !== undefined ? '4lw' : 'zk';
      if (this.#mode === '4lw') this.#emitFrame('c2s', held);
      else this.#feed('c2s', held);
      return;
    }
    if (this.#mode === '4lw') this.#text[dir].push(chunk);
    else this.#feed(dir, chunk);
  }

  /** Flushes what is still held and reports the close. Idempotent. */
  close(by: ClosedBy, error: string | undefined): void {
    if (this.#closed) return;
    if (this.#mode === 'start' && this.#startBytes.length > 0) {
      // Fewer than four bytes ever came: report them as the incomplete frame they are.
      this.#mode = 'zk';
      this.#feed('c2s', concatBytes(this.#startBytes));
    }
    for (const dir of ['c2s', 's2c'] as const) {
      if (this.#mode === '4lw') {
        const text = concatBytes(this.#text[dir]);
        if (text.length > 0) this.#emitFrame(dir, text);
      } else if (this.#splitters[dir].buffered > 0) {
        const held = this.#splitters[dir].takeAll();
        const error = this.#broken[dir] ? undefined : `incomplete frame: ${held.length} byte(s) held when the connection closed`;
        this.#emitRaw(dir, held, this.#broken[dir] ? 'unframed' : 'incomplete-frame', error);
      }
    }
    this.#closed = true;
    // The proxy cutting connections as it stops is the end of the capture, not something a peer did.
    const reason = error !== undefined ? 'rst' : by === 'proxy' ? 'capture-end' : 'fin';
    this.#hooks.emit({ type: 'close', conn: this.conn, timeUs: this.#hooks.nowUs(), reason, by, ...(error === undefined ? {} : { error }) });
  }

  #feed(dir: Direction, chunk: Uint8Array): void {
    if (this.#broken[dir]) {
      this.#emitRaw(dir, chunk, 'unframed', undefined);
      return;
    }
    for (const piece of this.#splitters[dir].push(chunk)) {
      if (piece.kind === 'raw') {
        this.#broken[dir] = true;
        this.#emitRaw(dir, piece.bytes, 'unframed', `${piece.error ?? 'unframed bytes'}; the rest of this direction is passed through undecoded`);
        return;
      }
      this.#emitFrame(dir, piece.bytes);
    }
  }

  #emitFrame(dir: Direction, bytes: Uint8Array): void {
    const timeUs = this.#hooks.nowUs();
    const frame = this.#conv.decode(dir, bytes);
    const latencyMs = this.#times.observe(frame, timeUs);
    this.#hooks.emit({ type: 'frame', conn: this.conn, timeUs, dir, frame, size: bytes.length, bytes, sessionId: this.#times.sessionId, latencyMs });
  }

  /** Bytes that crossed the proxy but cannot be framed: only their decoding is lost. The first of a broken stream says why. */
  #emitRaw(dir: Direction, bytes: Uint8Array, kind: NonNullable<GapEvent['undecoded']>['kind'], error: string | undefined): void {
    this.#hooks.emit({
      type: 'gap',
      conn: this.conn,
      timeUs: this.#hooks.nowUs(),
      dir,
      missingBytes: undefined,
      reason: error ?? `${kind} bytes`,
      undecoded: { bytes, kind },
      continues: error === undefined,
    });
  }
}
