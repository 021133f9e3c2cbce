/**
 * PersistentNode: Curator's persistent node, a node this process keeps present: created at start (any create mode,
 * optionally protected, parents as containers), created again whenever it disappears (deleted by someone, its
 * ephemeral lost with a session), and given the latest data set here. Deleted on close.
 *
 * One loop makes every decision: watch our node; on any wake-up (the watch, a reconnect) look again; recreate only
 * when our node is gone or (for an ephemeral) belongs to another session. A protected sequential create whose reply
 * is lost is found again by its `_c_<uuid>-` prefix, never duplicated.
 *
 * Across a session expiry the node carries on: an ephemeral node went with the old session (listeners hear
 * `nodeDeleted` at LOST) and is created again on the client's new session; a persistent one is checked again there.
 * Only the client's end (closed, auth failed, or an expiry with `renewSession: false`) stops it. A failure that is not
 * the connection's (NOAUTH, INVALIDACL, UNIMPLEMENTED) is reported as an `error` event and retried with a back-off;
 * if it comes before the node was first created, start() rejects with it (waitForInitialCreate() goes on waiting
 * for its deadline).
 *
 * close() stops a create in flight (what it may have made is deleted in the background) and deletes our node:
 * awaited while the link answers, left to the background once it is down, so close() settles promptly with the
 * client disconnected (`cleanupsSettled(client)` waits for those deletes).
 */

import type { ZooKeeperClient } from '../../client.js';
import type { CreateMode } from '../../client/create-mode.js';
import type { Data, Stat } from '../../client/types.js';
import { utf8Encode } from '../../protocol/utf8.js';
import { onConnectionEvent } from '../common/connection.js';
import { Deadline, deadlineOutcome, eventOrDeadline, type WaitOptions } from '../common/deadline.js';
import { badArgument, illegalState } from '../common/errors.js';
import { SupervisedLoop, type TurnOutcome } from '../common/supervised-loop.js';
import { isCode } from '../../errors.js';
import { EventHub, type RecipeEvents } from '../common/event-hub.js';
import { Lifecycle, type RecipeState } from '../common/lifecycle.js';
import { checkRecipePath, ensureContainers, NodeOps, nodeName, parentPath } from '../common/nodes.js';
import { clockOf, type Clock } from '../../session/clock.js';

/** What kind of node a PersistentNode keeps present. */
export interface PersistentNodeOptions {
  /** The node's create mode (any, including sequential, container and ttl modes). Default `ephemeral`. */
  readonly mode?: CreateMode;
  /** Protected names (`_c_<uuid>-…`) for sequential modes, so a create whose reply is lost is found again. Default true for sequential modes. */
  readonly useProtection?: boolean;
  /** Required for the ttl modes. */
  readonly ttlMs?: number;
  /** Timers (tests). */
  readonly clock?: Clock;
}

/**
 * Where a PersistentNode is in its life: `LATENT` constructed, nothing created yet; `STARTED` from start() on, the
 * node created and recreated whenever it goes (see waitForInitialCreate() for when it first exists); `CLOSED` no
 * longer kept, our node deleted. A closed node cannot restart.
 */
export type PersistentNodeState = RecipeState;

/** What listeners and iterators of a PersistentNode hear. */
export type PersistentNodeEvent =
  | { readonly type: 'nodeCreated'; readonly path: string }
  | { readonly type: 'nodeDeleted'; readonly path: string }
  /** Keeping the node failed for a reason other than the connection (NOAUTH, say); retried with a back-off. */
  | { readonly type: 'error'; readonly error: unknown };

const SEQUENTIAL: ReadonlySet<CreateMode> = new Set<CreateMode>(['persistent-sequential', 'ephemeral-sequential', 'ttl-sequential']);
const EPHEMERAL: ReadonlySet<CreateMode> = new Set<CreateMode>(['ephemeral', 'ephemeral-sequential']);
const TTL: ReadonlySet<CreateMode> = new Set<CreateMode>(['ttl', 'ttl-sequential']);

export class PersistentNode implements RecipeEvents<PersistentNodeEvent>, AsyncDisposable {
  readonly #client: ZooKeeperClient;
  readonly #ops: NodeOps;
  readonly #mode: CreateMode;
  readonly #protected: boolean;
  readonly #ttlMs: number | undefined;
  readonly #clock: Clock;
  readonly #events = new EventHub<PersistentNodeEvent>();
  readonly #loop: SupervisedLoop;
  readonly #life: Lifecycle;
  #data: Uint8Array;
  /** The data last written to (or created in) the node. */
  #written: Uint8Array | undefined;
  #actualPath: string | undefined;
  #watching: string | undefined;
  #unsubscribe: () => void = () => undefined;
  readonly #created = new EventHub<void>();

  constructor(
    client: ZooKeeperClient,
    /** The node's path (for sequential modes, the prefix the server appends a sequence to). */
    readonly basePath: string,
    data: Data = new Uint8Array(0),
    options: PersistentNodeOptions = {},
  ) {
    checkRecipePath(basePath, 'PersistentNode');
    this.#life = new Lifecycle('PersistentNode', basePath);
    const mode = options.mode ?? 'ephemeral';
    if (!['persistent', 'ephemeral', 'persistent-sequential', 'ephemeral-sequential', 'container', 'ttl', 'ttl-sequential'].includes(mode)) {
      throw badArgument('PersistentNode', basePath, `unknown create mode ${String(mode)}`);
    }
    if (TTL.has(mode) !== (options.ttlMs !== undefined) || (options.ttlMs !== undefined && !(options.ttlMs > 0))) {
      throw badArgument('PersistentNode', basePath, 'ttlMs (> 0) goes with the ttl modes, and only with them');
    }
    this.#client = client;
    this.#mode = mode;
    this.#protected = SEQUENTIAL.has(mode) && (options.useProtection ?? true);
    this.#ttlMs = options.ttlMs;
    this.#clock = clockOf(options.clock);
    this.#ops = new NodeOps(client, { clock: this.#clock });
    this.#data = typeof data === 'string' ? utf8Encode(data) : data.slice();
    this.#loop = new SupervisedLoop(client, () => this.#turn(), {
      clock: this.#clock,
      recipe: 'PersistentNode.start',
      path: basePath,
      onError: (err) => {
        this.#events.emit({ type: 'error', error: err });
        // never created yet: start() says why now rather than never (the loop goes on trying)
        this.#life.fail(err);
      },
      onEnd: (err) => this.#life.fail(err),
    });
  }

  /** `LATENT` before start(), `STARTED` while the node is kept present, `CLOSED` after close() or disposal. */
  get state(): PersistentNodeState {
    return this.#life.state;
  }

  /**
   * Starts keeping the node present, in the background; the promise resolves once it has been created (as
   * waitForInitialCreate()); awaiting it is optional (see common/lifecycle.ts for how it rejects). ILLEGAL_STATE if
   * started already or closed.
   */
  start(options: { readonly signal?: AbortSignal } = {}): Promise<void> {
    return this.#life.start(options.signal, () => {
      this.#unsubscribe = onConnectionEvent(this.#client, (event) => {
        if (event === 'LOST') this.#sessionLost();
        this.#loop.wake();
      });
      this.#loop.start();
    });
  }

  /** The node's full path while it exists (with its sequence for sequential modes). */
  getActualPath(): string | undefined {
    return this.#actualPath;
  }

  /** The data the node is kept at. */
  getData(): Uint8Array {
    return this.#data.slice();
  }

  /** Changes the node's data: written now if the node exists, else when it is created. Resolves once written. */
  async setData(data: Data): Promise<void> {
    this.#life.requireStarted('setData');
    this.#data = typeof data === 'string' ? utf8Encode(data) : data.slice();
    const target = this.#data;
    this.#loop.wake();
    // resolves when the loop has written (or created with) this data, or a later one
    await new Promise<void>((resolve, reject) => {
      const check = (): boolean => {
        if (this.#written === target || this.#data !== target) resolve();
        else if (this.#life.state !== 'STARTED') reject(illegalState('PersistentNode.setData', this.basePath, 'closed before the data was written'));
        else return false;
        unsubscribe();
        return true;
      };
      const unsubscribe = this.#created.subscribe(() => void check());
      check();
    });
  }

  /** Waits until the node has been created once: true then, false after `timeoutMs`; ABORTED on `signal`. */
  async waitForInitialCreate(options: WaitOptions = {}): Promise<boolean> {
    if (this.#life.state === 'LATENT') throw illegalState('PersistentNode.waitForInitialCreate', this.basePath, 'not started');
    using deadline = new Deadline(options, 'PersistentNode.waitForInitialCreate', this.basePath, this.#clock);
    for (;;) {
      if (this.#actualPath !== undefined) return true;
      if (this.#life.state !== 'STARTED') throw illegalState('PersistentNode.waitForInitialCreate', this.basePath, 'closed');
      if (deadline.stopped) return deadlineOutcome(deadline, 'PersistentNode.waitForInitialCreate');
      let unsubscribe!: () => void;
      const next = new Promise<void>((resolve) => (unsubscribe = this.#created.subscribe(resolve)));
      try {
        if (!(await eventOrDeadline(next, deadline, 'PersistentNode.waitForInitialCreate'))) return false;
      } finally {
        unsubscribe();
      }
    }
  }

  addListener(listener: (event: PersistentNodeEvent) => void): () => void {
    return this.#events.subscribe(listener);
  }

  events(options: { signal?: AbortSignal } = {}): AsyncIterable<PersistentNodeEvent> {
    return this.#events.stream(options.signal);
  }

  /**
   * Stops keeping the node (a create in flight is stopped) and deletes it: resolves once it is deleted, or at once
   * when the client is disconnected, the delete then going on in the background after every reconnect until the
   * node is gone (an ephemeral: or its session has ended). ILLEGAL_STATE unless started.
   */
  async close(): Promise<void> {
    this.#life.close();
    const stopping = this.#loop.stop();
    this.#unsubscribe();
    this.#created.emit();
    await stopping;
    try {
      const path = this.#actualPath;
      if (path !== undefined) {
        await this.#ops.deleteOnClose(path, { outlivesSession: !EPHEMERAL.has(this.#mode) });
        this.#gone(path);
      }
    } finally {
      this.#actualPath = undefined;
      this.#events.end();
      this.#created.end();
    }
  }

  /** For `await using`: close() if started (stops keeping the node and deletes it), else just marks it CLOSED. */
  async [Symbol.asyncDispose](): Promise<void> {
    if (this.#life.disposing()) await this.close();
  }

  /** The session expired: its watch is gone, and so is our node if it was ephemeral. */
  #sessionLost(): void {
    this.#watching = undefined;
    if (this.#actualPath !== undefined && EPHEMERAL.has(this.#mode)) this.#gone(this.#actualPath);
  }

  #gone(path: string): void {
    if (this.#actualPath !== path) return;
    this.#actualPath = undefined;
    this.#written = undefined;
    this.#events.emit({ type: 'nodeDeleted', path });
  }

  /** One turn of the loop (common/supervised-loop.ts): create the node, or check the one we have; then wait. */
  async #turn(): Promise<TurnOutcome> {
    if (this.#actualPath === undefined) await this.#create(this.#client);
    else await this.#check(this.#client, this.#actualPath);
    return 'wait';
  }

  /** Our node exists (and is ours): bring its data up to date and watch it. Else forget it. */
  async #check(client: ZooKeeperClient, path: string): Promise<void> {
    const watch = this.#watching !== path;
    const stat = watch ? await this.#statWatched(client, path) : await client.exists(path, { signal: this.#loop.signal });
    if (stat === null) {
      this.#gone(path);
      this.#loop.wake();
      return;
    }
    // another session's ephemeral on our path (an earlier session of ours not yet expired, or someone else): wait
    // on the watch for it to go, then create ours
    if (EPHEMERAL.has(this.#mode) && stat.ephemeralOwner !== client.sessionId) return;
    await this.#writeData(client, path, stat.version);
  }

  async #writeData(client: ZooKeeperClient, path: string, version: number): Promise<void> {
    const data = this.#data;
    if (this.#written === data) return;
    try {
      await client.setData(path, data, { version, signal: this.#loop.signal });
      this.#written = data;
      this.#created.emit();
    } catch (err) {
      if (isCode(err, 'BADVERSION', 'NONODE')) this.#loop.wake(); // someone else wrote, or it went: look again
      else throw err;
    }
  }

  async #statWatched(client: ZooKeeperClient, path: string): Promise<Stat | null> {
    const { stat, watch } = await client.exists(path, { watch: true, signal: this.#loop.signal });
    this.#watching = path;
    void watch.then((event) => {
      if (this.#watching === path) this.#watching = undefined;
      if (event.type === 'NodeDeleted') this.#gone(path);
      this.#loop.wake();
    });
    return stat;
  }

  async #create(client: ZooKeeperClient): Promise<void> {
    const data = this.#data;
    const stop = this.#loop.signal;
    const options = { mode: this.#mode, signal: stop, ...(this.#ttlMs === undefined ? {} : { ttl: this.#ttlMs }) };
    let path: string;
    if (this.#protected) {
      // close() stops a create in flight: NodeOps finds what it may have made by the prefix and deletes it
      const made = await this.#ops.createProtected(parentPath(this.basePath), nodeName(this.basePath), data, stop, { mode: this.#mode, ttlMs: this.#ttlMs });
      path = made.path;
    } else {
      try {
        path = await client.create(this.basePath, data, options);
      } catch (err) {
        // stopped with its outcome unknown: a node at our (known) path is deleted in the background, if ours
        if (isCode(err, 'ABORTED') && !SEQUENTIAL.has(this.#mode)) void this.#ops.deleteIfCreated(this.basePath, EPHEMERAL.has(this.#mode));
        if (isCode(err, 'NONODE')) {
          await ensureContainers(client, parentPath(this.basePath), stop);
          this.#loop.wake();
          return;
        }
        if (!isCode(err, 'NODEEXISTS') || SEQUENTIAL.has(this.#mode)) throw err;
        // already there (ours from before a lost reply, or someone else's): take it over, as Curator does, and
        // watch it; if it is another session's ephemeral, it goes with that session and we create ours then
        path = this.basePath;
        this.#actualPath = path;
        this.#written = undefined;
        this.#life.ready();
        this.#loop.wake();
        return;
      }
    }
    this.#actualPath = path;
    this.#written = data;
    this.#events.emit({ type: 'nodeCreated', path });
    this.#created.emit();
    this.#life.ready();
    // deleted already (before the watch was set): create again
    if ((await this.#statWatched(client, path)) === null) {
      this.#gone(path);
      this.#loop.wake();
    }
  }
}
