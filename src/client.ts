/**
 * The client façade: ZooKeeper operations as promises over one Session.
 *
 * Each method validates its arguments synchronously (BAD_ARGUMENT with op and path, nothing sent), maps
 * client paths through the chroot, and queues its request before returning, so the order of calls is
 * the order on the wire. Watches are handles: a one-shot watch is a promise returned with the data, a
 * persistent watch an AsyncIterable that `await using` removes.
 */

import { clientError, errorFromServer, ZooKeeperError } from './errors.js';
import {
  AddWatchMode as WireAddWatchMode,
  ErrorCode,
  JUTE_MAX_BUFFER,
  OpCode,
  WatcherType,
  type ClientInfo,
  type GetChildren2Response,
  type GetDataResponse,
  type Stat,
} from './protocol/index.js';
import { parseConnectString } from './session/connect-string.js';
import { Timer, systemClock } from './session/clock.js';
import type { Reply } from './session/outgoing.js';
import { Session } from './session/session.js';
import type { SessionState, StateChange } from './session/state.js';
import { sessionIdHex } from './session/trace.js';
import type { WatchEvent, WatchKind } from './session/watches.js';
import { OPEN_ACL_UNSAFE, type ACL } from './client/acl.js';
import { Chroot } from './client/chroot.js';
import { checkTtl, createModeInfo, createOpcode } from './client/create-mode.js';
import { encodeMulti, multiResults, type OpResult, type ReadOp, type WriteOp } from './client/multi-wire.js';
import { checkAcl, checkVersion } from './client/checks.js';
import { validatePath } from './client/paths.js';
import { deleteRecursive, mkdirp } from './client/tree.js';
import { toBytes } from './client/data.js';
import type {
  AddWatchMode,
  CallOptions,
  ChildrenWithStat,
  ClientIdentity,
  ClientOptions,
  CreateOptions,
  Created,
  Data,
  MkdirpOptions,
  NodeData,
  RemoveWatchType,
  VersionOptions,
  Watched,
  WatchOptions,
} from './client/types.js';
import { oneShot, PersistentWatch } from './client/watch-handle.js';

const DEFAULT_SESSION_TIMEOUT_MS = 30_000;
/** Room left in a request frame for header, path and ACLs when checking data against jute.maxbuffer. */
const FRAME_OVERHEAD_ALLOWANCE = 1024;
const CONFIG_NODE = '/zookeeper/config';
const EMPTY = new Uint8Array(0);

/** Runs `fn` (which queues synchronously) and turns a synchronous throw into a rejected promise. */
function guard<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return fn();
  } catch (e) {
    return Promise.reject(e instanceof ZooKeeperError ? e : clientError('BAD_ARGUMENT', String(e), { cause: e }));
  }
}

export class ZooKeeperClient implements AsyncDisposable {
  private readonly session: Session;
  private readonly chroot: Chroot;
  private readonly defaultAcl: readonly ACL[];
  private readonly maxDataSize: number;
  private readonly options: ClientOptions;

  /** Starts connecting at once; use `ZooKeeperClient.connect` to wait for the session. */
  constructor(connectString: string, options: ClientOptions = {}) {
    const parsed = parseConnectString(connectString);
    if (parsed.chroot !== undefined) validatePath(parsed.chroot, 'connect');
    if (options.transport === undefined) {
      throw clientError('BAD_ARGUMENT', 'no transport: pass options.transport, or import the Node entry point', { op: 'connect' });
    }
    this.options = options;
    this.chroot = new Chroot(parsed.chroot);
    this.defaultAcl = options.defaultAcl ?? OPEN_ACL_UNSAFE;
    this.maxDataSize = options.maxDataSize ?? JUTE_MAX_BUFFER - FRAME_OVERHEAD_ALLOWANCE;
    const clock = options.clock ?? systemClock;
    this.session = new Session({
      hosts: parsed.hosts,
      transport: options.transport,
      sessionTimeoutMs: options.sessionTimeoutMs ?? DEFAULT_SESSION_TIMEOUT_MS,
      clock,
      ...(options.canBeReadOnly === undefined ? {} : { canBeReadOnly: options.canBeReadOnly }),
      ...(options.maxFrameSize === undefined ? {} : { maxFrameSize: options.maxFrameSize }),
      ...(options.reconnectDelay === undefined ? {} : { reconnectDelay: options.reconnectDelay }),
      ...(options.onFrame === undefined ? {} : { onFrame: options.onFrame }),
      ...(options.random === undefined ? {} : { random: options.random }),
      ...(options.closeTimeoutMs === undefined ? {} : { closeTimeoutMs: options.closeTimeoutMs }),
      ...(options.sessionId === undefined ? {} : { sessionId: options.sessionId }),
      ...(options.sessionPassword === undefined ? {} : { sessionPassword: options.sessionPassword }),
      authInfo: (options.authInfo ?? []).map((a) => ({ scheme: a.scheme, auth: toBytes(a.auth, 'connect') })),
    });
    this.session.start();
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
      await client.waitConnected(options.connectTimeoutMs ?? options.sessionTimeoutMs ?? DEFAULT_SESSION_TIMEOUT_MS, options.signal);
    } catch (e) {
      await client.close();
      throw e;
    }
    return client;
  }

  private async waitConnected(timeoutMs: number, signal?: AbortSignal): Promise<void> {
    const clock = this.options.clock ?? systemClock;
    const stop = new AbortController();
    let timedOut = false;
    const timer = new Timer(clock, () => {
      timedOut = true;
      stop.abort();
    });
    const onAbort = (): void => stop.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    if (signal?.aborted === true) stop.abort();
    timer.arm(timeoutMs);
    try {
      await this.session.waitConnected(stop.signal);
    } catch (e) {
      if (timedOut) throw clientError('TIMEOUT', `no session established within ${timeoutMs} ms`, { op: 'connect', cause: e });
      throw e;
    } finally {
      timer.cancel();
      signal?.removeEventListener('abort', onAbort);
    }
  }

  // ---- session ---------------------------------------------------------------------------------------

  get state(): SessionState {
    return this.session.state;
  }

  /** The session id (0n before the first handshake). */
  get sessionId(): bigint {
    return this.session.sessionId;
  }

  /** The session id as `0x…`, the way ZooKeeper's logs show it. */
  get sessionIdHex(): string {
    return sessionIdHex(this.session.sessionId);
  }

  /** The session password (to resume the session from another client object). */
  get sessionPassword(): Uint8Array {
    return this.session.sessionPassword;
  }

  /** The server the session is established on now (`host:port`), undefined while disconnected. */
  get connectedServer(): string | undefined {
    return this.session.server;
  }

  get negotiatedTimeoutMs(): number {
    return this.session.negotiatedTimeoutMs;
  }

  /** State changes from now on; ends after the terminal one. */
  stateChanges(): AsyncIterable<StateChange> {
    return this.session.stateMachine.changes();
  }

  /** Calls `listener` on every state change; returns the unsubscribe function. */
  onStateChange(listener: (change: StateChange) => void): () => void {
    return this.session.stateMachine.subscribe(listener);
  }

  /** Closes the session (closeSession, bounded wait) and releases every timer and socket. */
  close(): Promise<void> {
    return this.session.close();
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  // ---- helpers ---------------------------------------------------------------------------------------

  private data(data: Data, op: string, path: string): Uint8Array {
    const bytes = toBytes(data, op, path);
    if (bytes.length > this.maxDataSize) {
      throw clientError('BAD_ARGUMENT', `data of ${bytes.length} bytes exceeds the maximum of ${this.maxDataSize}`, { op, path });
    }
    return bytes;
  }

  private send<T>(
    op: string,
    path: string | undefined,
    opcode: number,
    body: unknown,
    options: CallOptions,
    onReply: (reply: Reply) => T,
  ): Promise<T> {
    return this.session.request({ opcode, body, op, path, signal: options.signal, onReply });
  }

  /** onReply helper: throws the server's error unless err is 0. */
  private static ok(reply: Reply, op: string, path: string | undefined): void {
    if (reply.err !== 0) throw errorFromServer(reply.err, op, path);
  }

  private mapEvent = (event: WatchEvent): WatchEvent =>
    event.path === undefined ? event : { ...event, path: this.chroot.toClient(event.path) };

  private watchOn(kind: WatchKind, serverPath: string): { register(): void; promise: Promise<WatchEvent> } {
    const { watcher, promise } = oneShot(this.mapEvent);
    return { register: () => this.session.watches.add(kind, serverPath, watcher), promise };
  }

  // ---- node operations -------------------------------------------------------------------------------

  /** Creates a node; resolves with its path (or `{path, stat}` with `stat: true`). */
  create(path: string, data?: Data | null, options?: CreateOptions & { stat?: false }): Promise<string>;
  create(path: string, data: Data | null | undefined, options: CreateOptions & { stat: true }): Promise<Created>;
  create(path: string, data: Data | null = null, options: CreateOptions = {}): Promise<string | Created> {
    return guard(() => {
      const op = 'create';
      const mode = createModeInfo(options.mode ?? 'persistent', op, path);
      validatePath(path, op, mode.sequential);
      const bytes = data === null ? null : this.data(data, op, path);
      const ttl = checkTtl(mode, options.ttl, op, path);
      const withStat = options.stat === true;
      const body = {
        path: this.chroot.toServer(path),
        data: bytes,
        acl: checkAcl(options.acl ?? this.defaultAcl, op, path),
        flags: mode.flags,
        ...(ttl === undefined ? {} : { ttl }),
      };
      return this.send(op, path, createOpcode(mode, withStat), body, options, (reply) => {
        ZooKeeperClient.ok(reply, op, path);
        const res = reply.body as { path: string | null; stat?: Stat };
        const created = this.chroot.toClient(res.path ?? '');
        if (!withStat) return created;
        if (res.stat === undefined) throw clientError('PROTOCOL_ERROR', 'create2 reply without a Stat', { op, path });
        return { path: created, stat: res.stat };
      });
    });
  }

  delete(path: string, options: VersionOptions = {}): Promise<void> {
    return guard(() => {
      validatePath(path, 'delete');
      const body = { path: this.chroot.toServer(path), version: checkVersion(options.version, 'delete', path) };
      return this.send('delete', path, OpCode.delete, body, options, (reply) => ZooKeeperClient.ok(reply, 'delete', path));
    });
  }

  /** The node's Stat, or null when it does not exist. */
  exists(path: string, options?: WatchOptions & { watch?: false }): Promise<Stat | null>;
  exists(path: string, options: WatchOptions & { watch: true }): Promise<{ stat: Stat | null } & Watched>;
  exists(path: string, options: WatchOptions = {}): Promise<Stat | null | ({ stat: Stat | null } & Watched)> {
    return guard(() => {
      validatePath(path, 'exists');
      const server = this.chroot.toServer(path);
      const watch = options.watch === true;
      // An exists watch on an existing node is a data watch; on a missing node an exist watch (fires on create).
      const onData = watch ? this.watchOn('data', server) : undefined;
      const onExist = watch ? this.watchOn('exist', server) : undefined;
      return this.send('exists', path, OpCode.exists, { path: server, watch }, options, (reply) => {
        let stat: Stat | null = null;
        let w = onExist;
        if (reply.err === ErrorCode.NONODE) {
          onExist?.register();
        } else {
          ZooKeeperClient.ok(reply, 'exists', path);
          stat = (reply.body as { stat: Stat }).stat;
          onData?.register();
          w = onData;
        }
        return w === undefined ? stat : { stat, watch: w.promise };
      });
    });
  }

  getData(path: string, options?: WatchOptions & { watch?: false }): Promise<NodeData>;
  getData(path: string, options: WatchOptions & { watch: true }): Promise<NodeData & Watched>;
  getData(path: string, options: WatchOptions = {}): Promise<NodeData | (NodeData & Watched)> {
    return guard(() => {
      validatePath(path, 'getData');
      return this.readData('getData', path, this.chroot.toServer(path), options);
    });
  }

  /** The ensemble configuration (/zookeeper/config, never chrooted). */
  getConfig(options?: WatchOptions & { watch?: false }): Promise<NodeData>;
  getConfig(options: WatchOptions & { watch: true }): Promise<NodeData & Watched>;
  getConfig(options: WatchOptions = {}): Promise<NodeData | (NodeData & Watched)> {
    return guard(() => this.readData('getConfig', CONFIG_NODE, CONFIG_NODE, options));
  }

  private readData(op: string, path: string, server: string, options: WatchOptions): Promise<NodeData | (NodeData & Watched)> {
    const w = options.watch === true ? this.watchOn('data', server) : undefined;
    return this.send(op, path, OpCode.getData, { path: server, watch: w !== undefined }, options, (reply) => {
      ZooKeeperClient.ok(reply, op, path);
      const res = reply.body as GetDataResponse;
      w?.register();
      const result = { data: res.data ?? EMPTY, stat: res.stat };
      return w === undefined ? result : { ...result, watch: w.promise };
    });
  }

  setData(path: string, data: Data, options: VersionOptions = {}): Promise<Stat> {
    return guard(() => {
      validatePath(path, 'setData');
      const body = { path: this.chroot.toServer(path), data: this.data(data, 'setData', path), version: checkVersion(options.version, 'setData', path) };
      return this.send('setData', path, OpCode.setData, body, options, (reply) => {
        ZooKeeperClient.ok(reply, 'setData', path);
        return (reply.body as { stat: Stat }).stat;
      });
    });
  }

  getACL(path: string, options: CallOptions = {}): Promise<{ acl: ACL[]; stat: Stat }> {
    return guard(() => {
      validatePath(path, 'getACL');
      return this.send('getACL', path, OpCode.getACL, { path: this.chroot.toServer(path) }, options, (reply) => {
        ZooKeeperClient.ok(reply, 'getACL', path);
        const res = reply.body as { acl: ACL[] | null; stat: Stat };
        return { acl: res.acl ?? [], stat: res.stat };
      });
    });
  }

  /** Replaces the node's ACL; `version` is the expected ACL version (aversion). */
  setACL(path: string, acl: readonly ACL[], options: VersionOptions = {}): Promise<Stat> {
    return guard(() => {
      validatePath(path, 'setACL');
      const body = { path: this.chroot.toServer(path), acl: checkAcl(acl, 'setACL', path), version: checkVersion(options.version, 'setACL', path) };
      return this.send('setACL', path, OpCode.setACL, body, options, (reply) => {
        ZooKeeperClient.ok(reply, 'setACL', path);
        return (reply.body as { stat: Stat }).stat;
      });
    });
  }

  /** Child names (unordered). */
  getChildren(path: string, options?: WatchOptions & { watch?: false }): Promise<string[]>;
  getChildren(path: string, options: WatchOptions & { watch: true }): Promise<{ children: string[] } & Watched>;
  getChildren(path: string, options: WatchOptions = {}): Promise<string[] | ({ children: string[] } & Watched)> {
    return guard(() => {
      validatePath(path, 'getChildren');
      const server = this.chroot.toServer(path);
      const w = options.watch === true ? this.watchOn('child', server) : undefined;
      return this.send('getChildren', path, OpCode.getChildren, { path: server, watch: w !== undefined }, options, (reply) => {
        ZooKeeperClient.ok(reply, 'getChildren', path);
        const children = (reply.body as { children: string[] | null }).children ?? [];
        w?.register();
        return w === undefined ? children : { children, watch: w.promise };
      });
    });
  }

  /** Child names and the node's Stat (getChildren2). */
  getChildrenWithStat(path: string, options?: WatchOptions & { watch?: false }): Promise<ChildrenWithStat>;
  getChildrenWithStat(path: string, options: WatchOptions & { watch: true }): Promise<ChildrenWithStat & Watched>;
  getChildrenWithStat(path: string, options: WatchOptions = {}): Promise<ChildrenWithStat | (ChildrenWithStat & Watched)> {
    return guard(() => {
      validatePath(path, 'getChildren');
      const server = this.chroot.toServer(path);
      const w = options.watch === true ? this.watchOn('child', server) : undefined;
      return this.send('getChildren', path, OpCode.getChildren2, { path: server, watch: w !== undefined }, options, (reply) => {
        ZooKeeperClient.ok(reply, 'getChildren', path);
        const res = reply.body as GetChildren2Response;
        w?.register();
        const result = { children: res.children ?? [], stat: res.stat };
        return w === undefined ? result : { ...result, watch: w.promise };
      });
    });
  }

  /** The number of all descendants of the node (not only its children). */
  getAllChildrenNumber(path: string, options: CallOptions = {}): Promise<number> {
    return guard(() => {
      validatePath(path, 'getAllChildrenNumber');
      const body = { path: this.chroot.toServer(path) };
      return this.send('getAllChildrenNumber', path, OpCode.getAllChildrenNumber, body, options, (reply) => {
        ZooKeeperClient.ok(reply, 'getAllChildrenNumber', path);
        return (reply.body as { totalNumber: number }).totalNumber;
      });
    });
  }

  /**
   * This session's ephemeral nodes whose path starts with `prefix` (a plain string prefix, default `/`:
   * all of them). With a chroot, only nodes inside it, as client paths.
   */
  getEphemerals(prefix = '/', options: CallOptions = {}): Promise<string[]> {
    return guard(() => {
      if (typeof prefix !== 'string' || !prefix.startsWith('/')) {
        throw clientError('BAD_ARGUMENT', 'prefix must start with "/"', { op: 'getEphemerals', path: String(prefix) });
      }
      const serverPrefix = prefix === '/' ? (this.chroot.root ?? '/') : this.chroot.toServer(prefix);
      return this.send('getEphemerals', prefix, OpCode.getEphemerals, { prefixPath: serverPrefix }, options, (reply) => {
        ZooKeeperClient.ok(reply, 'getEphemerals', prefix);
        const paths = (reply.body as { ephemerals: string[] | null }).ephemerals ?? [];
        return paths.filter((p) => this.chroot.contains(p)).map((p) => this.chroot.toClient(p));
      });
    });
  }

  /** Waits until the server we are connected to has caught up with the leader. */
  sync(path: string, options: CallOptions = {}): Promise<void> {
    return guard(() => {
      validatePath(path, 'sync');
      return this.send('sync', path, OpCode.sync, { path: this.chroot.toServer(path) }, options, (reply) =>
        ZooKeeperClient.ok(reply, 'sync', path),
      );
    });
  }

  /**
   * Runs write ops atomically. Resolves with one result per op; if any op fails, nothing is applied and
   * the promise rejects with the failing op's code, `results` holding every op's outcome.
   */
  multi(ops: readonly WriteOp[], options: CallOptions = {}): Promise<OpResult[]> {
    return guard(() => {
      const body = encodeMulti('write', ops, this.chroot, (d, op, p) => this.data(d, op, p), this.defaultAcl);
      return this.send('multi', undefined, OpCode.multi, body, options, (reply) => {
        ZooKeeperClient.ok(reply, 'multi', undefined);
        const results = multiResults(reply.body, this.chroot);
        const failed = results.findIndex((r) => r.type === 'error' && r.errno !== 0);
        if (failed >= 0) {
          const r = results[failed] as { errno: number };
          const base = errorFromServer(r.errno, 'multi', ops[failed]?.path);
          throw new ZooKeeperError(base.code, `${base.message} (op ${failed})`, {
            errno: r.errno,
            op: 'multi',
            ...(ops[failed] === undefined ? {} : { path: ops[failed].path }),
            results,
          });
        }
        return results;
      });
    });
  }

  /** Runs getData/getChildren ops in one round trip; each op succeeds or fails on its own. */
  multiRead(ops: readonly ReadOp[], options: CallOptions = {}): Promise<OpResult[]> {
    return guard(() => {
      const body = encodeMulti('read', ops, this.chroot, (d, op, p) => this.data(d, op, p), this.defaultAcl);
      return this.send('multiRead', undefined, OpCode.multiRead, body, options, (reply) => {
        ZooKeeperClient.ok(reply, 'multiRead', undefined);
        return multiResults(reply.body, this.chroot);
      });
    });
  }

  // ---- auth ------------------------------------------------------------------------------------------

  /**
   * Adds credentials to this session (and every later connection of it), e.g. `addAuth('digest',
   * 'user:password')`. AUTHFAILED ends the session: the server closes the connection.
   */
  addAuth(scheme: string, auth: Data, options: CallOptions = {}): Promise<void> {
    return guard(() => {
      if (typeof scheme !== 'string' || scheme === '') throw clientError('BAD_ARGUMENT', 'scheme must be a non-empty string', { op: 'addAuth' });
      if (options.signal?.aborted === true) throw clientError('ABORTED', 'aborted before sending', { op: 'addAuth' });
      return this.session.addAuth(scheme, toBytes(auth, 'addAuth'));
    });
  }

  /** The identities this connection is authenticated as (ZooKeeper 3.7+). */
  whoAmI(options: CallOptions = {}): Promise<ClientIdentity[]> {
    return guard(() =>
      this.send('whoAmI', undefined, OpCode.whoAmI, undefined, options, (reply) => {
        ZooKeeperClient.ok(reply, 'whoAmI', undefined);
        const infos = (reply.body as { clientInfo: ClientInfo[] | null }).clientInfo ?? [];
        return infos.map((i) => ({ scheme: i.authScheme ?? '', user: i.user ?? '' }));
      }),
    );
  }

  // ---- watches ---------------------------------------------------------------------------------------

  /**
   * Adds a persistent watch (events for the node itself) or a persistent-recursive one (the node and all
   * descendants, no NodeChildrenChanged). Iterate the handle for events; dispose it to remove the watch.
   */
  addWatch(path: string, options: CallOptions & { mode?: AddWatchMode } = {}): Promise<PersistentWatch> {
    return guard(() => {
      validatePath(path, 'addWatch');
      const mode = options.mode ?? 'persistent';
      if (mode !== 'persistent' && mode !== 'persistent-recursive') {
        throw clientError('BAD_ARGUMENT', `unknown watch mode "${String(mode)}"`, { op: 'addWatch', path });
      }
      const server = this.chroot.toServer(path);
      const kind: WatchKind = mode === 'persistent' ? 'persistent' : 'persistentRecursive';
      const wireMode = mode === 'persistent' ? WireAddWatchMode.Persistent : WireAddWatchMode.PersistentRecursive;
      return this.send('addWatch', path, OpCode.addWatch, { path: server, mode: wireMode }, options, (reply) => {
        ZooKeeperClient.ok(reply, 'addWatch', path);
        const handle: PersistentWatch = new PersistentWatch(path, mode, this.mapEvent, () => this.dropWatch(kind, server, handle));
        this.session.watches.add(kind, server, handle.watcher);
        return handle;
      });
    });
  }

  /** Forgets a persistent watcher; removes the server watch when nothing else local needs it. */
  private async dropWatch(kind: WatchKind, server: string, handle: PersistentWatch): Promise<void> {
    this.session.watches.remove(kind, server, handle.watcher);
    if (this.session.watches.has(server)) return;
    // Only on a live link: after a reconnect the watch is simply not re-armed, and a removal queued across
    // a reconnect could hit a watch added meanwhile.
    if (this.state !== 'connected' && this.state !== 'connected-read-only') return;
    try {
      await this.send('addWatch', server, OpCode.removeWatches, { path: server, type: WatcherType.Any }, {}, () => undefined);
    } catch {
      // Best effort: the session may be closing or the link dropping; either way the watch is gone.
    }
  }

  /**
   * Removes the watches of a kind on a node, on the server and locally. Local one-shot watches get a
   * DataWatchRemoved / ChildWatchRemoved event, persistent handles PersistentWatchRemoved (and end).
   * NOWATCHER when the server has none.
   */
  removeWatches(path: string, type: RemoveWatchType, options: CallOptions = {}): Promise<void> {
    return guard(() => {
      validatePath(path, 'removeWatches');
      const server = this.chroot.toServer(path);
      const wire = watcherType(type, 'removeWatches', path);
      return this.send('removeWatches', path, OpCode.removeWatches, { path: server, type: wire }, options, (reply) => {
        ZooKeeperClient.ok(reply, 'removeWatches', path);
        const watches = this.session.watches;
        const notify = (kinds: WatchKind[], eventType: WatchEvent['type']): void => {
          for (const w of watches.take(server, kinds)) w({ type: eventType, state: 'SyncConnected', path: server });
        };
        if (type !== 'data') notify(['child'], 'ChildWatchRemoved');
        if (type !== 'children') notify(['data', 'exist'], 'DataWatchRemoved');
        if (type === 'any') notify(['persistent', 'persistentRecursive'], 'PersistentWatchRemoved');
      });
    });
  }

  /** Whether the server holds a watch of that kind on the node for this session. */
  checkWatches(path: string, type: RemoveWatchType, options: CallOptions = {}): Promise<boolean> {
    return guard(() => {
      validatePath(path, 'checkWatches');
      const body = { path: this.chroot.toServer(path), type: watcherType(type, 'checkWatches', path) };
      return this.send('checkWatches', path, OpCode.checkWatches, body, options, (reply) => {
        if (reply.err === ErrorCode.NOWATCHER) return false;
        ZooKeeperClient.ok(reply, 'checkWatches', path);
        return true;
      });
    });
  }

  // ---- helpers users expect --------------------------------------------------------------------------

  /**
   * Creates `path` and any missing ancestors (persistent, or containers with `containers: true`), in one
   * pipelined round trip; existing nodes are left alone. Only the last node gets `data`.
   */
  mkdirp(path: string, options: MkdirpOptions = {}): Promise<void> {
    return guard(() => {
      // Checked up front: the parents are queued before the last node, and must not go out if it cannot.
      if (options.data !== undefined) this.data(options.data, 'mkdirp', path);
      if (options.acl !== undefined) checkAcl(options.acl, 'mkdirp', path);
      return mkdirp(this, path, options);
    });
  }

  /** Deletes `path` and everything below it; a missing node is not an error. */
  deleteRecursive(path: string, options: CallOptions = {}): Promise<void> {
    return deleteRecursive(this, path, options);
  }
}

function watcherType(type: RemoveWatchType, op: string, path: string): number {
  switch (type) {
    case 'children':
      return WatcherType.Children;
    case 'data':
      return WatcherType.Data;
    case 'any':
      return WatcherType.Any;
    default:
      throw clientError('BAD_ARGUMENT', `unknown watcher type "${String(type)}"`, { op, path });
  }
}

export type { OpResult, ReadOp, WriteOp } from './client/multi.js';
