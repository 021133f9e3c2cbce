/**
 * Cuts one direction of a ZooKeeper TCP stream into whole frames (each an int32 length + payload) so the
 * fault proxy can decide per frame. Deliberately independent of src/protocol: a test's fault injector must not
 * trust the code under test. Frames are returned as the exact bytes that came in, length prefix included.
 *
 * A length the peer could never legitimately send (negative, or above `maxLength`) switches the stream to raw mode
 * for good: four-letter words and their text answers, garbage, or an oversized prefix a test sends on purpose are
 * forwarded as they come instead of being held forever while waiting for a frame that will never be complete.
 */
export type Piece =
  | { kind: 'frame'; bytes: Uint8Array; /** payload offset 0, if present */ xid?: number; /** offset 4 */ type?: number }
  | { kind: 'raw'; bytes: Uint8Array };

export class FrameSplitter {
  readonly #maxLength: number;
  #pending: Uint8Array = new Uint8Array(0);
  #rawMode = false;

  constructor(maxLength: number) {
    this.#maxLength = maxLength;}

  get raw(): boolean {
    return this.#rawMode;
  }

  /** From now on pass everything through unparsed (e.g. the other direction turned out to be a 4lw). */
  switchToRaw(): Piece[] {
    this.#rawMode = true;
    return this.#takeRest();
  }

  /** Bytes held because they are an incomplete frame. */
  get buffered(): number {
    return this.#pending.length;
  }

  push(chunk: Uint8Array): Piece[] {
    if (this.#rawMode) return chunk.length > 0 ? [{ kind: 'raw', bytes: chunk }] : [];
    // A plain Uint8Array view, so slice() below copies (Buffer#slice would alias the socket's chunk).
    const input = new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const data = this.#pending.length === 0 ? input : concat(this.#pending, input);
    const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    const pieces: Piece[] = [];
    let offset = 0;
    while (data.length - offset >= 4) {
      const length = view.getInt32(offset);
      if (length < 0 || length > this.#maxLength) {
        this.#rawMode = true;
        pieces.push({ kind: 'raw', bytes: data.slice(offset) });
        offset = data.length;
        break;
      }
      const end = offset + 4 + length;
      if (end > data.length) break;
      const piece: Piece = { kind: 'frame', bytes: data.slice(offset, end) };
      if (length >= 4) piece.xid = view.getInt32(offset + 4);
      if (length >= 8) piece.type = view.getInt32(offset + 8);
      pieces.push(piece);
      offset = end;
    }
    this.#pending = data.slice(offset);
    return pieces;
  }

  #takeRest(): Piece[] {
    const rest = this.#pending;
    this.#pending = new Uint8Array(0);
    return rest.length > 0 ? [{ kind: 'raw', bytes: rest }] : [];
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}
