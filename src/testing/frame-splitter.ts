/**
 * Cuts one direction of a ZooKeeper TCP stream into whole frames (each an int32 length + payload), length prefix
 * included, exactly as the bytes came in: the fault proxy decides per frame, and the tracing proxy decodes and
 * records every frame. Deliberately independent of src/protocol: a test's fault injector must not trust the code
 * under test, and the tracer must keep the bytes of everything, broken or not (the codec's FrameDecoder returns
 * payloads and drops its buffer when a stream breaks).
 *
 * A length the peer could never legitimately send (negative, or above `maxLength`) switches the stream to raw mode
 * for good: four-letter words and their text answers, garbage, or an oversized prefix a test sends on purpose are
 * forwarded as they come instead of being held forever while waiting for a frame that will never be complete.
 *
 * Chunks are only read, never modified (both proxies hand the same chunk on to the socket they forward to), and
 * every piece is a copy: the fault proxy may hold a frame back while the caller reuses its buffer.
 */
export type Piece =
  | { kind: 'frame'; bytes: Uint8Array; /** payload offset 0, if present */ xid?: number; /** offset 4 */ type?: number }
  /** Bytes passed through unframed; `error` says why on the piece where the stream broke. */
  | { kind: 'raw'; bytes: Uint8Array; error?: string };

const EMPTY = new Uint8Array(0);

/** Which way bytes travel on a proxied connection: client to server, or back. */
export type Direction = 'c2s' | 's2c';

/** One direction's cutter: whole frames out, or raw bytes once the stream is not frames (see above). */
export class FrameSplitter {
  readonly #maxLength: number;
  #chunks: Uint8Array[] = [];
  #total = 0;
  #rawMode = false;

  constructor(maxLength: number) {
    this.#maxLength = maxLength;
  }

  get raw(): boolean {
    return this.#rawMode;
  }

  /** Bytes held because they are an incomplete frame. */
  get buffered(): number {
    return this.#total;
  }

  /** From now on pass everything through unparsed (e.g. the other direction turned out to be a 4lw). */
  switchToRaw(): Piece[] {
    this.#rawMode = true;
    const rest = this.takeAll();
    return rest.length > 0 ? [{ kind: 'raw', bytes: rest }] : [];
  }

  /** Everything held (an incomplete frame when the connection closes), emptying the splitter. */
  takeAll(): Uint8Array {
    return this.#take(this.#total);
  }

  push(chunk: Uint8Array): Piece[] {
    if (this.#rawMode) return chunk.length > 0 ? [{ kind: 'raw', bytes: chunk }] : [];
    if (chunk.length > 0) {
      this.#chunks.push(chunk);
      this.#total += chunk.length;
    }
    const pieces: Piece[] = [];
    while (this.#total >= 4) {
      const length = this.#peekLength();
      if (length < 0 || length > this.#maxLength) {
        this.#rawMode = true;
        const error = length < 0 ? `negative frame length ${length}` : `frame length ${length} exceeds the limit of ${this.#maxLength} bytes`;
        pieces.push({ kind: 'raw', bytes: this.takeAll(), error });
        break;
      }
      if (this.#total < 4 + length) break;
      const bytes = this.#take(4 + length);
      const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      const piece: Piece = { kind: 'frame', bytes };
      if (length >= 4) piece.xid = view.getInt32(4);
      if (length >= 8) piece.type = view.getInt32(8);
      pieces.push(piece);
    }
    return pieces;
  }

  /** The length prefix at the front of the held bytes (at least four are held). */
  #peekLength(): number {
    let v = 0;
    let n = 0;
    for (const c of this.#chunks) {
      for (let i = 0; i < c.length && n < 4; i++, n++) v = (v << 8) | c[i]!;
      if (n === 4) break;
    }
    return v | 0;
  }

  /** A copy of the first n held bytes, which leave the splitter. */
  #take(n: number): Uint8Array {
    if (n === 0) return EMPTY;
    const out = new Uint8Array(n);
    let filled = 0;
    while (filled < n) {
      const c = this.#chunks[0]!;
      const part = Math.min(c.length, n - filled);
      out.set(c.subarray(0, part), filled);
      filled += part;
      if (part === c.length) this.#chunks.shift();
      else this.#chunks[0] = c.subarray(part);
    }
    this.#total -= n;
    return out;
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
