/**
 * Cuts one direction of a ZooKeeper TCP stream into whole frames (each an int32 length + payload), length prefix
 * included, exactly as the bytes came in: the fault proxy decides per frame, and the tracing proxy decodes and
 * records every frame. The cutting is the protocol's FrameDecoder (the one frame splitter of the codebase, with its
 * own codec tests); what is the proxies' own is here: copies of whole frames with their xid and type peeked, raw
 * pass-through once a stream is not frames, and the four-letter-word rule for both directions. The proxies' tests
 * check what reaches each side, so a fault in the decoder would not go unnoticed behind the proxy.
 *
 * A length the peer could never legitimately send (negative, or above `maxLength`) switches the stream to raw mode
 * for good: four-letter words and their text answers, garbage, or an oversized prefix a test sends on purpose are
 * forwarded as they come instead of being held forever while waiting for a frame that will never be complete.
 *
 * Chunks are only read, never modified (both proxies hand the same chunk on to the socket they forward to), and
 * every frame is a copy: the fault proxy may hold a frame back while the caller reuses its buffer.
 */

import { int32 } from '../protocol/bytes.js';
import { FrameDecoder } from '../protocol/frame.js';

export type Piece =
  | { kind: 'frame'; bytes: Uint8Array; /** payload offset 0, if present */ xid?: number; /** offset 4 */ type?: number }
  /** Bytes passed through unframed; `error` says why on the piece where the stream broke. */
  | { kind: 'raw'; bytes: Uint8Array; error?: string };

/** Which way bytes travel on a proxied connection: client to server, or back. */
export type Direction = 'c2s' | 's2c';

/** One direction's cutter: whole frames out, or raw bytes once the stream is not frames (see above). */
export class FrameSplitter {
  readonly #frames: FrameDecoder;
  #rawMode = false;

  constructor(maxLength: number) {
    this.#frames = new FrameDecoder({ maxFrameSize: maxLength, keepPrefix: true });
  }

  get raw(): boolean {
    return this.#rawMode;
  }

  /** Bytes held because they are an incomplete frame. */
  get buffered(): number {
    return this.#frames.buffered;
  }

  /** From now on pass everything through unparsed (e.g. the other direction turned out to be a 4lw). */
  switchToRaw(): Piece[] {
    this.#rawMode = true;
    const rest = this.takeAll();
    return rest.length > 0 ? [{ kind: 'raw', bytes: rest }] : [];
  }

  /** Everything held (an incomplete frame when the connection closes), emptying the splitter. */
  takeAll(): Uint8Array {
    return this.#frames.drain();
  }

  push(chunk: Uint8Array): Piece[] {
    if (this.#rawMode) return chunk.length > 0 ? [{ kind: 'raw', bytes: chunk }] : [];
    this.#frames.push(chunk);
    const pieces: Piece[] = [];
    for (;;) {
      const r = this.#frames.next();
      if (r.kind === 'need-more') return pieces;
      if (r.kind === 'error') {
        this.#rawMode = true;
        pieces.push({ kind: 'raw', bytes: this.takeAll(), error: r.error.message });
        return pieces;
      }
      // A copy (new Uint8Array copies; the socket's chunk is a Buffer, whose slice() is a view).
      const bytes = new Uint8Array(r.payload);
      const piece: Piece = { kind: 'frame', bytes };
      if (bytes.length >= 8) piece.xid = int32(bytes, 4);
      if (bytes.length >= 12) piece.type = int32(bytes, 8);
      pieces.push(piece);
    }
  }
}

/**
 * Both directions of one connection, each with its own limit. A connection whose first client bytes are not a frame
 * (a four-letter word such as `ruok`, or garbage) is plain text both ways: the server's answer is passed through
 * raw too, not held while waiting for a frame.
 */
export class ConnectionSplitter {
  readonly #ways: Record<Direction, FrameSplitter>;
  #started = false;

  constructor(maxLength: Record<Direction, number>) {
    this.#ways = { c2s: new FrameSplitter(maxLength.c2s), s2c: new FrameSplitter(maxLength.s2c) };
  }

  /** The pieces `chunk` completes, each way: what `dir` gives, and what the other direction lets go of. */
  push(dir: Direction, chunk: Uint8Array): Record<Direction, Piece[]> {
    const pieces = this.#ways[dir].push(chunk);
    const out = { c2s: [] as Piece[], s2c: [] as Piece[] };
    out[dir] = pieces;
    if (dir === 'c2s' && !this.#started && pieces.length > 0) {
      this.#started = true;
      if (pieces[0]!.kind === 'raw') out.s2c = this.#ways.s2c.switchToRaw();
    }
    return out;
  }

  /** The bytes of an incomplete frame `dir` still holds (when the connection closes), emptying it. */
  takeHeld(dir: Direction): Uint8Array {
    return this.#ways[dir].takeAll();
  }
}
