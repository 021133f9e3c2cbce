/**
 * CuratorCache: a local copy of a node, or of a whole tree, kept current from the server, with Curator's events
 * (NODE_CREATED, NODE_CHANGED, NODE_DELETED, and INITIALIZED once the first full load is in), and two of its own
 * that say when the copy may lag the server (STALE) and when it is current again (RESYNCED).
 *
 * How it stays right:
 *  - One persistent recursive watch (addWatch) is set before anything is read, so no change can slip between the
 *    load and the watch. Against a server without persistent watches (ZooKeeper 3.5), or with
 *    `watchMode: 'one-shot'`, it falls back on a data and a child watch per node, re-armed as they fire, and gives
 *    the same events.
 *  - Every read (load, event, resync) is sent the moment it is decided on and applied strictly in the order sent.
 *    A session's replies come back in that order and each reflects the server at or after the previous one, so
 *    the cache only ever moves forward, and events come out in the server's order.
 *  - A node is "changed" when its mzxid grew and "replaced" when its czxid differs: never by version alone, so a
 *    delete and re-create (version back to 0) is seen as NODE_DELETED then NODE_CREATED (CURATOR-391).
 *  - A persistent watch is re-added after a reconnect but the server does not replay what it missed, so after every
 *    reconnect the tree is walked again and nodes not seen on the walk are deleted from the cache.
 *  - It never serves stale data without saying so. Once loaded, the cache is STALE from the moment the client is
 *    SUSPENDED (link down, or read-only) or LOST (session expired, client ended) until the walk that follows the
 *    reconnection has finished; then it emits RESYNCED. In between it emits exactly the differences the walk found
 *    (NODE_CHANGED, NODE_DELETED, NODE_CREATED for what changed, went and came while it was not looking), never a
 *    replay of the whole tree. STALE and RESYNCED alternate, STALE first; `stale` tells the same at any moment.
 *  - Across a session expiry (the client opens a new session by itself) the cache goes on: the persistent watch is
 *    carried to the new session by the client (its Expired marker is only a marker here), one-shot watches of the
 *    old session fire with the expiry and are set again by the walk on the new session (RECONNECTED with
 *    `newSession`); a watch the client could not carry is set up again. Nodes that were ephemeral to the old
 *    session are seen deleted by that walk. Only a client that has ended stops the cache: it then stays STALE, and
 *    a start() still loading rejects with the client's end (SESSIONEXPIRED, CLOSED or AUTHFAILED).
 *  - No limit on the number of children or outstanding reads (Curator's loader used a Phaser, which caps at
 *    65,535 parties: CURATOR-690). A node's children are listed only when its stat says it has some.
 */

import type { ZooKeeperClient } from '../../client.js';
import type { NodeData } from '../../client/types.js';
import type { PersistentWatch } from '../../client/watch-handle.js';
import { isRetryable, isSessionLost, type ZooKeeperError } from '../../errors.js';
import { sleep } from '../retry.js';
import { isConnected, isSessionOver, onConnectionEvent, retryableOn } from '../common/connection.js';
import { badArgument, sessionEnded } from '../common/errors.js';
import { isCode } from '../../errors.js';
import { EventHub, type RecipeEvents } from '../common/event-hub.js';
import { Lifecycle, type RecipeState } from '../common/lifecycle.js';
import { checkRecipePath, joinPath } from '../common/nodes.js';
import { SupervisedLoop, type LoopTurn, type TurnOutcome } from '../common/supervised-loop.js';
import { TreeStore, type ChildData } from './tree-store.js';
import { clockOf, type Clock } from '../../session/clock.js';

export type { ChildData } from './tree-store.js';

/**
 * What listeners and iterators of a CuratorCache hear: Curator's CuratorCacheListener events (NODE_CREATED,
 * NODE_CHANGED, NODE_DELETED, INITIALIZED), named in the one casing every zkwire recipe's events use.
 */
export type CuratorCacheEvent =
  | { readonly type: 'nodeCreated'; readonly node: ChildData }
  | { readonly type: 'nodeChanged'; readonly oldNode: ChildData; readonly node: ChildData }
  | { readonly type: 'nodeDeleted'; readonly oldNode: ChildData }
  | { readonly type: 'initialized' }
  /** The cache may no longer match the server (connection suspended or lost); the node events go on as it catches up. */
  | { readonly type: 'stale' }
  /** The cache matches the server again: the walk after the reconnection is in, its differences emitted before this. */
  | { readonly type: 'resynced' }
  /**
   * A node the cache may not read (NOAUTH; MARSHALLINGERROR for data `compressedData` cannot inflate): left out of
   * the cache (or kept as last read) while the rest loads and is followed, as Curator's cache logs and goes on.
   */
  | { readonly type: 'unreadable'; readonly path: string; readonly error: ZooKeeperError };

/** What a CuratorCache caches and which watches it keeps it current with. */
export interface CuratorCacheOptions {
  /** Cache only the node itself (Curator's SINGLE_NODE_CACHE). Default: the whole tree. */
  readonly singleNode?: boolean;
  /**
   * `auto` (default): a persistent watch, or one-shot watches when the server has no persistent watches;
   * `persistent`: fail without them; `one-shot`: always the one-shot fallback.
   */
  readonly watchMode?: 'auto' | 'persistent' | 'one-shot';
  /**
   * Hand out the nodes' data decompressed (Curator's COMPRESSED_DATA option): read with `decompressed: true`, which
   * needs the client's `compression` option (`compressWith`). Default: as the client reads (its `enabled`).
   */
  readonly compressedData?: boolean;
  /** Timers (tests). */
  readonly clock?: Clock;
}

/**
 * Where a CuratorCache is in its life: `LATENT` constructed, not yet started (empty); `STARTED` from start() on,
 * loading then kept current (complete once start() resolves, i.e. after INITIALIZED); `CLOSED` no longer watched
 * and emptied. A closed cache cannot restart.
 */
export type CuratorCacheState = RecipeState;

type Read<T> = { ok: true; value: T } | { ok: false; error: unknown };

export class CuratorCache implements RecipeEvents<CuratorCacheEvent>, AsyncDisposable {
  readonly #client: ZooKeeperClient;
  readonly #singleNode: boolean;
  readonly #watchMode: 'auto' | 'persistent' | 'one-shot';
  /** getData's options: `decompressed` with the compressedData option. */
  readonly #read: { readonly decompressed?: true };
  readonly #clock: Clock;
  readonly #store = new TreeStore();
  readonly #events = new EventHub<CuratorCacheEvent>();
  readonly #stop = new AbortController();
  readonly #life: Lifecycle;
  #oneShot = false;
  #watch: PersistentWatch | undefined;
  #unsubscribe: () => void = () => undefined;
  /** Applies run strictly in the order their reads were sent. */
  #tail: Promise<void> = Promise.resolve();
  /** Walk round: nodes not seen in the current round's walk are gone. */
  #round = 0;
  #walking = 0;
  /** The latest round one of whose walk reads failed: that round cannot prove what is gone. */
  #failedRound = 0;
  #initialized = false;
  /** The cache may lag the server (see `stale`); true until the first load is in. */
  #stale = true;
  /** The first walk round that can make the cache current again (Infinity while the client is not connected). */
  #resyncFrom = 0;
  readonly #dataWatched = new Set<string>();
  readonly #childWatched = new Set<string>();
  #rootExistsWatched = false;

  constructor(
    client: ZooKeeperClient,
    /** The root of what is cached. */
    readonly path: string,
    options: CuratorCacheOptions = {},
  ) {
    checkRecipePath(path, 'CuratorCache');
    const mode = options.watchMode ?? 'auto';
    if (mode !== 'auto' && mode !== 'persistent' && mode !== 'one-shot') {
      throw badArgument('CuratorCache', path, 'watchMode must be "auto", "persistent" or "one-shot"');
    }
    this.#client = client;
    this.#singleNode = options.singleNode ?? false;
    this.#watchMode = mode;
    this.#read = options.compressedData === true ? { decompressed: true } : {};
    this.#clock = clockOf(options.clock);
    this.#life = new Lifecycle('CuratorCache', path);
  }

  /** `LATENT` before start(), `STARTED` from start() until close(), `CLOSED` after (the cache is then empty). */
  get state(): CuratorCacheState {
    return this.#life.state;
  }

  /**
   * True when what the cache holds may not be what the server holds: before the first load is in, from a STALE
   * event to the next RESYNCED (connection suspended or lost, and the walk after it not finished), and when not
   * started or closed.
   */
  get stale(): boolean {
    return this.#life.state !== 'STARTED' || this.#stale;
  }

  /** True when the cache runs on one-shot watches (the fallback). */
  get usesOneShotWatches(): boolean {
    return this.#oneShot;
  }

  /**
   * Sets the watch and loads the tree; resolves once the initial load is in (`initialized` has been emitted). Rejects
   * with ABORTED on `signal` (the cache keeps starting), with the client's end if it ends first (see
   * common/lifecycle.ts). ILLEGAL_STATE if started already or closed.
   */
  start(options: { readonly signal?: AbortSignal } = {}): Promise<void> {
    return this.#life.start(options.signal, () => this.#startWatching());
  }

  #startWatching(): void {
    this.#unsubscribe = onConnectionEvent(this.#client, (event) => {
      if (event === 'RECONNECTED') {
        // a new session or the same one: either way the watches missed what happened meanwhile; walk again
        this.#resyncFrom = this.#round + 1;
        this.#walk();
        return;
      }
      this.#resyncFrom = Infinity;
      this.#markStale();
      if (event === 'LOST' && isSessionOver(this.#client)) this.#life.fail(sessionEnded(this.#client, 'CuratorCache', this.path));
    });
    this.#setUp();
  }

  /** The cached node at `path`, if any. */
  get(path: string): ChildData | undefined {
    return this.#store.get(path);
  }

  /** How many nodes are cached. */
  size(): number {
    return this.#store.size;
  }

  /** Every cached node (Curator's stream()). */
  stream(): IterableIterator<ChildData> {
    return this.#store.values();
  }

  /** The cached children (full paths) of a cached node. */
  childrenOf(path: string): readonly string[] {
    return this.#store.childrenOf(path);
  }

  addListener(listener: (event: CuratorCacheEvent) => void): () => void {
    return this.#events.subscribe(listener);
  }

  events(options: { signal?: AbortSignal } = {}): AsyncIterable<CuratorCacheEvent> {
    return this.#events.stream(options.signal);
  }

  /** Stops watching and empties the cache. ILLEGAL_STATE unless started. */
  async close(): Promise<void> {
    this.#life.close();
    this.#stop.abort();
    this.#unsubscribe();
    await this.#watch?.close();
    await this.#tail;
    await this.#removeOneShotWatches();
    this.#store.clear();
    this.#events.end();
  }

  /**
   * For `await using`: close() if started (takes its watches off the server, empties the cache, ends the event
   * streams), else just marks it CLOSED.
   */
  async [Symbol.asyncDispose](): Promise<void> {
    if (this.#life.disposing()) await this.close();
  }

  /** Takes back the fallback's pending one-shot watches, so a closed cache leaves nothing on the server. */
  async #removeOneShotWatches(): Promise<void> {
    const paths = new Set([...this.#dataWatched, ...this.#childWatched, ...(this.#rootExistsWatched ? [this.path] : [])]);
    this.#dataWatched.clear();
    this.#childWatched.clear();
    if (paths.size === 0 || !isConnected(this.#client)) return;
    await Promise.all([...paths].map((p) => this.#client.removeWatches(p, 'any').catch(() => undefined)));
  }

  // ---- watching -------------------------------------------------------------------------------------------

  /** Sets the watch up (again, after a persistent watch ended) on a SupervisedLoop, which ends once it is set. */
  #setUp(): void {
    new SupervisedLoop(this.#client, (turn) => this.#begin(turn), {
      clock: this.#clock,
      recipe: 'CuratorCache',
      path: this.path,
      signal: this.#stop.signal,
      onEnd: (err) => this.#life.fail(err),
      // refused for good (NOAUTH, ...): start() hears it; the cache keeps trying, backing off
      onError: (err) => {
        if (!retryableOn(this.#client, err)) this.#life.fail(err);
      },
    }).start();
  }

  /** Sets the watch (persistent, or the one-shot fallback) and starts the walk: the turns of #setUp's loop. */
  async #begin(turn: LoopTurn): Promise<TurnOutcome> {
    if (this.#watchMode !== 'one-shot') {
      try {
        this.#watch = await this.#client.addWatch(this.path, { mode: this.#singleNode ? 'persistent' : 'persistent-recursive' });
      } catch (err) {
        if (this.#watchMode === 'persistent' || !isCode(err, 'UNIMPLEMENTED', 'UNKNOWN_ERROR', 'BADARGUMENTS')) throw err;
      }
    }
    this.#oneShot = this.#watch === undefined;
    if (turn.signal.aborted) {
      await this.#watch?.close();
      return 'done';
    }
    if (this.#watch !== undefined) void this.#follow(this.#watch);
    // connected now: this walk can make the cache current (a later SUSPENDED puts that off again)
    if (isConnected(this.#client)) this.#resyncFrom = this.#round + 1;
    this.#walk();
    return 'done';
  }

  /**
   * Persistent-watch events, in order, each turned into a read of the node it names. The watch goes on across a
   * session expiry (its Expired marker changes nothing here: LOST made the cache stale and the RECONNECTED walk
   * catches up). If it ends while the client goes on (the new session could not take it), it is set up again.
   */
  async #follow(watch: PersistentWatch): Promise<void> {
    for (;;) {
      const event = await watch.next();
      if (this.#stop.signal.aborted) return;
      if (event === undefined) {
        if (this.#watch === watch && !isSessionOver(this.#client)) {
          this.#watch = undefined;
          this.#resyncFrom = Infinity;
          this.#markStale();
          this.#setUp();
        }
        return;
      }
      const p = event.path;
      if (p === undefined) continue; // session events: the connection listener handles them
      if (event.type === 'NodeCreated' || event.type === 'NodeDataChanged' || event.type === 'NodeDeleted') {
        if (!this.#singleNode || p === this.path) this.#refresh(p, false);
      }
    }
  }

  /** Walks the whole cached tree from the root; nodes not seen on the walk are then removed. */
  #walk(): void {
    if (this.#life.state !== 'STARTED') return;
    this.#round++;
    this.#refresh(this.path, true);
  }

  /**
   * Reads `path` now and applies the answer in turn. `walk`: part of a full walk (children listed too, and the read
   * counts towards the walk's end).
   */
  #refresh(path: string, walk: boolean): void {
    const watchData = this.#oneShot && !this.#dataWatched.has(path);
    const read: Promise<NodeData & { watch?: Promise<{ type: string }> }> = watchData
      ? this.#client.getData(path, { ...this.#read, watch: true })
      : this.#client.getData(path, this.#read);
    this.#enqueue(read, walk, (answer, round) => {
      if (!answer.ok) {
        if (isCode(answer.error, 'NONODE')) {
          this.#reconcile(path, undefined);
          if (this.#oneShot && path === this.path) this.#watchRootReturn();
          return;
        }
        if (this.#refused(answer.error, path, round, false)) return;
        return this.#failed(answer.error, walk, round);
      }
      const { data, stat, watch } = answer.value;
      if (watch !== undefined) {
        this.#dataWatched.add(path);
        void watch.then((event) => {
          this.#dataWatched.delete(path);
          if (this.#life.state === 'STARTED' && (event.type === 'NodeDataChanged' || event.type === 'NodeDeleted')) this.#refresh(path, false);
        });
      }
      const replaced = this.#reconcile(path, { path, stat, data });
      if (this.#singleNode) return;
      // a walk lists what has children; the fallback lists every node (that arms its child watch); a node that
      // came back as a new incarnation has new children to find
      if ((walk && stat.numChildren > 0) || (this.#oneShot && !this.#childWatched.has(path)) || (replaced && stat.numChildren > 0)) {
        this.#list(path, walk);
      }
    });
  }

  /** Lists `path`'s children: reads the ones not cached (or all, in a walk) and drops cached ones that are gone. */
  #list(path: string, walk: boolean): void {
    const watchChildren = this.#oneShot && !this.#childWatched.has(path);
    const read: Promise<string[] | { children: string[]; watch: Promise<{ type: string }> }> = watchChildren
      ? this.#client.getChildren(path, { watch: true })
      : this.#client.getChildren(path);
    this.#enqueue(read, walk, (answer, round) => {
      if (!answer.ok) {
        if (isCode(answer.error, 'NONODE')) return; // the node's own read reports the deletion
        if (this.#refused(answer.error, path, round, true)) return;
        return this.#failed(answer.error, walk, round);
      }
      const value = answer.value;
      const names = Array.isArray(value) ? value : value.children;
      if (!Array.isArray(value)) {
        this.#childWatched.add(path);
        void value.watch.then((event) => {
          this.#childWatched.delete(path);
          if (this.#life.state === 'STARTED' && event.type === 'NodeChildrenChanged') this.#list(path, false);
        });
      }
      const present = new Set(names.map((name) => joinPath(path, name)));
      for (const child of present) if (walk || this.#store.get(child) === undefined) this.#refresh(child, walk);
      for (const cached of this.#store.childrenOf(path)) if (!present.has(cached)) this.#reconcile(cached, undefined);
    });
  }

  /** One-shot fallback: the root is gone; an exists watch tells us when it is back. */
  #watchRootReturn(): void {
    if (this.#rootExistsWatched) return;
    this.#rootExistsWatched = true;
    const read = this.#client.exists(this.path, { watch: true });
    this.#enqueue(read, false, (answer, round) => {
      if (!answer.ok) {
        this.#rootExistsWatched = false;
        return this.#failed(answer.error, false, round);
      }
      void answer.value.watch.then(() => {
        this.#rootExistsWatched = false;
        if (this.#life.state === 'STARTED') this.#refresh(this.path, true);
      });
      if (answer.value.stat !== null) this.#refresh(this.path, true);
    });
  }

  #enqueue<T>(read: Promise<T>, walk: boolean, apply: (answer: Read<T>, round: number) => void): void {
    if (walk) this.#walking++;
    const round = this.#round;
    const settled = read.then(
      (value): Read<T> => ({ ok: true, value }),
      (error: unknown): Read<T> => ({ ok: false, error }),
    );
    this.#tail = this.#tail.then(async () => {
      const answer = await settled;
      if (this.#life.state !== 'STARTED') return;
      try {
        apply(answer, round);
      } finally {
        if (walk && --this.#walking === 0) this.#walkDone();
      }
    });
  }

  /**
   * A refusal about the node itself (not the link, not the session's end), which no retry changes: reported, and
   * what is cached of it (its children, for a listing) counts as seen, so the walk completes without it.
   */
  #refused(error: unknown, path: string, round: number, children: boolean): boolean {
    if (isRetryable(error) || isSessionLost(error) || !(error instanceof Error) || !('code' in error)) return false;
    const keep = (p: string): void => {
      this.#store.touch(p, round);
      for (const kid of this.#store.childrenOf(p)) keep(kid);
    };
    if (children) for (const kid of this.#store.childrenOf(path)) keep(kid);
    else this.#store.touch(path, round);
    this.#events.emit({ type: 'unreadable', path, error: error as ZooKeeperError });
    return true;
  }

  #failed(error: unknown, walk: boolean, round: number): void {
    if (walk) this.#failedRound = Math.max(this.#failedRound, round);
    // a broken link: the reconnect walks again. A push-back on a live link: walk again shortly.
    if (isRetryable(error) && isConnected(this.#client)) {
      void sleep(100, this.#clock, this.#stop.signal).then(
        () => this.#walk(),
        () => undefined,
      );
    }
  }

  #walkDone(): void {
    if (this.#failedRound >= this.#round) return;
    for (const path of this.#store.unseenSince(this.#round)) this.#reconcile(path, undefined);
    // current only if this walk started after the latest reconnection (no SUSPENDED or LOST since)
    const current = this.#round >= this.#resyncFrom;
    if (!this.#initialized) {
      this.#initialized = true;
      this.#stale = !current;
      this.#events.emit({ type: 'initialized' });
      this.#life.ready();
      if (this.#stale) this.#events.emit({ type: 'stale' });
    } else if (this.#stale && current) {
      this.#stale = false;
      this.#events.emit({ type: 'resynced' });
    }
  }

  /** The cache may lag the server from now on; says so once (after the first load: before it, nothing was claimed). */
  #markStale(): void {
    if (this.#stale) return;
    this.#stale = true;
    this.#events.emit({ type: 'stale' });
  }

  /** Brings the cached `path` in line with an answer from the server. Returns true when the node was replaced. */
  #reconcile(path: string, node: ChildData | undefined): boolean {
    const old = this.#store.get(path);
    if (node === undefined) {
      if (old !== undefined) for (const gone of this.#store.removeSubtree(path)) this.#events.emit({ type: 'nodeDeleted', oldNode: gone });
      return false;
    }
    const isRoot = path === this.path;
    if (old === undefined) {
      this.#store.put(node, this.#round, isRoot);
      this.#events.emit({ type: 'nodeCreated', node });
      return false;
    }
    if (old.stat.czxid !== node.stat.czxid) {
      // deleted and created again while we were not looking (CURATOR-391)
      for (const gone of this.#store.removeSubtree(path)) this.#events.emit({ type: 'nodeDeleted', oldNode: gone });
      this.#store.put(node, this.#round, isRoot);
      this.#events.emit({ type: 'nodeCreated', node });
      return true;
    }
    if (node.stat.mzxid > old.stat.mzxid) {
      this.#store.put(node, this.#round, isRoot);
      this.#events.emit({ type: 'nodeChanged', oldNode: old, node });
    } else if (node.stat.pzxid > old.stat.pzxid) {
      this.#store.put(node, this.#round, isRoot); // only its children changed: fresher stat, no event (as Curator)
    } else {
      this.#store.touch(path, this.#round);
    }
    return false;
  }
}
