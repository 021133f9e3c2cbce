/**
 * InMemoryZooKeeper: a standalone ZooKeeper 3.9 or 3.8 (the `version` option), as a client sees it, in TypeScript and in memory. Clients reach
 * it through its `transport` and speak the real wire protocol (the same Jute records zkwire's codec encodes), so
 * an application's tests run against it unchanged in any runtime (Node, Deno, Bun, workerd, browsers) with no
 * Java and no sockets. docs/testing.md lists what it does not do.
 */

import { JUTE_MAX_BUFFER } from '../../protocol/opcodes.js';
import { base64, sha1 } from '../../util/sha1.js';
import { utf8Encode } from '../../protocol/utf8.js';
import { clockOf, Timer, type Clock } from '../../session/clock.js';
import type { Transport } from '../../transport/types.js';
import { ServerConnection, type ClientLink } from './connection.js';
import type { CoreSettings, ServerCore, SessionConnection } from './core.js';
import { DataTree, type TreeEvent } from './data-tree.js';
import { DeliveryQueue } from './delivery.js';
import { reapCandidates } from './reaper.js';
import { nextHost, register, unregister } from './registry.js';
import { SessionTracker, type Session } from './sessions.js';
import { kitClock } from '../kit-clock.js';
import { hexId } from '../../protocol/describe.js';
import { inMemoryTransport } from './transport.js';
import { behaviourOf, NEWEST_IN_MEMORY_VERSION, type InMemoryZooKeeperVersion } from './version.js';
import { WatchManager } from './watch-manager.js';

/** Options of {@link InMemoryZooKeeper}. */
export interface InMemoryZooKeeperOptions {
  /**
   * The ZooKeeper version to reproduce where 3.8 and 3.9 answer differently (default `'3.9'`, the newest): on 3.9
   * `exists` on a node the caller may not READ is NOAUTH, and checkWatches/removeWatches of type `data` or
   * `children` see only one-shot watches, not persistent ones. docs/versions.md lists the differences.
   */
  version?: InMemoryZooKeeperVersion | undefined;
  /**
   * The server's time: session expiry, TTL and container checks, ctime/mtime. Default the runtime's clock, its timers
   * unref'd so a server left open does not keep the process alive. Pass a
   * manual clock to move time yourself, or keep the default and jump ahead with `advance(ms)`.
   */
  clock?: Clock | undefined;
  /** zoo.cfg `tickTime` (default 2000): session timeouts are clamped to 2..20 ticks unless set below. */
  tickTime?: number | undefined;
  /** Shortest session timeout granted; default 2 × tickTime. */
  minSessionTimeoutMs?: number | undefined;
  /** Longest session timeout granted; default 20 × tickTime. */
  maxSessionTimeoutMs?: number | undefined;
  /** How often containers and TTL nodes are checked (`znode.container.checkIntervalMs`); default 60 000. */
  containerCheckIntervalMs?: number | undefined;
  /** The largest frame accepted, `jute.maxbuffer`; default 1 048 575 bytes. A bigger one closes the connection. */
  maxBufferBytes?: number | undefined;
  /**
   * The super user's password (`zookeeper.DigestAuthenticationProvider.superDigest` on a real server): a connection
   * that authenticates as `digest` `super:<password>` passes every ACL check. Default: no super user.
   */
  superPassword?: string | undefined;
}

/**
 * A standalone ZooKeeper in memory. Connect a client with its `connectString` and `transport`:
 *
 * ```ts
 * await using server = new InMemoryZooKeeper();
 * await using zk = await connect(server.connectString, { transport: server.transport });
 * ```
 *
 * Sessions expire when the server hears nothing for their negotiated timeout on its clock; `advance(ms)` moves
 * that clock forward, `expireSession(id)` ends a session now and `disconnect()` drops connections (the sessions
 * stay). `close()` ends every connection; clients see the connection lost.
 */
export class InMemoryZooKeeper implements AsyncDisposable {
  /** The host name of its connect string, unique among the servers of this process. */
  readonly host: string;
  /** Always 2181. */
  readonly port = 2181;
  /** The Transport clients reach this server through. */
  readonly transport: Transport;
  /** The ZooKeeper version it reproduces (the `version` option). */
  readonly version: InMemoryZooKeeperVersion;

  readonly #clock: Clock;
  #skew = 0;
  #zxid = 0n;
  #accepting = true;
  readonly #queue = new DeliveryQueue();
  readonly #tree = new DataTree();
  readonly #watches = new WatchManager();
  readonly #sessions: SessionTracker;
  readonly #attached = new Map<bigint, SessionConnection>();
  readonly #connections = new Set<ServerConnection>();
  readonly #core: ServerCore;
  readonly #reaper: Timer;
  readonly #reapEvery: number;
  #nextReap: number;

  constructor(options: InMemoryZooKeeperOptions = {}) {
    const behaviour = behaviourOf(options.version ?? NEWEST_IN_MEMORY_VERSION);
    this.version = behaviour.version;
    this.#clock = options.clock === undefined ? kitClock : clockOf(options.clock);
    const tick = options.tickTime ?? 2000;
    const settings: CoreSettings = {
      minSessionTimeoutMs: options.minSessionTimeoutMs ?? 2 * tick,
      maxSessionTimeoutMs: options.maxSessionTimeoutMs ?? 20 * tick,
      maxBufferBytes: options.maxBufferBytes ?? JUTE_MAX_BUFFER,
      superDigest: options.superPassword === undefined ? undefined : `super:${base64(sha1(utf8Encode(`super:${options.superPassword}`)))}`,
    };
    this.#sessions = new SessionTracker(this.#clock, () => this.now(), (session) => this.#expire(session));
    this.host = nextHost();
    const self = this;
    this.#core = {
      tree: this.#tree,
      watches: this.#watches,
      sessions: this.#sessions,
      settings,
      behaviour,
      get lastZxid() {
        return self.#zxid;
      },
      nextZxid: () => ++this.#zxid,
      now: () => this.now(),
      commit: (events: readonly TreeEvent[]) => this.#watches.trigger(events),
      connectionOf: (id) => this.#attached.get(id),
      attach: (id, connection) => {
        if (connection === undefined) this.#attached.delete(id);
        else this.#attached.set(id, connection);
      },
      endSession: (session, zxid) => this.#endSession(session, zxid),
    };
    this.transport = inMemoryTransport(
      {
        host: this.host,
        port: this.port,
        get accepting() {
          return self.#accepting;
        },
        accept: (link) => this.#accept(link),
      },
      this.#queue,
    );
    this.#reapEvery = options.containerCheckIntervalMs ?? 60_000;
    this.#nextReap = this.now() + this.#reapEvery;
    this.#reaper = new Timer(this.#clock, () => this.#reapIfDue());
    this.#reaper.arm(this.#reapEvery);
    register(this.host, this);
  }

  /** A server, as `new InMemoryZooKeeper(options)`; for symmetry with `TestingServer.start()`. */
  static start(options: InMemoryZooKeeperOptions = {}): Promise<InMemoryZooKeeper> {
    return Promise.resolve(new InMemoryZooKeeper(options));
  }

  /** `host:2181`, for `connect()` together with `transport`. */
  get connectString(): string {
    return `${this.host}:${this.port}`;
  }

  /** The server's time (ms): its clock plus every `advance`. */
  now(): number {
    return this.#clock.now() + this.#skew;
  }

  /** The zxid of the last transaction. */
  get lastZxid(): bigint {
    return this.#zxid;
  }

  /** The ids of the sessions alive on the server. */
  get sessionIds(): bigint[] {
    return this.#sessions.ids();
  }

  /**
   * The sessions still open on the server, as hex ids (`0x…`, as the CLI and the server's log print them): what a
   * test left open. `expect(server.openSessions()).toEqual([])` in an `afterEach` turns a runner's hang into a named
   * leak.
   */
  openSessions(): string[] {
    return this.#sessions.ids().map(hexId);
  }

  /** Whether `close()` has been called. */
  get closed(): boolean {
    return !this.#accepting;
  }

  /**
   * Moves the server's time forward by `ms`, as if that much time passed with no word from any client: sessions
   * whose timeout passes expire (their connections close, their ephemeral nodes go), and a container/TTL check
   * that falls due runs. The clients' own timers are untouched.
   */
  advance(ms: number): void {
    if (!(ms >= 0)) throw new RangeError(`advance takes a number of ms >= 0, got ${ms}`);
    this.#skew += ms;
    this.#sessions.sweep();
    this.#reapIfDue();
  }

  /**
   * Ends a session now, as its expiry would: its ephemeral nodes go, their watches fire, its connection closes and
   * the client's next handshake is answered "expired". Returns false if there is no such session.
   */
  expireSession(sessionId: bigint): boolean {
    const session = this.#sessions.get(sessionId);
    if (session === undefined) return false;
    this.#sessions.remove(sessionId);
    this.#expire(session);
    return true;
  }

  /**
   * Closes the connection of one session (or every connection): the clients see the connection lost and
   * reconnect, resuming their sessions and re-registering their watches. Returns how many it closed.
   */
  disconnect(sessionId?: bigint): number {
    let n = 0;
    for (const c of [...this.#connections]) {
      if (sessionId === undefined || c.sessionId === sessionId) {
        c.close();
        n++;
      }
    }
    return n;
  }

  /** Runs the container and TTL check now instead of at its next interval; returns the paths it deleted. */
  reapNow(): string[] {
    const deleted: string[] = [];
    for (const path of reapCandidates(this.#tree, this.now())) {
      const zxid = this.#core.nextZxid();
      const change = this.#tree.delete(path, zxid);
      this.#watches.trigger(change.events);
      deleted.push(path);
    }
    return deleted;
  }

  /**
   * Stops the server: every connection closes (clients see it lost and find nothing to reconnect to), every
   * session and timer goes. Resolves once the clients have been told.
   */
  close(): Promise<void> {
    if (this.#accepting) {
      this.#accepting = false;
      unregister(this.host);
      this.#reaper.cancel();
      this.disconnect();
      this.#sessions.clear();
      this.#attached.clear();
    }
    return new Promise((resolve) => this.#queue.push(resolve));
  }

  /** `close()`, for `await using`. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  #accept(link: ClientLink): { receive(chunk: Uint8Array): void; clientClosed(): void } {
    const connection = new ServerConnection(this.#core, link, (c) => this.#connections.delete(c));
    this.#connections.add(connection);
    return { receive: (chunk) => connection.receive(chunk), clientClosed: () => connection.close() };
  }

  #expire(session: Session): void {
    this.#endSession(session, this.#core.nextZxid());
    this.#attached.get(session.id)?.close();
  }

  #endSession(session: Session, zxid: bigint): void {
    this.#sessions.remove(session.id);
    const events: TreeEvent[] = [];
    for (const path of this.#tree.ephemeralsOf(session.id)) events.push(...this.#tree.delete(path, zxid).events);
    this.#watches.trigger(events);
  }

  #reapIfDue(): void {
    if (!this.#accepting) return;
    const now = this.now();
    if (now >= this.#nextReap) {
      this.reapNow();
      while (this.#nextReap <= now) this.#nextReap += this.#reapEvery;
    }
    this.#reaper.arm(this.#nextReap - now);
  }
}
