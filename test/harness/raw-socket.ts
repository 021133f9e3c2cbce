import net from 'node:net';
import { clearRealTimeout, now, setRealTimeout } from './real-timers.js';

/**
 * A bare TCP client for tests that speak hand-built frames to a server or through the fault proxy, without the
 * client under test in the way. It keeps every received byte and reads whole frames by their length prefix.
 */
export class RawSocket {
  private buffer = new Uint8Array(0);
  private readOffset = 0;
  private wake: () => void = () => {};
  /** Resolves when the socket has closed: with the error code (e.g. 'ECONNRESET') or null for a clean close. */
  readonly closed: Promise<string | null>;
  private isClosed = false;

  private constructor(private readonly socket: net.Socket) {
    socket.on('data', (chunk: Buffer) => {
      const grown = new Uint8Array(this.buffer.length + chunk.length);
      grown.set(this.buffer, 0);
      grown.set(chunk, this.buffer.length);
      this.buffer = grown;
      this.wake();
    });
    let errorCode: string | null = null;
    socket.on('error', (error: NodeJS.ErrnoException) => {
      errorCode = error.code ?? error.message;
    });
    this.closed = new Promise((resolve) => {
      socket.on('close', () => {
        this.isClosed = true;
        this.wake();
        resolve(errorCode);
      });
    });
  }

  static connect(port: number, host = '127.0.0.1'): Promise<RawSocket> {
    return new Promise((resolve, reject) => {
      const socket = net.connect({ host, port, noDelay: true });
      socket.once('error', reject);
      socket.once('connect', () => {
        socket.off('error', reject);
        resolve(new RawSocket(socket));
      });
    });
  }

  /** Every byte received so far, in order. */
  get received(): Uint8Array {
    return this.buffer;
  }

  write(bytes: Uint8Array): Promise<void> {
    return new Promise((resolve, reject) => this.socket.write(bytes, (error) => (error ? reject(error) : resolve())));
  }

  /** The next whole frame (length prefix included); rejects if the socket closes first or nothing comes in time. */
  async nextFrame(timeoutMs = 10_000): Promise<Uint8Array> {
    const deadline = now() + timeoutMs;
    for (;;) {
      const frame = this.takeFrame();
      if (frame !== null) return frame;
      if (this.isClosed) throw new Error(`socket closed with ${this.buffer.length - this.readOffset} unread bytes`);
      const left = deadline - now();
      if (left <= 0) throw new Error(`no whole frame within ${timeoutMs} ms`);
      await this.changeOrTimeout(left);
    }
  }

  /** Resolves once at least `count` bytes (in total) have arrived, or rejects on close/timeout. */
  async waitForBytes(count: number, timeoutMs = 10_000): Promise<void> {
    const deadline = now() + timeoutMs;
    while (this.buffer.length < count) {
      if (this.isClosed) throw new Error(`socket closed after ${this.buffer.length} of ${count} bytes`);
      const left = deadline - now();
      if (left <= 0) throw new Error(`only ${this.buffer.length} of ${count} bytes within ${timeoutMs} ms`);
      await this.changeOrTimeout(left);
    }
  }

  destroy(): void {
    this.socket.destroy();
  }

  /** Resolves on the next received chunk or close, or after `ms`. */
  private changeOrTimeout(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setRealTimeout(resolve, ms);
      this.wake = () => {
        clearRealTimeout(timer);
        resolve();
      };
    });
  }

  private takeFrame(): Uint8Array | null {
    const available = this.buffer.length - this.readOffset;
    if (available < 4) return null;
    const view = new DataView(this.buffer.buffer, this.buffer.byteOffset + this.readOffset, available);
    const end = 4 + view.getInt32(0);
    if (end < 4 || end > available) return null;
    const frame = this.buffer.slice(this.readOffset, this.readOffset + end);
    this.readOffset += end;
    return frame;
  }
}
