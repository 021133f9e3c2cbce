/**
 * The decoding side of one proxied connection: the tracer's decision on the framing proxy (testing/framing-proxy.ts),
 * which forwards every chunk first and then hands over the frames it completed; nothing in this file can hold back,
 * alter or drop a forwarded byte. It runs the shared ConversationDecoder over the frames, tracks the session id and
 * request timestamps for latencies, and turns a four-letter-word connection into frames of raw text. What it reports
 * is the capture tools' one event stream (capture/events.ts): the proxy is a capture source like a pcap file.
 */

import { ConversationDecoder, detectFourLetterWord, type Direction } from '../../protocol/index.js';
import { RequestTimes } from '../capture/request-times.js';
import type { Piece } from '../../testing/frame-splitter.js';
import type { ConnectionHandler, EndedBy } from '../../testing/framing-proxy.js';
import { concatBytes } from '../../protocol/bytes.js';
import type { CaptureConnection, CaptureEvent, GapEvent } from '../capture/events.js';

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

type Mode = 'start' | 'zk' | '4lw';

export class TracedConnection implements ConnectionHandler {
  readonly #hooks: TracedConnectionHooks;
  #mode: Mode = 'start';
  readonly #conv = new ConversationDecoder();
  readonly #broken: Record<Direction, boolean> = { c2s: false, s2c: false };
  /** Four-letter-word text not yet reported, per direction (reported when the connection closes). */
  readonly #text: Record<Direction, Uint8Array[]> = { c2s: [], s2c: [] };
  /** The session and request times (monotonic, in µs) for latencies. */
  readonly #times = new RequestTimes();
  #closed = false;

  constructor(
    readonly conn: CaptureConnection,
    hooks: TracedConnectionHooks,
  ) {
    this.#hooks = hooks;
  }

  /** Observes what the splitter made of chunks that were just forwarded. */
  frames(dir: Direction, pieces: readonly Piece[]): void {
    for (const piece of pieces) {
      if (this.#closed) return;
      // The first client bytes tell a ZooKeeper session from a four-letter word (not frames: the splitter passes them raw).
      if (this.#mode === 'start' && dir === 'c2s') {
        this.#mode = piece.kind === 'raw' && detectFourLetterWord(piece.bytes) !== undefined ? '4lw' : 'zk';
        if (this.#mode === '4lw') {
          this.#emitFrame('c2s', piece.bytes);
          continue;
        }
      }
      if (this.#mode === '4lw') this.#text[dir].push(piece.bytes);
      else if (this.#broken[dir]) this.#emitRaw(dir, piece.bytes, 'unframed', undefined);
      else if (piece.kind === 'frame') this.#emitFrame(dir, piece.bytes);
      else {
        this.#broken[dir] = true;
        this.#emitRaw(dir, piece.bytes, 'unframed', `${piece.error ?? 'unframed bytes'}; the rest of this direction is passed through undecoded`);
      }
    }
  }

  /** Reports what is still held (an incomplete frame, a four-letter word's text) and the close. Idempotent. */
  closed(by: EndedBy, error: string | undefined, held: Record<Direction, Uint8Array>): void {
    if (this.#closed) return;
    for (const dir of ['c2s', 's2c'] as const) {
      if (this.#mode === '4lw') {
        const text = concatBytes(this.#text[dir]);
        if (text.length > 0) this.#emitFrame(dir, text);
      } else if (held[dir].length > 0) {
        this.#emitRaw(dir, held[dir], 'incomplete-frame', `incomplete frame: ${held[dir].length} byte(s) held when the connection closed`);
      }
    }
    this.#closed = true;
    // The proxy cutting connections as it stops is the end of the capture, not something a peer did.
    const reason = error !== undefined ? 'rst' : by === 'proxy' ? 'capture-end' : 'fin';
    this.#hooks.emit({ type: 'close', conn: this.conn, timeUs: this.#hooks.nowUs(), reason, by, ...(error === undefined ? {} : { error }) });
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
