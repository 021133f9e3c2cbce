import net from 'node:net';
import { systemClock, type Clock, type TimerHandle } from '../session/clock.js';
import { clientError } from '../errors.js';
import { parseConnectString } from '../session/connect-string.js';
import type { Direction, Piece } from './frame-splitter.js';
import { startFramingProxy, type ConnectionHandler, type ProxyConnection } from './framing-proxy.js';

/**
 * A frame-aware TCP proxy between a client under test and a real ZooKeeper server, for fault injection: connect the
 * client to `proxy.connectString` instead of the server, then freeze the link, delay it, drop replies, cut it after a
 * request, or reset it, for every connection at once or for one connection (`links()`).
 *
 * It stands on the framing proxy (framing-proxy.ts), which cuts each direction of each connection into whole
 * frames; every frame is forwarded byte for byte unless a fault says otherwise. The first frame each way is the ConnectRequest/ConnectResponse and is never
 * treated as a request or reply. Client→server requests record xid→opcode per connection so reply predicates can
 * see which operation a reply answers. The proxy's own faults apply to all connections, including ones opened later
 * (a reconnecting client comes back through the same faults); a link's faults apply to that connection only, on top.
 */
export interface FaultProxy {
  /** Always `127.0.0.1`. */
  readonly host: string;
  /** The port the proxy listens on. */
  readonly port: number;
  /** "127.0.0.1:port": what the client under test connects to. */
  readonly connectString: string;
  /** Client connections currently open through the proxy. */
  connections(): number;
  /** The connections currently open, oldest first, each with faults of its own. */
  links(): readonly ProxyLink[];
  /**
   * Back to plain forwarding: no delay, no drops, no pending cut, not paused (the links' own faults included); held
   * bytes are released now.
   */
  pass(): void;
  /** Hold every frame (both ways) for `ms` before forwarding it; order is kept. delay(0) stops delaying new frames. */
  delay(ms: number): void;
  /** Hold all bytes both ways (sockets stay open, nothing is lost) until resume() or pass(). */
  pause(): void;
  /** Releases what pause() held, in order. */
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
  /** Stops listening and resets every connection. */
  close(): Promise<void>;
}

/** What a reply predicate (`dropReplies`) is told about a server→client frame. */
export interface ReplyInfo {
  /** The frame's xid: a request's own, -1 for a watch notification, -2 for a ping's reply. */
  xid: number;
  /** The opcode of the request this reply answers, when the proxy saw that request; absent for notifications (-1). */
  opcode?: number;
}

/** One client connection through a {@link FaultProxy}; its faults add to the proxy's own and end with it. */
export interface ProxyLink {
  /** 1 for the proxy's first connection, then counting up. */
  readonly id: number;
  /** The client side's port (its local port), to tell connections apart. */
  readonly clientPort: number;
  /** False once either side has closed or been reset. */
  readonly open: boolean;
  /** Hold all bytes of this connection, both ways, until resume(). */
  pause(): void;
  /** Releases what pause() held, in order. */
  resume(): void;
  /** Hold each frame of this connection for `ms` (0: no delay of its own). */
  delay(ms: number): void;
  /** Swallow this connection's server→client frames the predicate matches; null stops. */
  dropReplies(predicate: ((frame: ReplyInfo) => boolean) | null): void;
  /** Reset (RST) this connection on both sides. */
  reset(): void;
}

/** Options of {@link startFaultProxy}. */
export interface FaultProxyOptions {
  /** Timers for delayed frames; default the runtime's (pass real ones when the test fakes timers). */
  clock?: Clock | undefined;
}

/**
 * Client→server frames above jute.maxbuffer (0xfffff) are refused by the server as soon as it reads their length, so
 * such a length is forwarded raw right away. Server→client frames may legitimately be somewhat larger (big child
 * lists); only an absurd length means "not frames" there.
 */
const MAX_FRAME = { c2s: 0xfffff, s2c: 64 * 1024 * 1024 };

interface Faults {
  delayMs: number;
  paused: boolean;
  drop: ((frame: ReplyInfo) => boolean) | null;
  cutXid: number | null;
}

/**
 * Starts a fault proxy on a free 127.0.0.1 port in front of `upstream` (a server's host and port, or its
 * `host:port`), passing everything through until told otherwise. Node only (`node:net`).
 *
 * @throws ZooKeeperError BAD_ARGUMENT when `upstream` is not one `host:port` (read as a connect string).
 */
export async function startFaultProxy(
  upstream: { host: string; port: number } | string,
  options: FaultProxyOptions = {},
): Promise<FaultProxy> {
  const target = typeof upstream === 'string' ? oneHost(upstream) : upstream;
  const clock = options.clock ?? systemClock;
  const faults: Faults = { delayMs: 0, paused: false, drop: null, cutXid: null };
  const proxy = await startFramingProxy({
    listen: { host: '127.0.0.1', port: 0 },
    dial: () => net.connect({ host: target.host, port: target.port, allowHalfOpen: true, noDelay: true }),
    maxFrame: MAX_FRAME,
    passChunks: false,
    accept: (connection) => new FaultyConnection(connection, faults, clock),
  });
  const each = (f: (c: FaultyConnection) => void): void => proxy.connections().forEach(f);
  return {
    host: '127.0.0.1',
    port: proxy.port,
    connectString: `127.0.0.1:${proxy.port}`,
    connections: () => proxy.connections().length,
    links: () => proxy.connections().map((c) => c.link),
    pass() {
      Object.assign(faults, { delayMs: 0, paused: false, drop: null, cutXid: null });
      each((c) => {
        c.clearOwnFaults();
        c.releaseNow();
      });
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
    close: () => proxy.close('reset'),
  };
}

/** `host:port` read as a connect string of one host: one parser, one BAD_ARGUMENT for a bad one. */
function oneHost(hostPort: string): { host: string; port: number } {
  const { hosts } = parseConnectString(hostPort, 'startFaultProxy');
  if (hosts.length !== 1) throw clientError('BAD_ARGUMENT', `the fault proxy forwards to one server, got "${hostPort}"`, { op: 'startFaultProxy' });
  return hosts[0]!;
}
/** The faults one connection sees: the proxy's, plus its link's own. */
class LinkFaults implements Faults {
  readonly #shared: Faults;
  ownPaused = false;
  ownDelayMs = 0;
  ownDrop: ((frame: ReplyInfo) => boolean) | null = null;

  constructor(shared: Faults) {
    this.#shared = shared;}

  get paused(): boolean {
    return this.#shared.paused || this.ownPaused;
  }

  get delayMs(): number {
    return Math.max(this.#shared.delayMs, this.ownDelayMs);
  }

  get drop(): ((frame: ReplyInfo) => boolean) | null {
    const { ownDrop } = this;
    const shared = this.#shared.drop;
    if (ownDrop === null) return shared;
    if (shared === null) return ownDrop;
    return (frame) => ownDrop(frame) || shared(frame);
  }

  get cutXid(): number | null {
    return this.#shared.cutXid;
  }

  set cutXid(xid: number | null) {
    this.#shared.cutXid = xid;
  }
}

/** What waits in one direction: bytes with the time they may go, a cut marker, or the end of the stream (FIN). */
type Queued = { releaseAt: number } & ({ bytes: Uint8Array; cut: boolean } | { end: true });

/** One direction of one connection: an ordered queue that honours pause and delay. */
class Pipe {
  readonly #onCut: (bytes: Uint8Array) => void;
  readonly #clock: Clock;
  readonly #faults: Faults;
  readonly #connection: ProxyConnection;
  readonly #dir: Direction;
  readonly #queue: Queued[] = [];
  #lastReleaseAt = 0;
  #timer: TimerHandle | undefined;

  constructor(connection: ProxyConnection, dir: Direction, faults: Faults, clock: Clock, onCut: (bytes: Uint8Array) => void) {
    this.#onCut = onCut;
    this.#clock = clock;
    this.#faults = faults;
    this.#connection = connection;
    this.#dir = dir;
  }

  send(bytes: Uint8Array, cut = false): void {
    this.#push({ releaseAt: this.#releaseTime(), bytes, cut });
  }

  end(): void {
    this.#push({ releaseAt: this.#releaseTime(), end: true });
  }

  releaseNow(): void {
    for (const item of this.#queue) item.releaseAt = 0;
    this.#lastReleaseAt = 0;
    this.pump();
  }

  clear(): void {
    this.#queue.length = 0;
    this.#stopTimer();
  }

  pump(): void {
    this.#stopTimer();
    if (this.#faults.paused) return;
    const time = this.#clock.now();
    for (let item = this.#queue[0]; item !== undefined; item = this.#queue[0]) {
      if (item.releaseAt > time) {
        this.#timer = this.#clock.setTimeout(() => this.pump(), item.releaseAt - time);
        return;
      }
      this.#queue.shift();
      if ('end' in item) this.#connection.end(this.#dir);
      else if (item.cut) return this.#onCut(item.bytes);
      else this.#connection.write(this.#dir, item.bytes);
    }
  }

  #stopTimer(): void {
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #push(item: Queued): void {
    this.#queue.push(item);
    if (this.#queue.length === 1) this.pump();
  }

  /** Never earlier than the item before it, so a shortened delay cannot reorder the stream. */
  #releaseTime(): number {
    const at = this.#faults.delayMs > 0 ? Math.max(this.#clock.now() + this.#faults.delayMs, this.#lastReleaseAt) : 0;
    this.#lastReleaseAt = at;
    return at;
  }
}

/** One connection's decisions: each frame through its direction's pipe, unless a fault drops it or cuts after it. */
class FaultyConnection implements ConnectionHandler {
  readonly #connection: ProxyConnection;
  readonly link: ProxyLink;
  readonly #faults: LinkFaults;
  readonly #pipes: Record<Direction, Pipe>;
  readonly #frames = { c2s: 0, s2c: 0 };
  /** xid → opcode of requests seen on this connection and not answered yet. */
  readonly #opcodes = new Map<number, number>();

  constructor(connection: ProxyConnection, shared: Faults, clock: Clock) {
    this.#connection = connection;
    const faults = new LinkFaults(shared);
    this.#faults = faults;
    this.#pipes = {
      c2s: new Pipe(connection, 'c2s', faults, clock, (bytes) => this.#cutAfter(bytes)),
      s2c: new Pipe(connection, 's2c', faults, clock, (bytes) => connection.write('s2c', bytes)),
    };
    const { client } = connection;
    this.link = {
      id: connection.id,
      clientPort: client.remotePort ?? 0,
      get open() {
        return !client.destroyed;
      },
      pause: () => {
        faults.ownPaused = true;
      },
      resume: () => {
        faults.ownPaused = false;
        this.pump();
      },
      delay: (ms) => {
        faults.ownDelayMs = Math.max(0, ms);
      },
      dropReplies: (predicate) => {
        faults.ownDrop = predicate;
      },
      reset: () => this.reset(),
    };
  }

  frames(dir: Direction, pieces: readonly Piece[]): void {
    for (const piece of pieces) {
      // The first frame each way is the ConnectRequest/ConnectResponse, never a request or a reply.
      const first = this.#frames[dir]++ === 0;
      if (piece.kind === 'raw' || first || piece.xid === undefined) this.#pipes[dir].send(piece.bytes);
      else if (dir === 'c2s') this.#request(piece.xid, piece.type, piece.bytes);
      else if (!this.#dropped(piece.xid)) this.#pipes.s2c.send(piece.bytes);
    }
  }

  end(dir: Direction): void {
    this.#pipes[dir].end();
  }

  closed(): void {
    this.#pipes.c2s.clear();
    this.#pipes.s2c.clear();
  }

  pump(): void {
    this.#pipes.c2s.pump();
    this.#pipes.s2c.pump();
  }

  clearOwnFaults(): void {
    Object.assign(this.#faults, { ownPaused: false, ownDelayMs: 0, ownDrop: null });
  }

  releaseNow(): void {
    this.#pipes.c2s.releaseNow();
    this.#pipes.s2c.releaseNow();
  }

  inject(bytes: Uint8Array): void {
    this.#connection.write('s2c', bytes);
  }

  reset(): void {
    this.closed();
    this.#connection.reset();
  }

  #request(xid: number, type: number | undefined, bytes: Uint8Array): void {
    if (type !== undefined) this.#opcodes.set(xid, type);
    const cut = this.#faults.cutXid === xid;
    if (cut) this.#faults.cutXid = null;
    this.#pipes.c2s.send(bytes, cut);
  }

  #dropped(xid: number): boolean {
    const info: ReplyInfo = { xid };
    const opcode = this.#opcodes.get(xid);
    if (opcode !== undefined) {
      info.opcode = opcode;
      this.#opcodes.delete(xid);
    }
    return this.#faults.drop !== null && this.#faults.drop(info);
  }

  /** The request goes out and then FIN, so the server reads and executes it; the client only sees a reset. */
  #cutAfter(bytes: Uint8Array): void {
    this.closed();
    this.#connection.reset('client');
    this.#connection.write('c2s', bytes);
    this.#connection.end('c2s');
  }
}
