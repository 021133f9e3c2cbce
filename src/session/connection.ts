/**
 * The state of one TCP connection of a session: its byte stream, its frame decoder, the requests written
 * on it and not yet answered, and the auth packets awaiting their out-of-band reply. A session has at
 * most one live Connection; when it ends (for whatever reason, exactly once) everything still pending on
 * it is handed back to the session to settle.
 */

import type { ZooKeeperError } from '../errors.js';
import { FrameDecoder } from '../protocol/index.js';
import type { ByteStream, Endpoint } from '../transport/types.js';
import type { AuthRecord, Outgoing } from './outgoing.js';
import { PendingQueue } from './pending.js';
import type { ServerVersion } from './server-version.js';

export interface AuthInFlight {
  readonly record: AuthRecord;
  /** Its position among the frames written on the connection (see `written`). */
  readonly seq: number;
}

export class Connection {
  stream: ByteStream | undefined;
  readonly frames: FrameDecoder;
  /** The ConnectResponse arrived and the session is (re)established on this connection. */
  handshakeDone = false;
  /** Auth packets and setWatches are written: ordinary requests may flow. */
  ready = false;
  /** The server said it is read-only (cut off from its quorum). */
  readOnly = false;
  /**
   * The server's version, learnt when an op newer than 3.5 is first sent on this connection: undefined until
   * then, null when the server would not tell (its 4lw whitelist refuses srvr and envi).
   */
  serverVersion: ServerVersion | null | undefined = undefined;
  /** The version is being asked for (on a side connection). */
  versionAsked = false;
  /**
   * The session is to leave this connection for another server (rebalancing after updateServerList): nothing more
   * is written on it, and it is dropped once every request on it has been answered.
   */
  leaving = false;
  /** A SASL exchange is running on this connection: only its packets go out, and the session is not yet connected. */
  saslPending = false;
  readonly pending = new PendingQueue<Outgoing>();
  /** Auth packets written and not yet answered, oldest first, each with its position on the wire. */
  readonly authInFlight: AuthInFlight[] = [];
  /** Requests and auth packets written so far on this connection (their `seq` numbers are 1, 2, …). */
  written = 0;
  /** For each ping in flight: how many requests and auth packets had been written before it. */
  readonly pingMarks: number[] = [];
  #endedWith: ZooKeeperError | undefined;
  #isEnded = false;
  #resolveEnded!: () => void;
  /** Resolves once the connection is over. */
  readonly ended: Promise<void>;
  #resolveReleased!: () => void;
  #streamOpen = false;
  /**
   * Resolves once the transport has reported the stream closed (its onClose), or at once if no stream
   * was ever opened: close() waits for it so no socket outlives the client.
   */
  readonly released: Promise<void>;

  /** `host:port` as the connect string names it, for messages. */
  readonly description: string;

  constructor(
    readonly id: number,
    /** Where it goes (side connections to the same server use it); its `address` is set once resolved. */
    public endpoint: Endpoint,
    maxFrameSize: number,
  ) {
    this.description = `${endpoint.host}:${endpoint.port}`;
    this.frames = new FrameDecoder({ maxFrameSize });
    this.ended = new Promise<void>((resolve) => (this.#resolveEnded = resolve));
    this.released = new Promise<void>((resolve) => (this.#resolveReleased = resolve));
  }

  /** The transport opened the stream. */
  attach(stream: ByteStream): void {
    this.stream = stream;
    this.#streamOpen = true;
  }

  /** The transport's onClose arrived. */
  streamClosed(): void {
    this.#streamOpen = false;
    this.#resolveReleased();
  }

  get isOver(): boolean {
    return this.#isEnded;
  }

  get reason(): ZooKeeperError | undefined {
    return this.#endedWith;
  }

  /**
   * Marks the connection over (once), closes the stream and returns the requests still awaiting replies
   * (the auth packets still unanswered stay readable in `authInFlight`).
   */
  end(reason: ZooKeeperError): Outgoing[] | undefined {
    if (this.#isEnded) return undefined;
    this.#isEnded = true;
    this.#endedWith = reason;
    this.ready = false;
    try {
      this.stream?.close();
    } catch {
      // A transport that throws on close is already closed as far as we are concerned.
    }
    const left = this.pending.drain();
    if (!this.#streamOpen) this.#resolveReleased();
    this.#resolveEnded();
    return left;
  }
}
