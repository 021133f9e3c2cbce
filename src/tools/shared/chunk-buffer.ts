/**
 * The bytes a capture reader has received and not yet consumed, exposed as one contiguous buffer: records that lie
 * inside one chunk are read in place; a record that straddles two chunks costs one copy of the unread tail.
 */

const EMPTY = new Uint8Array(0);

export class ChunkBuffer {
  /** Unconsumed bytes start at `pos` in `buf`. */
  buf: Uint8Array = EMPTY;
  view: DataView = new DataView(EMPTY.buffer);
  pos = 0;
  /** Offset in the whole input of `buf[0]`, for error messages. */
  base = 0;

  get available(): number {
    return this.buf.length - this.pos;
  }

  /** Offset in the whole input of the read position. */
  get offset(): number {
    return this.base + this.pos;
  }

  append(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    const left = this.buf.length - this.pos;
    if (left === 0) {
      this.base += this.buf.length;
      this.buf = bytes;
    } else {
      // A new buffer (never an in-place compaction): packets already handed out as views stay intact.
      const joined = new Uint8Array(left + bytes.length);
      joined.set(this.buf.subarray(this.pos));
      joined.set(bytes, left);
      this.base += this.pos;
      this.buf = joined;
    }
    this.pos = 0;
    this.view = new DataView(this.buf.buffer, this.buf.byteOffset, this.buf.byteLength);
  }
}
