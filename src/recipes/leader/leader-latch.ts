/**
 * LeaderLatch: Curator's leader latch, on the same znodes (`<path>/_c_<uuid>-latch-<seq>`, data = the participant
 * id) so zkwire and Curator contenders elect one leader between them. The lowest sequence leads; each other
 * contender watches only the node just ahead of it.
 *
 * One loop per latch makes every decision, one at a time, from reads that no event has overtaken: connection events
 * and watches only wake the loop (and may take leadership away at once), they never run checks of their own. That
 * rules out the interleavings behind Curator's double leaders:
 *
 *  - CURATOR-620/652: two RECONNECTED handlers racing a node deletion against a leadership check. Here a wake-up
 *    during a check voids the check's result; the loop looks again.
 *  - CURATOR-696: leadership granted on an old node after the session changed. Leadership is granted only after a
 *    read, answered while connected, showing our node first and owned (ephemeralOwner) by our session.
 *  - CURATOR-645/644: reset storms. We replace our node only when our own node is gone, never because the node ahead
 *    vanished (then we list again and watch the new one ahead), so two latches cannot keep resetting each other.
 *  - CURATOR-724: our node deleted while disconnected. After a reconnect the loop lists again; a missing node of ours
 *    means a new node, and leadership (if we had it) is lost first.
 *  - CURATOR-3/CURATOR-18: a node left behind by a latch closed mid-check or mid-create. close() stops the loop and
 *    a create in flight with it (NodeOps then finds that create's node by the protection prefix and deletes it, in
 *    the background), and deletes the node the latch holds: awaited while the link answers, so close() normally
 *    resolves with nothing left behind, and left to the background once the link is down, so close() never waits
 *    for a server to come back (cleanupsSettled(client) waits for those deletes).
 *
 * Leadership comes with an AbortSignal that aborts the moment it can no longer be trusted (on SUSPENDED by default,
 * or only when the session ends with `leadershipLost: 'lost'`, or when our node is deleted, or on close) and a
 * fencing token: our node's czxid, which grows with every new leader for the life of the ensemble.
 *
 * Across a session expiry the latch carries on, as Curator's does after LOST: leadership ends at once (the node it
 * stood on went with the session), and the latch joins again with a new node on the client's new session. Only the
 * client's end (closed, auth failed, or an expiry with `renewSession: false`) ends the latch's part in the election.
 * A failure that is not the connection's (NOAUTH on the latch path, say) is reported as an `error` event and
 * retried with a back-off, never in a tight loop; if it comes before the latch has joined the election, start()
 * rejects with it, so no caller waits on a start that cannot complete by itself.
 */

import type { ZooKeeperClient } from '../../client.js';
import type { Stat } from '../../client/types.js';
import { ZooKeeperError } from '../../errors.js';
import { utf8Encode } from '../../protocol/utf8.js';
import { isConnected, onConnectionEvent, type RecipeConnectionEvent } from '../common/connection.js';
import { onDampedConnectionEvent, type ConnectionDamping } from '../common/damping.js';
import type { StateChange } from '../../session/state.js';
import { Deadline, type WaitOptions } from '../common/deadline.js';
import { SupervisedLoop, type LoopTurn, type TurnOutcome } from '../common/supervised-loop.js';
import { aborted, badArgument, illegalState, recipeError, sessionEnded } from '../common/errors.js';
import { isCode } from '../../errors.js';
import { EventHub, type RecipeEvents } from '../common/event-hub.js';
import { Lifecycle, type RecipeState } from '../common/lifecycle.js';
import { checkRecipePath, childrenOrEmpty, joinPath, NodeOps, nodeName, sortSequential } from '../common/nodes.js';
import { leaderOf, readParticipants, type Participant } from './participant.js';
import { clockOf, type Clock } from '../../session/clock.js';

/** The name Curator gives latch nodes (after the protection prefix). */
export const LATCH_NAME = 'latch-';

/**
 * Where a LeaderLatch is in its life (Curator's LeaderLatch.State, the lifecycle every recipe shares: see
 * common/lifecycle.ts): `LATENT` constructed, not yet started; `STARTED` in the election (leading or waiting to);
 * `CLOSED` left the election for good (a latch cannot restart: make a new one).
 */
export type LeaderLatchState = RecipeState;

/** Curator's LeaderLatch.CloseMode: whether close() tells listeners that leadership ended. */
export type CloseMode = 'SILENT' | 'NOTIFY_LEADER';

/**
 * When leadership stops being trusted: `suspended` (default) as soon as the connection drops, because the session
 * may expire on the server and another contender lead before we can hear of it; `lost` only when the session has
 * ended (fewer false alarms, but for up to a session timeout two processes may both act as leader).
 */
export type LeadershipLostPolicy = 'suspended' | 'lost';

/** How a LeaderLatch takes part in the election. */
export interface LeaderLatchOptions {
  /** This contender's id, stored in its node (Curator's participant id). Default ''. */
  readonly id?: string;
  /** The default for close(). Default SILENT, as in Curator. */
  readonly closeMode?: CloseMode;
  /** When leadership stops being trusted (see LeadershipLostPolicy). Default `suspended`. */
  readonly leadershipLost?: LeadershipLostPolicy;
  /**
   * Damps a flapping link's connection events (Curator's CircuitBreakingConnectionStateListener): the first
   * SUSPENDED still ends leadership at once, but the RECONNECTED / SUSPENDED storm after it is held back until the
   * circuit closes, so the latch does not rejoin and look again on every flap. Default: every event, undamped.
   */
  readonly connectionDamping?: ConnectionDamping;
  /** Timers (tests). */
  readonly clock?: Clock;
}

/** A change of leadership, for listeners and iterators. */
export type LeaderLatchEvent =
  | {
      readonly type: 'isLeader';
      /** Our node's czxid: larger for every later leader of this latch path. */
      readonly fencingToken: bigint;
      /** Aborts when this leadership can no longer be trusted. */
      readonly signal: AbortSignal;
    }
  | { readonly type: 'notLeader'; readonly reason: ZooKeeperError }
  /** Joining or checking the election failed for a reason other than the connection (NOAUTH, say); retried with a back-off. */
  | { readonly type: 'error'; readonly error: unknown };

/** One uninterrupted stretch of leadership. */
interface Term {
  readonly node: string;
  readonly fencingToken: bigint;
  readonly controller: AbortController;
}


export class LeaderLatch implements RecipeEvents<LeaderLatchEvent>, AsyncDisposable {
  readonly #client: ZooKeeperClient;
  readonly #ops: NodeOps;
  readonly #idBytes: Uint8Array;
  readonly #policy: LeadershipLostPolicy;
  readonly #closeMode: CloseMode;
  readonly #clock: Clock;
  readonly #events = new EventHub<LeaderLatchEvent>();
  /** Internal: anything an await() may care about happened. */
  readonly #changed = new EventHub<void>();
  readonly #loop: SupervisedLoop;
  readonly #life: Lifecycle;
  #ourPath: string | undefined;
  #term: Term | undefined;
  #lastLoss: ZooKeeperError;
  /** Set once the session is over: the latch can do nothing more. */
  #ended: ZooKeeperError | undefined;
  /** Paths we hold a pending one-shot watch on (so a re-check does not stack another). */
  readonly #watching = new Set<string>();
  #unsubscribe: () => void = () => undefined;
  readonly #damping: ConnectionDamping | undefined;
  #closing: Promise<void> | undefined;

  constructor(
    client: ZooKeeperClient,
    /** The latch directory, shared by every contender. */
    readonly path: string,
    options: LeaderLatchOptions = {},
  ) {
    checkRecipePath(path, 'LeaderLatch');
    this.#life = new Lifecycle('LeaderLatch', path);
    const policy = options.leadershipLost ?? 'suspended';
    if (policy !== 'suspended' && policy !== 'lost') throw badArgument('LeaderLatch', path, 'leadershipLost must be "suspended" or "lost"');
    const closeMode = options.closeMode ?? 'SILENT';
    if (closeMode !== 'SILENT' && closeMode !== 'NOTIFY_LEADER') throw badArgument('LeaderLatch', path, 'closeMode must be SILENT or NOTIFY_LEADER');
    if (options.id !== undefined && typeof options.id !== 'string') throw badArgument('LeaderLatch', path, 'id must be a string');
    this.#client = client;
    this.id = options.id ?? '';
    this.#idBytes = utf8Encode(this.id);
    this.#policy = policy;
    this.#closeMode = closeMode;
    this.#damping = options.connectionDamping;
    this.#clock = clockOf(options.clock);
    this.#ops = new NodeOps(client, { clock: this.#clock });
    this.#loop = new SupervisedLoop(client, (turn) => this.#turn(turn), {
      clock: this.#clock,
      recipe: 'LeaderLatch',
      path,
      onEnd: (err) => this.#end(err),
      onError: (err) => {
        this.#events.emit({ type: 'error', error: err });
        // not in the election yet: start() says why now rather than never (it goes on trying in the background)
        this.#life.fail(err);
      },
    });
    this.#lastLoss = illegalState('LeaderLatch', path, 'not the leader');
  }

  /** This contender's id. */
  readonly id: string;

  /**
   * `LATENT` until start(), `STARTED` while in the election (whether leading or not: see hasLeadership()),
   * `CLOSED` after close() or disposal.
   */
  get state(): LeaderLatchState {
    return this.#life.state;
  }

  /**
   * Joins the election: our node is created in the background (waiting for a connection if need be). The promise
   * resolves once it is in the election; awaiting it is optional (see common/lifecycle.ts for how it rejects).
   * Once only.
   */
  start(options: { readonly signal?: AbortSignal } = {}): Promise<void> {
    return this.#life.start(options.signal, () => {
      this.#listen(this.#client);
      this.#loop.start();
    });
  }

  /** Connection events of `client` take leadership away at once and wake the loop. */
  #listen(client: ZooKeeperClient): void {
    this.#unsubscribe();
    const listener = (event: RecipeConnectionEvent, change: StateChange): void => {
      if (event === 'LOST') {
        this.#lose(change.reason instanceof ZooKeeperError ? change.reason : sessionEnded(client, 'LeaderLatch', this.path));
        // Our node and our watches went with the session: the loop joins again on the next one.
        this.#ourPath = undefined;
        this.#watching.clear();
      } else if (event === 'SUSPENDED' && this.#policy === 'suspended') {
        this.#lose(
          recipeError('CONNECTIONLOSS', 'LeaderLatch', this.path, `connection suspended; another contender may lead`),
        );
      }
      this.#loop.wake();
    };
    this.#unsubscribe = this.#damping === undefined ? onConnectionEvent(client, listener) : onDampedConnectionEvent(client, listener, { clock: this.#clock, ...this.#damping });
  }

  /** True while we lead and nothing has yet made that doubtful. */
  hasLeadership(): boolean {
    return this.#term !== undefined && !this.#term.controller.signal.aborted;
  }

  /** Our node's czxid while we lead (see LeaderLatchEvent), else undefined. */
  get fencingToken(): bigint | undefined {
    return this.hasLeadership() ? this.#term?.fencingToken : undefined;
  }

  /**
   * While we lead, a signal that aborts the moment leadership can no longer be trusted (its reason says why:
   * CONNECTIONLOSS, SESSIONEXPIRED, NONODE, CLOSED). While we do not lead, an already aborted signal.
   */
  get leadershipSignal(): AbortSignal {
    return this.#term?.controller.signal ?? AbortSignal.abort(this.#lastLoss);
  }

  /** The full path of our node, once created (Curator's getOurPath). */
  get ourPath(): string | undefined {
    return this.#ourPath;
  }

  /**
   * Waits until we lead. Resolves true then (at once if we already do), false when `timeoutMs` passes first;
   * rejects with ABORTED when `signal` fires, ILLEGAL_STATE when the latch is not started or gets closed, and the
   * session's error once the session has ended.
   */
  async await(options: WaitOptions = {}): Promise<boolean> {
    this.#life.requireStarted('await');
    if (this.hasLeadership()) return true;
    if (this.#ended !== undefined) throw this.#ended;
    using deadline = new Deadline(options, 'LeaderLatch.await', this.path, this.#clock);
    return await new Promise<boolean>((resolve, reject) => {
      const settle = (): boolean => {
        if (this.hasLeadership()) resolve(true);
        else if (this.#life.state !== 'STARTED') reject(illegalState('LeaderLatch.await', this.path, 'the latch was closed'));
        else if (this.#ended !== undefined) reject(this.#ended);
        else if (deadline.stopped) {
          if (deadline.timedOut) resolve(false);
          else reject(aborted(deadline.signal, 'LeaderLatch.await'));
        } else if (deadline.tryOnce) resolve(false);
        else return false;
        unsubscribe();
        deadline.signal?.removeEventListener('abort', onAbort);
        return true;
      };
      const onAbort = (): void => void settle();
      const unsubscribe = this.#changed.subscribe(() => void settle());
      deadline.signal?.addEventListener('abort', onAbort, { once: true });
      settle();
    });
  }

  /** Every contender (Curator's participant ids) in election order, the leader first. */
  getParticipants(): Promise<Participant[]> {
    return readParticipants(this.#client, this.path, LATCH_NAME);
  }

  /** The current leader, or `{id: '', isLeader: false}` when nobody contends (as Curator). */
  async getLeader(): Promise<Participant> {
    return leaderOf(await this.getParticipants());
  }

  addListener(listener: (event: LeaderLatchEvent) => void): () => void {
    return this.#events.subscribe(listener);
  }

  events(options: { signal?: AbortSignal } = {}): AsyncIterable<LeaderLatchEvent> {
    return this.#events.stream(options.signal);
  }

  /**
   * Leaves the election: leadership ends at once (its signal aborts; listeners hear `notLeader` only with
   * NOTIFY_LEADER), a create in flight is stopped, and the promise resolves once our node is deleted, or at once
   * when the client is disconnected: the delete then goes on in the background, after every reconnect, until the
   * node is gone or the session has ended (`cleanupsSettled(client)` waits for it). ILLEGAL_STATE when the latch
   * was never started or is already closed.
   */
  close(closeMode: CloseMode = this.#closeMode): Promise<void> {
    if (closeMode !== 'SILENT' && closeMode !== 'NOTIFY_LEADER') {
      return Promise.reject(badArgument('LeaderLatch.close', this.path, 'closeMode must be SILENT or NOTIFY_LEADER'));
    }
    try {
      this.#life.close();
    } catch (err) {
      return Promise.reject(err);
    }
    const stopping = this.#loop.stop();
    this.#unsubscribe();
    this.#lose(
      recipeError('CLOSED', 'LeaderLatch', this.path, `the latch was closed`),
      closeMode === 'NOTIFY_LEADER',
    );
    this.#changed.emit();
    this.#closing = (async () => {
      await stopping;
      try {
        const ours = this.#ourPath;
        this.#ourPath = undefined;
        if (ours !== undefined) await this.#ops.deleteOnClose(ours);
        await this.#removeWatches();
      } finally {
        this.#events.end();
        this.#changed.end();
      }
    })();
    return this.#closing;
  }

  /** close() with the default mode; a no-op on a latch already closed (or never started). */
  [Symbol.asyncDispose](): Promise<void> {
    if (this.#life.disposing()) return this.close();
    return this.#closing ?? Promise.resolve();
  }

  // ---- the loop ----------------------------------------------------------------------------------------

  /** One turn of the latch's loop (common/supervised-loop.ts): join the election if we are not in it, then look. */
  async #turn(turn: LoopTurn): Promise<TurnOutcome> {
    if (this.#ourPath === undefined) {
      // close() stops a create in flight: NodeOps deletes what it may have made, in the background
      const created = await this.#ops.createProtected(this.path, LATCH_NAME, this.#idBytes, turn.signal);
      this.#ourPath = created.path;
      if (turn.signal.aborted) return 'done'; // made just before the stop: close() deletes it
      this.#life.ready();
    }
    await this.#check(this.#ourPath, turn);
    return 'wait';
  }

  /** One look at the election: lead, or watch the node ahead. Returns once there is something to wait for. */
  async #check(ours: string, turn: LoopTurn): Promise<void> {
    // both go out together, and the listing is answered after the stat
    const watchOurs = !this.#watching.has(ours);
    const stop = this.#loop.signal;
    const [children, own] = await Promise.all([childrenOrEmpty(this.#client, this.path, stop), this.#statOurs(ours, watchOurs)]);
    if (this.#loop.signal.aborted) return;
    const sorted = sortSequential(children, LATCH_NAME);
    const index = sorted.indexOf(nodeName(ours));
    if (index < 0 || own === null || own.ephemeralOwner !== this.#client.sessionId) {
      // Our node is gone (deleted during a disconnect, CURATOR-724) or is not our session's (CURATOR-696): never
      // lead on it; join again with a new node.
      this.#lose(
        recipeError('NONODE', 'LeaderLatch', ours, `our latch node ${ours} is gone`),
      );
      if (this.#ourPath === ours) this.#ourPath = undefined;
      this.#loop.wake();
      return;
    }
    if (index === 0) {
      if (turn.woken || !isConnected(this.#client)) return; // something happened meanwhile: look again
      this.#lead(ours, own.czxid);
      return;
    }
    if (this.hasLeadership()) {
      this.#lose(
        recipeError('NONODE', 'LeaderLatch', ours, `another contender sorts first`),
      );
    }
    const ahead = joinPath(this.path, sorted[index - 1] as string);
    if (this.#watching.has(ahead)) return;
    try {
      const { watch } = await this.#client.getData(ahead, { watch: true, signal: stop });
      this.#watching.add(ahead);
      void watch.then(() => {
        this.#watching.delete(ahead);
        this.#loop.wake();
      });
    } catch (err) {
      // the node ahead left before we could watch it: list again (not reset: CURATOR-645)
      if (isCode(err, 'NONODE')) this.#loop.wake();
      else throw err;
    }
  }

  async #statOurs(ours: string, watch: boolean): Promise<Stat | null> {
    const signal = this.#loop.signal;
    if (!watch) return this.#client.exists(ours, { signal });
    const { stat, watch: fired } = await this.#client.exists(ours, { watch: true, signal });
    this.#watching.add(ours);
    void fired.then((event) => {
      this.#watching.delete(ours);
      if (event.type === 'NodeDeleted' && this.#ourPath === ours) {
        this.#lose(
          recipeError('NONODE', 'LeaderLatch', ours, `our latch node ${ours} was deleted`),
        );
      }
      this.#loop.wake();
    });
    return stat;
  }

  #lead(node: string, fencingToken: bigint): void {
    if (this.#term !== undefined && this.#term.node === node && !this.#term.controller.signal.aborted) return;
    const term: Term = { node, fencingToken, controller: new AbortController() };
    this.#term = term;
    this.#events.emit({ type: 'isLeader', fencingToken, signal: term.controller.signal });
    this.#changed.emit();
  }

  /** Ends the current term (if any): its signal aborts with `reason`, listeners hear it unless `notify` is false. */
  #lose(reason: ZooKeeperError, notify = true): void {
    const term = this.#term;
    if (term === undefined) return;
    this.#term = undefined;
    this.#lastLoss = reason;
    term.controller.abort(reason);
    if (notify) this.#events.emit({ type: 'notLeader', reason });
    this.#changed.emit();
  }

  #end(err: ZooKeeperError): void {
    this.#lose(err);
    this.#ended = err;
    this.#life.fail(err);
    this.#changed.emit();
  }

  /** Takes back the watch left on the node ahead (ours fired with its deletion), so a closed latch leaves none. */
  async #removeWatches(): Promise<void> {
    const paths = [...this.#watching];
    this.#watching.clear();
    if (!isConnected(this.#client)) return;
    await Promise.all(paths.map((p) => this.#client.removeWatches(p, 'data').catch(() => undefined)));
  }
}
