/**
 * Cuts one direction of a ZooKeeper stream into whole frames, each WITH its 4-byte length prefix — the form the
 * conversation decoder and the capture format want. (The codec's FrameDecoder returns payloads and drops its buffer
 * when the stream breaks; the tracer needs the exact bytes of everything, broken or not, so it keeps its own.)
 *
 * Chunks are only read, never modified: the proxy hands the same Buffer to the socket it forwards to.
 */

export type CutResult =
  | { kind: 'frame'; bytes: Uint8Array; len: number }
  | { kind: 'need-more' }
  /** The length prefix is negative or above the limit: nothing after it can be framed. `bytes` = everything held. */
  | { kind: 'broken'; error: string; bytes: Uint8Array };

export class FrameCutter {
  readonly #maxFrameSize: number;
  #chunks: Uint8Array[] = [];
  #total = 0;

  constructor(maxFrameSize: number) {
    this.#maxFrameSize = maxFrameSize;}

  /** Bytes held that do not yet make a whole frame. */
  get buffered(): number {
    return this.#total;
  }

  push(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    this.#chunks.push(chunk);
    this.#total += chunk.length;
  }

  next(): CutResult {
    if (this.#total < 4) return { kind: 'need-more' };
    const len = this.#peekLength();
    if (len < 0 || len > this.#maxFrameSize) {
      const error =
        len < 0 ? `negative frame length ${len}` : `frame length ${len} exceeds the tracer's limit of ${this.#maxFrameSize} bytes`;
      return { kind: 'broken', error, bytes: this.takeAll() };
    }
    if (this.#total < 4 + len) return { kind: 'need-more' };
    return { kind: 'frame', bytes: this.#take(4 + len), len };
  }

  /** Everything held (an incomplete frame at close, or the rest after a break), emptying the cutter. */
  takeAll(): Uint8Array {
    return this.#take(this.#total);
  }

  #peekLength(): number {
    let v = 0;
    let n = 0;
    for (const c of this.#chunks) {
      for (let i = 0; i < c.length && n < 4; i++, n++) v = (v << 8) | c[i]!;
      if (n === 4) break;
    }
    return v | 0;
  }

  /** The first n held bytes: a view when they lie in the first chunk, else one copy. */
  #take(n: number): Uint8Array {
    if (n === 0) return new Uint8Array(0);
    const first = this.#chunks[0]!;
    let out: Uint8Array;
    if (first.length >= n) {
      out = first.subarray(0, n);
      if (first.length === n) this.#chunks.shift();
      else this.#chunks[0] = first.subarray(n);
    } else {
      out = new Uint8Array(n);
      let filled = 0;
      while (filled < n) {
        const c = this.#chunks[0]!;
        const part = Math.min(c.length, n - filled);
        out.set(c.subarray(0, part), filled);
        filled += part;
        if (part === c.length) this.#chunks.shift();
        else this.#chunks[0] = c.subarray(part);
      }
    }
    this.#total -= n;
    return out;
  }
}
