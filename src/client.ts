/**
 * The client façade: ZooKeeper operations as promises over one Session.
 *
 * Each method validates its arguments synchronously (BAD_ARGUMENT with op and path, nothing sent), maps
 * client paths through the chroot, and queues its request before returning, so the order of calls is
 * the order on the wire. Watches are handles: a one-shot watch is a promise returned with the data, a
 * persistent watch an AsyncIterable that `await using` removes.
 *
 * The class only holds the session and delegates: the operations live in src/client/ by kind
 * (node-reads, node-writes, watch-ops, multi-ops, auth-ops, tree), each a function of a ClientContext.
 */

import { clientError } from './errors.js';
import type { Stat } from './protocol/index.js';
import { DEFAULT_MAX_DATA_SIZE } from './client/request-size.js';
import { clockOf, type Clock } from './session/clock.js';
import { parseConnectString, type ConnectString } from './session/connect-string.js';
import { endpointKey } from './session/host-provider.js';
import type { SessionState, StateChange } from './session/state.js';
import { sessionIdHex } from './session/trace.js';
import { OPEN_ACL_UNSAFE, type ACL } from './client/acl.js';
import * as authOps from './client/auth-ops.js';
import { Chroot } from './client/chroot.js';
import { checkClientOptions, DEFAULT_SESSION_TIMEOUT_MS, sessionOptions, waitConnected } from './client/connecting.js';
import { clientTransport, TlsFailures } from './client/tls-option.js';
import { ClientContext, guard } from './client/context.js';
import { EnsembleTracker } from './client/ensemble-tracker.js';
import { SessionSeries } from './client/session-series.js';
import { checkServerFeatures } from './client/feature-check.js';
import type { ServerFeatures } from './client/server-features.js';
import * as multiOps from './client/multi-ops.js';
import type { OpResult, ReadOp, WriteOp } from './client/multi.js';
import * as reads from './client/node-reads.js';
import { create as createNode } from './client/create.js';
import * as writes from './client/node-writes.js';
import { validatePath } from './client/paths.js';
import { deleteRecursive, mkdirp } from './client/tree.js';
import type {
  AddWatchMode,
  CallOptions,
  ChildrenWithStat,
  ClientIdentity,
  ClientOptions,
  CreateOptions,
  Created,
  Data,
  DeleteOptions,
  GetDataOptions,
  MkdirpOptions,
  NodeData,
  RemoveWatchType,
  SetDataOptions,
  VersionOptions,
  Watched,
  WatchOptions,
} from './client/types.js';
import * as watchOps from './client/watch-ops.js';
import { channels, observer, stateObserver, type CallTap } from './client/observe.js';
import { carryPersistentWatches } from './client/watch-ops.js';
import type { PersistentWatch } from './client/watch-handle.js';

/**
 * The context behind a client, for operations that live outside the class (reconfig, in src/client/admin-ops.ts):
 * a method is in every bundle that has the class, a function only in those that import it. Set by the class's
 * static block, the one place that can read its ES private field.
 */
let contextOf: (client: ZooKeeperClient) => ClientContext;
/** The view of a client's session under `key` (see clientView), set by the class's static block. */
let viewOf: (client: ZooKeeperClient, key: string | undefined, makeContext: (root: ClientContext) => ClientContext) => ZooKeeperClient;

/** Set by viewOf just around its `new`: the constructor then makes a view on that client's session. */
let adopting: { readonly root: ZooKeeperClient; readonly sessions: SessionSeries; readonly clock: Clock; readonly ctx: ClientContext } | undefined;

/**
 * A ZooKeeper client: a session and its operations as promises. Create one with `connect` (or
 * `ZooKeeperClient.connect`); close it with `close()` or `await using`. When the session expires the client opens a
 * new one by itself (see `renewSession` and docs/watches-and-sessions.md); a close or an auth failure is final.
 */
export class ZooKeeperClient implements AsyncDisposable {
  // ES private fields, not TypeScript `private`: util.inspect, console.log and JSON see none of them, so
  // logging a client never prints the session behind it (its credentials, password, queued AuthPackets).
  readonly #ctx: ClientContext;
  readonly #sessions: SessionSeries;
  readonly #clock: Clock;
  /** TLS failures of this client's connections, which `connect()` reports at once. */
  readonly #tlsFailures = new TlsFailures();
  /** For a namespace view, the client it is a view of (which owns the session). */
  readonly #root: ZooKeeperClient | undefined;
  /** The views of this client, one per key (their persistent watches are carried on renewal too). */
  readonly #views = new Map<string, ZooKeeperClient>();

  static {
    contextOf = (client) => client.#ctx;
    viewOf = (client, key, makeContext) => {
      const root = client.#root ?? client;
      if (key === undefined) return root;
      const known = root.#views.get(key);
      if (known !== undefined) return known;
      adopting = { root, sessions: root.#sessions, clock: root.#clock, ctx: makeContext(root.#ctx) };
      try {
        const view = new (root.constructor as new (connectString: string, options?: ClientOptions) => ZooKeeperClient)('', {});
        root.#views.set(key, view);
        return view;
      } finally {
        adopting = undefined;
      }
    };
  }

  /** Starts connecting at once; use `ZooKeeperClient.connect` to wait for the session. */
  constructor(connectString: string, options: ClientOptions = {}) {
    const adopt = adopting;
    if (adopt !== undefined) {
      adopting = undefined;
      this.#root = adopt.root;
      this.#sessions = adopt.sessions;
      this.#clock = adopt.clock;
      this.#ctx = adopt.ctx;
      return;
    }
    this.#root = undefined;
    checkClientOptions(options);
    const parsed = checkedConnectString(connectString, 'connect');
    if (options.transport === undefined) {
      throw clientError(
        'BAD_ARGUMENT',
        "no transport: pass options.transport (streamSocketTransport(connect) with the runtime's socket connect, denoTransport()), or import 'zkwire/node'",
        { op: 'connect' },
      );
    }
    this.#clock = clockOf(options.clock);
    // observe: false leaves the hook out of the call path: no channel, and no tap for a stats collector.
    const taps = options.observe === false ? undefined : new Set<CallTap>();
    const ch = taps && channels();
    this.#sessions = new SessionSeries({
      session: { ...sessionOptions(parsed.hosts, clientTransport(options.transport, options.tls, this.#tlsFailures), this.#clock, options), ...(taps && { observe: observer(taps, ch) }) },
      renew: options.renewSession ?? true,
      clock: this.#clock,
      retry: options.retry,
      taps,
      renewed: (old) => {
        carryPersistentWatches(this.#ctx, old);
        for (const view of this.#views.values()) carryPersistentWatches(view.#ctx, old);
      },
    });
    this.#ctx = new ClientContext(
      this.#sessions,
      new Chroot(parsed.chroot),
      options.defaultAcl ?? OPEN_ACL_UNSAFE,
      options.maxDataSize ?? DEFAULT_MAX_DATA_SIZE,
      { aclProvider: options.aclProvider, containers: options.containers },
    );
    if (ch) this.#sessions.subscribe(stateObserver(ch, () => this.#sessions.current));
    options.compression?.(this.#ctx);
    this.#sessions.start();
    if (options.trackEnsemble ?? true) new EnsembleTracker(this.#ctx, (hosts) => this.#sessions.updateServerList(hosts)).start();
  }

  /** Creates a client and resolves once its session is established (TIMEOUT after `connectTimeoutMs`). */
  static async connect<C extends ZooKeeperClient>(
    this: new (connectString: string, options?: ClientOptions) => C,
    connectString: string,
    options: ClientOptions = {},
  ): Promise<C> {
    // `new this`: a subclass (the Node entry's, with its default transport) gets instances of itself.
    const client = new this(connectString, options);
    try {
      const timeoutMs = options.connectTimeoutMs ?? options.sessionTimeoutMs ?? DEFAULT_SESSION_TIMEOUT_MS;
      await waitConnected(client.#sessions, client.#clock, timeoutMs, options.signal, client.#tlsFailures);
    } catch (e) {
      await client.close();
      throw e;
    }
    return client;
  }

  // ---- session ---------------------------------------------------------------------------------------

  /**
   * The client's state now (see SessionState). After an expiry it is `expired` only for the LOST change itself: the
   * client is already `connecting` its new session by the time any other code runs, unless `renewSession` is false.
   */
  get state(): SessionState {
    return this.#sessions.state;
  }

  /**
   * True once the client will have no session again: closed, refused by the server (AUTHFAILED), or expired with
   * `renewSession: false`. Calls then fail at once; `stateChanges()` has ended.
   */
  get ended(): boolean {
    return this.#sessions.terminal;
  }

  /** How many times the client opened a new session after its session expired. */
  get sessionRenewals(): number {
    return this.#sessions.renewals;
  }

  /** The current session's id (0n before its handshake; a new one after each renewal). */
  get sessionId(): bigint {
    return this.#sessions.current.sessionId;
  }

  /** The session id as `0x…`, the way ZooKeeper's logs show it. */
  get sessionIdHex(): string {
    return sessionIdHex(this.#sessions.current.sessionId);
  }

  /** The session password (to resume the session from another client object). */
  get sessionPassword(): Uint8Array {
    return this.#sessions.current.sessionPassword;
  }

  /** The server the session is established on now (`host:port`), undefined while disconnected. */
  get connectedServer(): string | undefined {
    return this.#sessions.current.server;
  }

  /**
   * The ZooKeeper version of the server the session is on (e.g. "3.8.4"), once learnt: it is asked for (with the
   * `srvr` or `envi` four-letter word, on a side connection) the first time a connection carries an op newer than
   * 3.5. Undefined before that, while disconnected, or when the server's 4lw whitelist allows neither word.
   */
  get serverVersion(): string | undefined {
    return this.#sessions.current.serverVersion?.text;
  }

  /** The session timeout the server granted (0 before the first handshake); it may differ from the one asked for. */
  get negotiatedTimeoutMs(): number {
    return this.#sessions.current.negotiatedTimeoutMs;
  }

  /**
   * The servers the client connects to (`host:port`), in the order it tries them: the connect string's, or those
   * `updateServerList` or the ensemble tracker (`trackEnsemble`) set since.
   */
  get serverList(): readonly string[] {
    return this.#sessions.current.hosts.map(endpointKey);
  }

  /**
   * Replaces the servers the client connects to, as the Java client's `updateServerList`: `connectString` as
   * `connect` takes it (`host:port,...`; a chroot, if given, must be the client's own). The session goes on; when
   * the list changes, the client moves to another server with the probability that spreads clients evenly over the
   * new list (for sure when its server left the list; never when the list shrank and its server stayed). A move
   * waits for the replies to the calls in flight, then drops the connection and resumes the session on the chosen
   * server; calls made meanwhile go out there. Returns whether it moves. The ensemble tracker (`trackEnsemble`) calls
   * this after a `reconfig`.
   */
  updateServerList(connectString: string): boolean {
    const root = this.#root ?? this;
    const parsed = checkedConnectString(connectString, 'updateServerList');
    if (parsed.chroot !== undefined && parsed.chroot !== root.#ctx.chroot.root) {
      throw clientError('BAD_ARGUMENT', `the chroot of a client cannot change (${parsed.chroot} given, ${root.#ctx.chroot.root ?? 'none'} in use)`, { op: 'updateServerList' });
    }
    return this.#sessions.updateServerList(parsed.hosts);
  }

  /**
   * State changes from now on, across session renewals (an expiry is LOST, the new session's first connection
   * RECONNECTED with `newSession: true`); ends after the change that ends the client.
   */
  stateChanges(): AsyncIterable<StateChange> {
    return this.#sessions.changes();
  }

  /**
   * Resolves once a session is connected (or connected read-only), at once when one is. Waits across a session
   * renewal; rejects only when the client ends first (CLOSED, AUTHFAILED, or SESSIONEXPIRED with `renewSession:
   * false`), or with ABORTED when `options.signal` fires. Recipes wait with this after a CONNECTIONLOSS.
   */
  waitConnected(options: { readonly signal?: AbortSignal | undefined } = {}): Promise<void> {
    return this.#sessions.waitConnected(options.signal);
  }

  /** Calls `listener` on every state change (across session renewals); returns the unsubscribe function. */
  onStateChange(listener: (change: StateChange) => void): () => void {
    return this.#sessions.subscribe(listener);
  }

  /**
   * Closes the session (closeSession, bounded wait), opens no other, and releases every timer and socket. On a
   * view (usingNamespace) it does nothing: the session is the client's the view came from.
   */
  close(): Promise<void> {
    if (this.#root !== undefined) return Promise.resolve();
    return this.#sessions.close();
  }

  /** `await using` support: closes the client (see `close()`). */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  // ---- node operations -------------------------------------------------------------------------------

  /** Creates a node; resolves with its path (or `{path, stat}` with `stat: true`). */
  create(path: string, data?: Data | null, options?: CreateOptions & { stat?: false }): Promise<string>;
  create(path: string, data: Data | null | undefined, options: CreateOptions & { stat: true }): Promise<Created>;
  create(path: string, data: Data | null = null, options: CreateOptions = {}): Promise<string | Created> {
    return this.#packed('create', createNode, path, data, options);
  }

  /**
   * Deletes the node at `path` (NONODE if missing, NOTEMPTY if it has children, BADVERSION if `options.version` does
   * not match). With `guaranteed: true` it keeps trying in the background until the node is gone (see DeleteOptions).
   */
  delete(path: string, options: DeleteOptions = {}): Promise<void> {
    return writes.deleteNode(this.#ctx, path, options);
  }

  /** The node's Stat, or null when it does not exist. */
  exists(path: string, options?: WatchOptions & { watch?: false }): Promise<Stat | null>;
  exists(path: string, options: WatchOptions & { watch: true }): Promise<{ stat: Stat | null } & Watched>;
  exists(path: string, options: WatchOptions = {}): Promise<Stat | null | ({ stat: Stat | null } & Watched)> {
    return reads.exists(this.#ctx, path, options);
  }

  /** Reads a node's data and stat (NONODE if missing). */
  getData(path: string, options?: GetDataOptions & { watch?: false }): Promise<NodeData>;
  /** Reads a node's data and stat and sets a one-shot data watch, returned as `watch` (a promise of the event). */
  getData(path: string, options: GetDataOptions & { watch: true }): Promise<NodeData & Watched>;
  getData(path: string, options: GetDataOptions = {}): Promise<NodeData | (NodeData & Watched)> {
    return this.#packed('getData', reads.getData, path, options);
  }

  /** The ensemble configuration (/zookeeper/config, never chrooted). */
  getConfig(options?: WatchOptions & { watch?: false }): Promise<NodeData>;
  getConfig(options: WatchOptions & { watch: true }): Promise<NodeData & Watched>;
  getConfig(options: WatchOptions = {}): Promise<NodeData | (NodeData & Watched)> {
    return reads.getConfig(this.#ctx, options);
  }

  /** Replaces a node's data; resolves with the new stat (BADVERSION if `options.version` does not match). */
  setData(path: string, data: Data, options: SetDataOptions = {}): Promise<Stat> {
    return this.#packed('setData', writes.setData, path, data, options);
  }

  /** Reads a node's ACL and stat. */
  getACL(path: string, options: CallOptions = {}): Promise<{ acl: ACL[]; stat: Stat }> {
    return reads.getACL(this.#ctx, path, options);
  }

  /** Replaces the node's ACL; `version` is the expected ACL version (aversion). */
  setACL(path: string, acl: readonly ACL[], options: VersionOptions = {}): Promise<Stat> {
    return writes.setACL(this.#ctx, path, acl, options);
  }

  /** Child names (unordered). */
  getChildren(path: string, options?: WatchOptions & { watch?: false }): Promise<string[]>;
  getChildren(path: string, options: WatchOptions & { watch: true }): Promise<{ children: string[] } & Watched>;
  getChildren(path: string, options: WatchOptions = {}): Promise<string[] | ({ children: string[] } & Watched)> {
    return reads.getChildren(this.#ctx, path, options);
  }

  /** Child names and the node's Stat (getChildren2). */
  getChildrenWithStat(path: string, options?: WatchOptions & { watch?: false }): Promise<ChildrenWithStat>;
  getChildrenWithStat(path: string, options: WatchOptions & { watch: true }): Promise<ChildrenWithStat & Watched>;
  getChildrenWithStat(path: string, options: WatchOptions = {}): Promise<ChildrenWithStat | (ChildrenWithStat & Watched)> {
    return reads.getChildrenWithStat(this.#ctx, path, options);
  }

  /** The number of all descendants of the node (not only its children). */
  getAllChildrenNumber(path: string, options: CallOptions = {}): Promise<number> {
    return reads.getAllChildrenNumber(this.#ctx, path, options);
  }

  /**
   * This session's ephemeral nodes whose path starts with `prefix` (a plain string prefix, default `/`:
   * all of them). With a chroot, only nodes inside it, as client paths.
   */
  getEphemerals(prefix = '/', options: CallOptions = {}): Promise<string[]> {
    return reads.getEphemerals(this.#ctx, prefix, options);
  }

  /** Waits until the server we are connected to has caught up with the leader. */
  sync(path: string, options: CallOptions = {}): Promise<void> {
    return reads.sync(this.#ctx, path, options);
  }

  /**
   * Runs write ops atomically. Resolves with one result per op; if any op fails, nothing is applied and
   * the promise rejects with the failing op's code, `results` holding every op's outcome.
   */
  multi(ops: readonly WriteOp[], options: CallOptions = {}): Promise<OpResult[]> {
    return this.#packed('multi', multiOps.multi, ops, options);
  }

  /** Runs getData/getChildren ops in one round trip; each op succeeds or fails on its own. */
  multiRead(ops: readonly ReadOp[], options: CallOptions = {}): Promise<OpResult[]> {
    return this.#packed('multiRead', multiOps.multiRead, ops, options);
  }

  /**
   * Runs a data operation through the `compression` option's hook when there is one (compression.ts); without one, a
   * call that asks for compressed data is refused rather than sent as it is.
   */
  #packed<A extends unknown[], T>(op: string, run: (ctx: ClientContext, ...args: A) => Promise<T>, ...args: A): Promise<T> {
    const hook = this.#ctx.pack;
    if (hook !== undefined) return hook(op, run as never, args) as Promise<T>;
    if (args.some(asksCompression)) return Promise.reject(clientError('BAD_ARGUMENT', 'no compression option', { op }));
    return run(this.#ctx, ...args);
  }

  // ---- auth ------------------------------------------------------------------------------------------

  /**
   * Adds credentials to this session (and every later connection of it), e.g. `addAuth('digest',
   * 'user:password')`. AUTHFAILED ends the session: the server closes the connection, and every call
   * in flight fails with AUTHFAILED — whose outcome, for a call already written, is unknown (the server
   * may have run it), as with CONNECTIONLOSS.
   */
  addAuth(scheme: string, auth: Data, options: CallOptions = {}): Promise<void> {
    return authOps.addAuth(this.#ctx, scheme, auth, options);
  }

  /** The identities this connection is authenticated as (ZooKeeper 3.7+). */
  whoAmI(options: CallOptions = {}): Promise<ClientIdentity[]> {
    return authOps.whoAmI(this.#ctx, options);
  }

  // ---- watches ---------------------------------------------------------------------------------------

  /**
   * Adds a persistent watch (events for the node itself) or a persistent-recursive one (the node and all
   * descendants, no NodeChildrenChanged). Iterate the handle for events; dispose it to remove the watch.
   */
  addWatch(path: string, options: CallOptions & { mode?: AddWatchMode } = {}): Promise<PersistentWatch> {
    return watchOps.addWatch(this.#ctx, path, options);
  }

  /**
   * Removes the watches of a kind on a node, on the server and locally. Local one-shot watches get a
   * DataWatchRemoved / ChildWatchRemoved event, persistent handles PersistentWatchRemoved (and end).
   * NOWATCHER when the server has none.
   */
  removeWatches(path: string, type: RemoveWatchType, options: CallOptions = {}): Promise<void> {
    return watchOps.removeWatches(this.#ctx, path, type, options);
  }

  /** Whether the server holds a watch of that kind on the node for this session. */
  checkWatches(path: string, type: RemoveWatchType, options: CallOptions = {}): Promise<boolean> {
    return watchOps.checkWatches(this.#ctx, path, type, options);
  }

  /**
   * What the server can do, as known now (see ServerFeatures: `undefined` fields are not known yet). Learnt from
   * the server's version when known, else from answers: a 3.4 server shows itself by answering an op of 3.5
   * UNIMPLEMENTED. Ops it is known to lack then fail at once with UNIMPLEMENTED naming the release they need.
   */
  get serverFeatures(): ServerFeatures {
    return this.#sessions.features.snapshot(this.#sessions.current.serverVersion);
  }

  /**
   * The server's features, asking the server (one harmless checkWatches on "/") when it is not yet known whether it
   * has the 3.5 ops: recipes call it before a first container create, which a 3.4 server answers by closing the
   * connection.
   */
  checkServerFeatures(options: CallOptions = {}): Promise<ServerFeatures> {
    return guard(() => checkServerFeatures(this.#ctx, options));
  }

  // ---- helpers users expect --------------------------------------------------------------------------

  /**
   * Creates `path` and any missing ancestors (persistent, or containers with `containers: true`), in one
   * pipelined round trip; existing nodes are left alone. Only the last node gets `data`.
   */
  mkdirp(path: string, options: MkdirpOptions = {}): Promise<void> {
    return mkdirp(this.#ctx, path, options);
  }

  /** Deletes `path` and everything below it; a missing node is not an error. */
  deleteRecursive(path: string, options: CallOptions = {}): Promise<void> {
    return deleteRecursive(this.#ctx, path, options);
  }
}

/** What call options and multi ops ask of the `compression` option. */
type CompressionFlags = { compressed?: boolean; decompressed?: boolean } | null | undefined;

/**
 * Whether a call's argument (for a multi, one of its ops) asks for compressed data: a named function, so that the
 * check on every create, getData, setData and multi of a client without compression allocates nothing.
 */
function asksCompression(a: unknown): unknown {
  const f = a as CompressionFlags;
  return Array.isArray(a) ? a.some(asksCompression) : f?.compressed || f?.decompressed;
}

/** A connect string parsed, its chroot checked as a path: BAD_ARGUMENT for anything else. */
function checkedConnectString(connectString: string, op: string): ConnectString {
  if (typeof connectString !== 'string') throw clientError('BAD_ARGUMENT', `${op} takes a connect string, got ${String(connectString)}`, { op });
  const parsed = parseConnectString(connectString, op);
  if (parsed.chroot !== undefined) validatePath(parsed.chroot, op);
  return parsed;
}

/** The context of `client` (BAD_ARGUMENT for anything that is not a ZooKeeperClient), for the client's own modules. */
export function clientContext(client: ZooKeeperClient, op: string): ClientContext {
  return contextOf(checkedClient(client, op));
}

/**
 * The view of `client`'s session with the context `makeContext` builds from the client's, one per `key` (the same
 * object each time); on a view, a view of the client it came from; with no key, that client itself. A view's
 * persistent watches are carried across a session renewal with the client's; closing it does nothing. For the
 * client's own modules (usingNamespace).
 */
export function clientView(client: ZooKeeperClient, key: string | undefined, makeContext: (root: ClientContext) => ClientContext, op: string): ZooKeeperClient {
  return viewOf(checkedClient(client, op), key, makeContext);
}

function checkedClient(client: ZooKeeperClient, op: string): ZooKeeperClient {
  if (!(client instanceof ZooKeeperClient)) throw clientError('BAD_ARGUMENT', 'not a ZooKeeperClient', { op });
  return client;
}

export type { OpResult, ReadOp, WriteOp } from './client/multi.js';
