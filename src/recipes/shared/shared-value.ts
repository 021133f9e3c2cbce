/**
 * SharedValue: Curator's shared value, one persistent node whose data every client sees and may replace,
 * unconditionally (setValue) or only if nobody wrote since a version was read (trySetValue). The node is created
 * with the seed value if missing (its parents as containers), as Curator does, so a Curator client and a zkwire
 * client on one path share the value and its versions.
 *
 * A single loop keeps the local copy current: a data watch re-armed after every event, a fresh read after every
 * reconnect, and, while the node is missing, an exists watch for its return. Reads are ordered by mzxid, never by
 * version (versions wrap and restart: see versioned.ts), so the local copy never goes backwards and never sticks.
 *
 * Across a session expiry (the client opens a new session by itself) the value carries on: the old session's data
 * watch fires with the expiry, and the value is read again, with a new watch, on the new session (RECONNECTED with
 * `newSession`). If it changed meanwhile, listeners hear one valueChanged with the latest value (not one per write
 * missed), after connectionStateChanged LOST and RECONNECTED. A setValue or trySetValue that was on the wire at
 * the expiry rejects with its error (CONNECTIONLOSS or SESSIONEXPIRED: it may or may not have been applied); one
 * made afterwards waits for the new session. start() waits through an expiry too. Only when the client has ended
 * (closed, refused, or renewal off) does the value stop following; getValue() then keeps the last value known.
 */

import type { ZooKeeperClient } from '../../client.js';
import type { Stat } from '../../client/types.js';
import { sameBytes } from '../../protocol/bytes.js';
import { utf8Encode } from '../../protocol/utf8.js';
import { onConnectionEvent, type RecipeConnectionEvent, retryableOn } from '../common/connection.js';
import { SupervisedLoop, type LoopTurn, type TurnOutcome } from '../common/supervised-loop.js';
import { badArgument, illegalState } from '../common/errors.js';
import { isCode } from '../../errors.js';
import { EventHub, type RecipeEvents } from '../common/event-hub.js';
import { Lifecycle, type RecipeState } from '../common/lifecycle.js';
import { checkRecipePath, ensureContainers, parentPath } from '../common/nodes.js';
import { supersedes, type ValueStamp, type VersionedValue } from './versioned.js';
import { clockOf, type Clock } from '../../session/clock.js';

/**
 * Where a SharedValue (or SharedCount) is in its life: `LATENT` constructed, not yet started; `STARTED` from the
 * call to start() (the value is readable once start() resolves) and kept current; `CLOSED` no longer watched
 * (closed, disposed, or start() failed). A closed value cannot restart.
 */
export type SharedValueState = RecipeState;

/** What listeners and iterators of a SharedValue hear. */
export type SharedValueEvent =
  | { readonly type: 'valueChanged'; readonly value: VersionedValue<Uint8Array> }
  | { readonly type: 'connectionStateChanged'; readonly event: RecipeConnectionEvent };

/** How a SharedValue (or SharedCount) runs; only its timers, for tests. */
export interface SharedValueOptions {
  /** Timers (tests). */
  readonly clock?: Clock;
}

interface Current extends ValueStamp {
  readonly value: Uint8Array;
}


function toData(value: Uint8Array | string, what: string, path: string): Uint8Array {
  if (typeof value === 'string') return utf8Encode(value);
  if (!(value instanceof Uint8Array)) throw badArgument(what, path, 'the value must be a Uint8Array or a string');
  return value.slice();
}

export class SharedValue implements RecipeEvents<SharedValueEvent>, AsyncDisposable {
  readonly #client: ZooKeeperClient;
  readonly #seed: Uint8Array;
  readonly #clock: Clock;
  readonly #events = new EventHub<SharedValueEvent>();
  readonly #loop: SupervisedLoop;
  readonly #life: Lifecycle;
  #current: Current | undefined;
  #watchPending = false;
  #refresh = false;
  #unsubscribe: () => void = () => undefined;

  constructor(
    client: ZooKeeperClient,
    /** The node holding the value. */
    readonly path: string,
    /** Written when the node does not exist yet. */
    seedValue: Uint8Array | string,
    options: SharedValueOptions = {},
  ) {
    checkRecipePath(path, 'SharedValue');
    this.#life = new Lifecycle('SharedValue', path);
    this.#client = client;
    this.#seed = toData(seedValue, 'SharedValue', path);
    this.#clock = clockOf(options.clock);
    this.#loop = new SupervisedLoop(client, (turn) => this.#turn(turn), {
      clock: this.#clock,
      recipe: 'SharedValue.start',
      path,
      // a broken link or an expired session: read again once connected (the new session's, after an expiry)
      onFailure: (err) => {
        if (retryableOn(client, err)) this.#refresh = true;
      },
      // a start that fails for good (NOAUTH, the client ended) leaves the value CLOSED; later failures back off
      onError: (err) => {
        if (this.#current === undefined && !retryableOn(client, err)) this.#endStart(err);
      },
      onEnd: (err) => {
        if (this.#current === undefined) this.#endStart(err);
      },
    });
  }

  /** `LATENT` before start(), `STARTED` from start() until close(), `CLOSED` after (or when start() failed). */
  get state(): SharedValueState {
    return this.#life.state;
  }

  /**
   * Creates the node with the seed value if it is missing, reads the value, and from then on keeps it current. The
   * promise resolves once the first value is known (waiting for a connection, and through a session renewal, if
   * need be); see common/lifecycle.ts for how it rejects. A start that fails for good (NOAUTH, the client ended)
   * leaves the value CLOSED. ILLEGAL_STATE if already started or closed.
   */
  start(options: { readonly signal?: AbortSignal } = {}): Promise<void> {
    return this.#life.start(options.signal, () => this.#loop.start());
  }

  #endStart(err: unknown): void {
    void this.#loop.stop();
    this.#events.end();
    this.#life.end(err);
  }

  /** The latest value known here. ILLEGAL_STATE before start(). */
  getValue(): Uint8Array {
    return this.getVersionedValue().value;
  }

  /** The latest value known here with its version. ILLEGAL_STATE before start(). */
  getVersionedValue(): VersionedValue<Uint8Array> {
    const current = this.#current;
    if (current === undefined) throw illegalState('SharedValue.getValue', this.path, 'not started');
    return { version: current.version, value: current.value.slice() };
  }

  /** Writes `newValue` whatever the node holds. ILLEGAL_STATE unless started. */
  async setValue(newValue: Uint8Array | string): Promise<void> {
    this.#checkStarted('setValue');
    const data = toData(newValue, 'SharedValue.setValue', this.path);
    const stat = await this.#client.setData(this.path, data);
    this.#update(stat, data);
  }

  /**
   * Writes `newValue` only if `previous` is still the value: it must equal the latest value known here, and the
   * server refuses the write (BADVERSION) if anybody wrote since `previous.version`. Resolves true when written;
   * false otherwise, after refreshing the local value so a retry can start from it.
   */
  async trySetValue(previous: VersionedValue<Uint8Array>, newValue: Uint8Array | string): Promise<boolean> {
    this.#checkStarted('trySetValue');
    const data = toData(newValue, 'SharedValue.trySetValue', this.path);
    if (typeof previous?.version !== 'number' || !(previous.value instanceof Uint8Array)) {
      throw badArgument('SharedValue.trySetValue', this.path, 'previous must be a VersionedValue from getVersionedValue()');
    }
    const current = this.#current as Current;
    if (previous.version !== current.version || !sameBytes(previous.value, current.value)) return false;
    try {
      const stat = await this.#client.setData(this.path, data, { version: previous.version });
      this.#update(stat, data);
      return true;
    } catch (err) {
      if (!isCode(err, 'BADVERSION', 'NONODE')) throw err;
    }
    try {
      await this.#read(false);
    } catch (err) {
      if (!isCode(err, 'NONODE') && !retryableOn(this.#client, err)) throw err;
    }
    return false;
  }

  addListener(listener: (event: SharedValueEvent) => void): () => void {
    return this.#events.subscribe(listener);
  }

  events(options: { signal?: AbortSignal } = {}): AsyncIterable<SharedValueEvent> {
    return this.#events.stream(options.signal);
  }

  /** Stops watching (the node stays). ILLEGAL_STATE unless started; `await using` closes quietly in any state. */
  async close(): Promise<void> {
    this.#life.close();
    const stopping = this.#loop.stop();
    this.#unsubscribe();
    await stopping;
    this.#events.end();
  }

  /** For `await using`: close() if started (stops watching; the node and its value stay), else just marks it CLOSED. */
  async [Symbol.asyncDispose](): Promise<void> {
    if (this.#life.disposing()) await this.close();
  }

  #checkStarted(what: string): void {
    if (this.#life.state !== 'STARTED' || this.#current === undefined) {
      throw illegalState(`SharedValue.${what}`, this.path, this.#life.state === 'CLOSED' ? 'closed' : 'not started');
    }
  }

  async #createIfMissing(signal: AbortSignal): Promise<void> {
    for (;;) {
      try {
        await this.#client.create(this.path, this.#seed, { mode: 'persistent', signal });
        return;
      } catch (err) {
        if (isCode(err, 'NODEEXISTS')) return;
        if (!isCode(err, 'NONODE')) throw err;
        await ensureContainers(this.#client, parentPath(this.path), signal);
      }
    }
  }

  /** Reads the value (leaving a data watch unless one is pending or `watch` is false). NONODE when missing. */
  async #read(watch = !this.#watchPending, signal?: AbortSignal): Promise<void> {
    const stoppable = signal === undefined ? {} : { signal };
    if (!watch) {
      const { data, stat } = await this.#client.getData(this.path, stoppable);
      this.#update(stat, data);
      return;
    }
    const { data, stat, watch: fired } = await this.#client.getData(this.path, { watch: true, ...stoppable });
    this.#arm(fired);
    this.#update(stat, data);
  }

  #arm(fired: Promise<unknown>): void {
    this.#watchPending = true;
    void fired.then(() => {
      this.#watchPending = false;
      this.#loop.wake();
    });
  }

  #update(stat: Stat, data: Uint8Array): void {
    if (!supersedes(stat, this.#current)) return;
    const first = this.#current === undefined;
    this.#current = { version: stat.version, mzxid: stat.mzxid, value: data.slice() };
    if (!first) this.#events.emit({ type: 'valueChanged', value: { version: stat.version, value: data.slice() } });
  }

  /**
   * One turn of the loop (common/supervised-loop.ts). The first makes the node if missing and reads the value; each
   * later one reads again when the watch fired or a reconnect asked for it, and otherwise waits.
   */
  async #turn(turn: LoopTurn): Promise<TurnOutcome> {
    const stop = turn.signal;
    if (this.#current === undefined) {
      await this.#createIfMissing(stop);
      await this.#read(true, stop);
      if (stop.aborted) return 'done'; // closed meanwhile: close() has told start()
      this.#unsubscribe = onConnectionEvent(this.#client, (event) => {
        if (event === 'RECONNECTED') this.#refresh = true;
        this.#events.emit({ type: 'connectionStateChanged', event });
        this.#loop.wake();
      });
      this.#life.ready();
      return 'wait';
    }
    if (this.#watchPending && !this.#refresh) return 'wait';
    this.#refresh = false;
    try {
      await this.#read(!this.#watchPending, stop);
    } catch (err) {
      if (!isCode(err, 'NONODE')) throw err;
      // deleted: keep the last value and watch for the node's return
      if (!this.#watchPending) {
        const { stat, watch } = await this.#client.exists(this.path, { watch: true, signal: stop });
        this.#arm(watch);
        // back already: read it on the next turn (the watch left is the data watch an existing node gets)
        if (stat !== null) this.#refresh = true;
      }
    }
    return 'again';
  }
}
