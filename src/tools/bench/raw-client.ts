/**
 * The floor: the least a ZooKeeper round trip can cost from this process. A bare node:net socket, frames built
 * once with the codec's encoders and only their xid patched per request, replies cut by the codec's FrameDecoder
 * (the client's own), matched by counting (the server answers one connection in order) and read no further than the
 * reply header. No session state, no watches, no timers, no abort handling: everything the real client does on top
 * of this is what the ratio against the floor measures.
 */

import * as net from 'node:net';
import * as tls from 'node:tls';
import { clientError } from '../../errors.js';
import { int32 } from '../../protocol/bytes.js';
import type { TlsOptions } from '../../transport/types.js';
import { nodeTlsOptions } from '../shared/tls-options.js';
import {
  encodeConnectRequestFrame,
  encodeRequestFrame,
  FrameDecoder,
  JuteWriter,
  OpCode,
  Perms,
  type RequestHeader,
} from '../../protocol/index.js';

const OPEN_ACL = [{ perms: Perms.ALL, id: { scheme: 'world', id: 'anyone' } }];
const EMPTY = new Uint8Array(0);
const PING_XID = -2;

/** Called once per reply frame, in wire order, with its xid and error code. */
type ReplyHandler = (xid: number, err: number) => void;

export class RawConnection {
  readonly #socket: net.Socket;
  /** The client's own frame decoder (protocol/frame.ts): the floor frames replies as the client does. */
  readonly #frames = new FrameDecoder();
  #connected: ((frame: Uint8Array) => void) | undefined;
  readonly #waiting: ReplyHandler[] = [];
  #waitHead = 0;
  /** Set while a pipelined run owns the replies. */
  #pipelineHandler: ReplyHandler | undefined;
  #xid = 0;
  #failure: Error | undefined;
  readonly #writer = new JuteWriter(256);

  private constructor(socket: net.Socket) {
    this.#socket = socket;
    socket.on('data', (chunk: Buffer) => this.#onData(chunk));
    socket.on('error', (e) => {
      this.#failure ??= e;
    });
    socket.on('close', () => {
      this.#failure ??= clientError('CONNECTIONLOSS', 'the floor\'s connection closed', { op: 'bench' });
      const waiting = this.#waiting.splice(0);
      for (let i = this.#waitHead; i < waiting.length; i++) waiting[i]!(0, -4 /* CONNECTIONLOSS */);
      this.#waitHead = 0;
      for (const n of this.#notified.splice(0)) n.reject(this.#failure);
      this.#afterChunk?.();
    });
  }

  /** True once the connection has closed or failed: every call on it rejects from then on. */
  get lost(): boolean {
    return this.#failure !== undefined;
  }

  /** Opens a TCP connection (TLS with `secure`, as the client's `tls` option) and performs the session handshake. */
  static async open(host: string, port: number, sessionTimeoutMs = 30_000, secure?: boolean | TlsOptions): Promise<RawConnection> {
    const socket = await new Promise<net.Socket>((resolve, reject) => {
      const s = secure === undefined || secure === false ? net.connect({ host, port, noDelay: true }) : tls.connect({ host, port, ...nodeTlsOptions(secure) });
      s.setNoDelay(true);
      s.once('error', reject);
      s.once(s instanceof tls.TLSSocket ? 'secureConnect' : 'connect', () => {
        s.off('error', reject);
        resolve(s);
      });
    });
    const conn = new RawConnection(socket);
    const w = new JuteWriter(64);
    encodeConnectRequestFrame(w, {
      protocolVersion: 0,
      lastZxidSeen: 0n,
      timeOut: sessionTimeoutMs,
      sessionId: 0n,
      passwd: new Uint8Array(16),
      readOnly: false,
    });
    const answered = new Promise<Uint8Array>((resolve) => {
      conn.#connected = resolve;
    });
    socket.write(w.toBytes());
    const response = await Promise.race([
      answered,
      // The constructor's close listener runs first and sets the failure.
      new Promise<never>((_, reject) => socket.once('close', () => reject(conn.#failure))),
    ]);
    // ConnectResponse: protocolVersion, timeOut, sessionId, passwd. A zero session id means refused.
    if (response.length < 16 || new DataView(response.buffer, response.byteOffset).getBigInt64(8) === 0n) {
      socket.destroy();
      // As the Java client reads it: no session id means the server would not have this session.
      throw clientError('SESSIONEXPIRED', 'the server refused the floor\'s session', { op: 'bench' });
    }
    return conn;
  }

  /** A request frame for `opcode` and `body`, encoded once; send it with `roundTrip` (which sets the xid). */
  static template(opcode: number, body?: unknown, xid = 0): Buffer {
    const w = new JuteWriter(256);
    encodeRequestFrame(w, { xid, type: opcode }, body);
    return Buffer.from(w.toBytes());
  }

  static getDataTemplate(path: string): Buffer {
    return RawConnection.template(OpCode.getData, { path, watch: false });
  }

  static pingTemplate(): Buffer {
    return RawConnection.template(OpCode.ping, undefined, PING_XID);
  }

  /** Sends one frame (its xid patched unless it is a ping) and resolves with the reply's error code. */
  roundTrip(frame: Buffer): Promise<number> {
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    if (frame.readInt32BE(4) !== PING_XID) frame.writeInt32BE(this.#nextXid(), 4);
    return new Promise<number>((resolve) => {
      this.#waiting.push((_xid, err) => resolve(err));
      this.#socket.write(frame);
    });
  }

  /** Encodes and sends one request (for requests whose body changes every time, like create). */
  request(opcode: number, body: unknown): Promise<number> {
    const header: RequestHeader = { xid: this.#nextXid(), type: opcode };
    this.#writer.reset();
    encodeRequestFrame(this.#writer, header, body);
    // A copy: node:net may still hold the bytes after write() returns, and the writer is reused.
    return this.roundTrip(Buffer.from(this.#writer.toBytes()));
  }

  create(path: string, flags = 0): Promise<number> {
    return this.request(OpCode.create, { path, data: EMPTY, acl: OPEN_ACL, flags });
  }

  delete(path: string): Promise<number> {
    return this.request(OpCode.delete, { path, version: -1 });
  }

  /**
   * Sends `total` copies of `template` keeping up to `window` unanswered; each batch of replies that arrives
   * together is refilled with one write. Resolves with the elapsed milliseconds and the non-zero error count.
   */
  pipeline(template: Buffer, total: number, window: number): Promise<{ elapsedMs: number; errors: number }> {
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    const len = template.length;
    let sent = 0;
    let answered = 0;
    let errors = 0;
    const send = (n: number): void => {
      const out = Buffer.allocUnsafe(n * len);
      for (let i = 0; i < n; i++) {
        template.copy(out, i * len);
        out.writeInt32BE(this.#nextXid(), i * len + 4);
      }
      sent += n;
      this.#socket.write(out);
    };
    return new Promise((resolve, reject) => {
      const start = performance.now();
      let owed = 0;
      this.#pipelineHandler = (_xid, err) => {
        answered++;
        if (err !== 0) errors++;
        owed++;
      };
      this.#afterChunk = () => {
        if (this.#failure !== undefined) {
          this.#pipelineHandler = undefined;
          this.#afterChunk = undefined;
          reject(this.#failure);
          return;
        }
        if (answered >= total) {
          this.#pipelineHandler = undefined;
          this.#afterChunk = undefined;
          resolve({ elapsedMs: performance.now() - start, errors });
          return;
        }
        const refill = Math.min(owed, total - sent);
        owed = 0;
        if (refill > 0) send(refill);
      };
      send(Math.min(window, total));
    });
  }

  /** Sends closeSession, waits for its answer (bounded), then closes the socket. */
  async close(): Promise<void> {
    if (this.#failure === undefined) {
      const closing = this.roundTrip(RawConnection.template(OpCode.closeSession));
      await Promise.race([closing, new Promise((r) => setTimeout(r, 2000).unref())]);
    }
    this.#socket.destroy();
  }

  #afterChunk: (() => void) | undefined;
  readonly #notified: { resolve: (atMs: number) => void; reject: (e: Error) => void }[] = [];

  /**
   * Resolves with the performance.now() reading at which the next watch notification was read off the socket
   * (the hand-off floor's end point); rejects if the connection fails first.
   */
  nextNotification(): Promise<number> {
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    return new Promise<number>((resolve, reject) => {
      this.#notified.push({ resolve, reject });
    });
  }

  #nextXid(): number {
    this.#xid = this.#xid >= 0x7fffffff ? 1 : this.#xid + 1;
    return this.#xid;
  }

  #onData(chunk: Buffer): void {
    this.#frames.push(chunk);
    let next = this.#frames.next();
    for (; next.kind === 'frame'; next = this.#frames.next()) {
      const frame = next.payload;
      if (this.#connected !== undefined) {
        const done = this.#connected;
        this.#connected = undefined;
        done(frame);
        continue;
      }
      // ReplyHeader: xid int, zxid long, err int.
      const xid = int32(frame, 0);
      const err = int32(frame, 12);
      if (xid === -1) {
        // A watch notification (set only by the hand-off floor): never counted as a reply.
        const notified = this.#notified.shift();
        notified?.resolve(performance.now());
        continue;
      }
      if (this.#pipelineHandler !== undefined) {
        this.#pipelineHandler(xid, err);
        continue;
      }
      const handler = this.#waiting[this.#waitHead];
      if (handler === undefined) continue;
      this.#waiting[this.#waitHead++] = undefined as unknown as ReplyHandler;
      if (this.#waitHead === this.#waiting.length) {
        this.#waiting.length = 0;
        this.#waitHead = 0;
      }
      handler(xid, err);
    }
    if (next.kind === 'error') {
      // Nothing after a broken frame can be read: every call fails with the reason (the close listener tells them).
      this.#failure ??= clientError('PROTOCOL_ERROR', `the floor's connection: ${next.error.message}`, { op: 'bench' });
      this.#socket.destroy();
    }
    this.#afterChunk?.();
  }
}
