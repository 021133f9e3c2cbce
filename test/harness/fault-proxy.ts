import net from 'node:net';
import { FrameSplitter, type Piece } from './frame-splitter.js';
import { clearRealTimeout, now, setRealTimeout, type RealTimer } from './real-timers.js';

/**
 * A frame-aware TCP proxy between a client under test and a real ZooKeeper server, for fault injection.
 *
 * Each direction of each connection is cut into whole frames (frame-splitter.ts); every frame is forwarded byte for
 * byte unless a fault says otherwise. The first frame each way is the ConnectRequest/ConnectResponse and is never
 * treated as a request or reply. Client→server requests record xid→opcode per connection so reply predicates can
 * see which operation a reply answers. Faults apply to all connections, including ones opened later (a reconnecting
 * client comes back through the same faults).
 */
export interface ReplyInfo {
  xid: number;
  /** The opcode of the request this reply answers, when the proxy saw that request; absent for notifications (-1). */
  opcode?: number;
}

export interface FaultProxy {
  readonly host: string;
  readonly port: number;
  /** "127.0.0.1:port" */
  readonly connectString: string;
  /** Client connections currently open through the proxy. */
  connections(): number;
  /** Back to plain forwarding: no delay, no drops, no pending cut, not paused; held bytes are released now. */
  pass(): void;
  /** Hold every frame (both ways) for `ms` before forwarding it; order is kept. delay(0) stops delaying new frames. */
  delay(ms: number): void;
  /** Hold all bytes both ways (sockets stay open, nothing is lost) until resume() or pass(). */
  pause(): void;
  resume(): void;
  /** Swallow server→client frames the predicate matches (replies and notifications). Replaces any earlier one. */
  dropReplies(predicate: (frame: ReplyInfo) => boolean): void;
  /**
   * Once the client→server request with this xid has been forwarded, reset the client's connection (RST) and close
   * the server side gracefully, so the server does receive and execute the request but its reply is lost. One-shot.
   */
  cutAfterXid(xid: number): void;
  /** Reset (RST) every current connection on both sides; new connections are accepted as usual. */
  resetAll(): void;
  /** Write raw bytes to every client socket at once (even while paused): garbage, over-limit frames, fake events. */
  injectToClient(bytes: Uint8Array): void;
  close(): Promise<void>;
}

/**
 * Client→server frames above jute.maxbuffer (0xfffff) are refused by the server as soon as it reads their length, so
 * such a length is forwarded raw right away. Server→client frames may legitimately be somewhat larger (big child
 * lists); only an absurd length means "not frames" there.
 */
const MAX_C2S_FRAME = 0xfffff;
const MAX_S2C_FRAME = 64 * 1024 * 1024;

interface Faults {
  delayMs: number;
  paused: boolean;
  drop: ((frame: ReplyInfo) => boolean) | null;
  cutXid: number | null;
}

export async function startFaultProxy(upstream: { host: string; port: number }): Promise<FaultProxy> {
  const faults: Faults = { delayMs: 0, paused: false, drop: null, cutXid: null };
  const live = new Set<ProxiedConnection>();
  const server = net.createServer({ allowHalfOpen: true, noDelay: true }, (client) => {
    const connection = new ProxiedConnection(client, upstream, faults);
    live.add(connection);
    client.once('close', () => live.delete(connection));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host: '127.0.0.1', port: 0 }, () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('fault proxy has no TCP address');
  const each = (f: (c: ProxiedConnection) => void): void => [...live].forEach(f);
  return {
    host: '127.0.0.1',
    port: address.port,
    connectString: `127.0.0.1:${address.port}`,
    connections: () => live.size,
    pass() {
      Object.assign(faults, { delayMs: 0, paused: false, drop: null, cutXid: null });
      each((c) => c.releaseNow());
    },
    delay(ms) {
      faults.delayMs = Math.max(0, ms);
    },
    pause() {
      faults.paused = true;
    },
    resume() {
      faults.paused = false;
      each((c) => c.pump());
    },
    dropReplies(predicate) {
      faults.drop = predicate;
    },
    cutAfterXid(xid) {
      faults.cutXid = xid;
    },
    resetAll() {
      each((c) => c.reset());
    },
    injectToClient(bytes) {
      each((c) => c.inject(bytes));
    },
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      each((c) => c.reset());
      await closed;
    },
  };
}

/** What waits in one direction: bytes with the time they may go, a cut marker, or the end of the stream (FIN). */
type Queued = { releaseAt: number } & ({ bytes: Uint8Array; cut: boolean } | { end: true });

/** One direction of one connection: an ordered queue that honours pause and delay. */
class Pipe {
  private readonly queue: Queued[] = [];
  private lastReleaseAt = 0;
  private timer: RealTimer | undefined;

  constructor(
    private readonly dest: net.Socket,
    private readonly faults: Faults,
    private readonly onCut: (bytes: Uint8Array) => void,
  ) {}

  send(bytes: Uint8Array, cut = false): void {
    this.push({ releaseAt: this.releaseTime(), bytes, cut });
  }

  end(): void {
    this.push({ releaseAt: this.releaseTime(), end: true });
  }

  releaseNow(): void {
    for (const item of this.queue) item.releaseAt = 0;
    this.lastReleaseAt = 0;
    this.pump();
  }

  clear(): void {
    this.queue.length = 0;
    clearRealTimeout(this.timer);
    this.timer = undefined;
  }

  pump(): void {
    clearRealTimeout(this.timer);
    this.timer = undefined;
    if (this.faults.paused) return;
    const time = now();
    for (let item = this.queue[0]; item !== undefined; item = this.queue[0]) {
      if (item.releaseAt > time) {
        this.timer = setRealTimeout(() => this.pump(), item.releaseAt - time);
        return;
      }
      this.queue.shift();
      if (this.dest.destroyed) continue;
      if ('end' in item) this.dest.end();
      else if (item.cut) return this.onCut(item.bytes);
      else this.dest.write(item.bytes);
    }
  }

  private push(item: Queued): void {
    this.queue.push(item);
    if (this.queue.length === 1) this.pump();
  }

  /** Never earlier than the item before it, so a shortened delay cannot reorder the stream. */
  private releaseTime(): number {
    const at = this.faults.delayMs > 0 ? Math.max(now() + this.faults.delayMs, this.lastReleaseAt) : 0;
    this.lastReleaseAt = at;
    return at;
  }
}

class ProxiedConnection {
  private readonly upstream: net.Socket;
  private readonly c2s = new FrameSplitter(MAX_C2S_FRAME);
  private readonly s2c = new FrameSplitter(MAX_S2C_FRAME);
  private readonly toServer: Pipe;
  private readonly toClient: Pipe;
  private c2sFrames = 0;
  private s2cFrames = 0;
  /** xid → opcode of requests seen on this connection and not answered yet. */
  private readonly opcodes = new Map<number, number>();

  constructor(
    private readonly client: net.Socket,
    target: { host: string; port: number },
    private readonly faults: Faults,
  ) {
    this.upstream = net.connect({ host: target.host, port: target.port, allowHalfOpen: true, noDelay: true });
    this.toServer = new Pipe(this.upstream, faults, (bytes) => this.cutAfter(bytes));
    this.toClient = new Pipe(client, faults, (bytes) => client.write(bytes));
    client.on('data', (chunk: Buffer) => this.fromClient(chunk));
    this.upstream.on('data', (chunk: Buffer) => this.fromServer(chunk));
    client.on('end', () => this.toServer.end());
    this.upstream.on('end', () => this.toClient.end());
    // A reset or error on one side is passed on as a reset of the other, as a broken network path would look.
    client.on('error', () => this.reset());
    this.upstream.on('error', () => this.reset());
  }

  pump(): void {
    this.toServer.pump();
    this.toClient.pump();
  }

  releaseNow(): void {
    this.toServer.releaseNow();
    this.toClient.releaseNow();
  }

  inject(bytes: Uint8Array): void {
    if (!this.client.destroyed && this.client.writable) this.client.write(bytes);
  }

  reset(): void {
    this.toServer.clear();
    this.toClient.clear();
    resetSocket(this.client);
    resetSocket(this.upstream);
  }

  private fromClient(chunk: Uint8Array): void {
    for (const piece of this.c2s.push(chunk)) this.clientPiece(piece);
  }

  private clientPiece(piece: Piece): void {
    const first = this.c2sFrames++ === 0;
    if (piece.kind === 'raw') {
      // A connection that opens with a four-letter word is plain text both ways.
      if (first) for (const rest of this.s2c.switchToRaw()) this.toClient.send(rest.bytes);
      this.toServer.send(piece.bytes);
      return;
    }
    let cut = false;
    if (!first && piece.xid !== undefined) {
      if (piece.type !== undefined) this.opcodes.set(piece.xid, piece.type);
      if (this.faults.cutXid === piece.xid) {
        this.faults.cutXid = null;
        cut = true;
      }
    }
    this.toServer.send(piece.bytes, cut);
  }

  private fromServer(chunk: Uint8Array): void {
    for (const piece of this.s2c.push(chunk)) {
      const first = this.s2cFrames++ === 0;
      if (piece.kind === 'frame' && !first && piece.xid !== undefined && this.dropped(piece.xid)) continue;
      this.toClient.send(piece.bytes);
    }
  }

  private dropped(xid: number): boolean {
    const info: ReplyInfo = { xid };
    const opcode = this.opcodes.get(xid);
    if (opcode !== undefined) {
      info.opcode = opcode;
      this.opcodes.delete(xid);
    }
    return this.faults.drop !== null && this.faults.drop(info);
  }

  /** The request goes out and then FIN, so the server reads and executes it; the client only sees a reset. */
  private cutAfter(bytes: Uint8Array): void {
    this.toServer.clear();
    this.toClient.clear();
    resetSocket(this.client);
    this.upstream.end(bytes);
  }
}

function resetSocket(socket: net.Socket): void {
  if (!socket.destroyed) socket.resetAndDestroy();
}
