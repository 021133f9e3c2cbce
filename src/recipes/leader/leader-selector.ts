/**
 * LeaderSelector: Curator's leader selector. Contenders queue on an InterProcessMutex (the same znodes as Curator's
 * selector, `<path>/_c_<uuid>-lock-<seq>` holding the participant id), so the queue is fair and shared with Curator
 * clients. The holder leads for as long as its `takeLeadership` function runs; when it returns (or throws) the
 * mutex is released and, with autoRequeue, the contender queues again.
 *
 * takeLeadership gets an AbortSignal that aborts when leadership can no longer be trusted — on SUSPENDED by default
 * or only when the session ends with `leadershipLost: 'lost'` (a leader always hears it lost: CURATOR-220) — on
 * interruptLeadership(), and on close(). Leadership still lasts until the function returns: it must honour the
 * signal, and should give the fencing token to anything it writes.
 *
 * interruptLeadership() only ever ends a running leadership; it never cancels a queued attempt, so calling it twice
 * in a row cannot stall autoRequeue (CURATOR-518).
 *
 * Across a session expiry: a leader's signal aborts (its node went with the session) and, with autoRequeue, the
 * selector queues again on the client's new session; a queued attempt starts over there. Only the client's end
 * (closed, auth failed, or an expiry with `renewSession: false`) stops the selector, with a `sessionEnded` event.
 */

import type { ZooKeeperClient } from '../../client.js';
import type { ZooKeeperError } from '../../errors.js';
import { exponentialBackoff, type RetryPolicy } from '../../session/retry-policy.js';
import { InterProcessMutex } from '../locks/mutex.js';
import type { Lease } from '../locks/lease.js';
import { utf8Encode } from '../../protocol/utf8.js';
import { settledWhileConnected } from '../common/connection.js';
import { SupervisedLoop, type TurnOutcome } from '../common/supervised-loop.js';
import { whenAborted } from '../common/deadline.js';
import { badArgument, recipeError } from '../common/errors.js';
import { EventHub, type RecipeEvents } from '../common/event-hub.js';
import { Lifecycle, type RecipeState } from '../common/lifecycle.js';
import { checkRecipePath, cleanupsSettledWhileConnected } from '../common/nodes.js';
import type { LeadershipLostPolicy } from './leader-latch.js';
import { leaderOf, participantsOf, type Participant } from './participant.js';
import { clockOf, type Clock } from '../../session/clock.js';

/** What takeLeadership is given while it leads. */
export interface Leadership {
  /** Aborts when leadership can no longer be trusted, is interrupted, or the selector closes; its reason says why. */
  readonly signal: AbortSignal;
  /** The mutex node's czxid: larger for every later leader of this path. */
  readonly fencingToken: bigint;
  /** Full path of the node that holds leadership. */
  readonly node: string;
}

/** Leads while it runs. */
export type TakeLeadership = (leadership: Leadership) => Promise<void>;

/** How a LeaderSelector queues for leadership and what it does when leadership ends or an attempt fails. */
export interface LeaderSelectorOptions {
  /** This contender's id, stored in its node (Curator's participant id). Default ''. */
  readonly id?: string;
  /** Queue again each time leadership ends (Curator's autoRequeue()). Default false. */
  readonly autoRequeue?: boolean;
  /** See LeaderLatch: `suspended` (default) or `lost`. */
  readonly leadershipLost?: LeadershipLostPolicy;
  /** Pause between attempts after a failure (not after a normal end of leadership). Default exponentialBackoff(). */
  readonly retry?: RetryPolicy;
  /** Timers (tests). */
  readonly clock?: Clock;
}

/**
 * Where a LeaderSelector is in its life (Curator's selector states): `LATENT` constructed, not yet started;
 * `STARTED` taking part (queued, leading, or idle between terms without autoRequeue: see requeue()); `CLOSED` left
 * for good (a selector cannot restart).
 */
export type LeaderSelectorState = RecipeState;

/** What listeners and iterators of a LeaderSelector hear. */
export type LeaderSelectorEvent =
  | { readonly type: 'leadershipTaken'; readonly fencingToken: bigint; readonly node: string }
  | { readonly type: 'leadershipEnded'; readonly reason: unknown }
  /** takeLeadership threw, or an attempt to queue failed (`error` says how); the selector goes on if it can. */
  | { readonly type: 'error'; readonly error: unknown }
  /** The client has ended (closed, auth failed, or expired with `renewSession: false`): the selector can do no more. */
  | { readonly type: 'sessionEnded'; readonly reason: ZooKeeperError };

export class LeaderSelector implements RecipeEvents<LeaderSelectorEvent>, AsyncDisposable {
  readonly #client: ZooKeeperClient;
  readonly #mutex: InterProcessMutex;
  readonly #take: TakeLeadership;
  readonly #retry: RetryPolicy;
  readonly #clock: Clock;
  readonly #idBytes: Uint8Array;
  readonly #events = new EventHub<LeaderSelectorEvent>();
  readonly #stop = new AbortController();
  /** Resolves at close(): one listener on the stop signal for the life of the selector. */
  readonly #stopped = whenAborted(this.#stop.signal);
  #autoRequeue: boolean;
  readonly #life: Lifecycle;
  #queued = false;
  readonly #loop: SupervisedLoop;
  #term: AbortController | undefined;

  constructor(
    client: ZooKeeperClient,
    /** The election directory, shared by every contender. */
    readonly path: string,
    takeLeadership: TakeLeadership,
    options: LeaderSelectorOptions = {},
  ) {
    checkRecipePath(path, 'LeaderSelector');
    this.#life = new Lifecycle('LeaderSelector', path);
    if (typeof takeLeadership !== 'function') throw badArgument('LeaderSelector', path, 'takeLeadership must be a function');
    const policy = options.leadershipLost ?? 'suspended';
    if (policy !== 'suspended' && policy !== 'lost') throw badArgument('LeaderSelector', path, 'leadershipLost must be "suspended" or "lost"');
    this.#client = client;
    this.#take = takeLeadership;
    this.#retry = options.retry ?? exponentialBackoff({ maxRetries: Number.MAX_SAFE_INTEGER });
    this.#clock = clockOf(options.clock);
    this.#autoRequeue = options.autoRequeue ?? false;
    this.id = options.id ?? '';
    this.#idBytes = utf8Encode(this.id);
    this.#mutex = new InterProcessMutex(client, path, { lockLost: policy, data: this.#idBytes, clock: this.#clock });
    this.#loop = new SupervisedLoop(client, (turn) => this.#turn(turn.signal), {
      clock: this.#clock,
      recipe: 'LeaderSelector',
      path,
      backoff: this.#retry,
      signal: this.#stop.signal,
      onError: (err) => this.#events.emit({ type: 'error', error: err }),
      onEnd: (reason) => {
        this.#queued = false;
        this.#events.emit({ type: 'sessionEnded', reason });
      },
    });
  }

  /** This contender's id. */
  readonly id: string;

  /** `LATENT` until start(), `STARTED` while taking part (queued, leading or idle), `CLOSED` after close() or disposal. */
  get state(): LeaderSelectorState {
    return this.#life.state;
  }

  /** From now on, queue again every time leadership ends (Curator's autoRequeue()). */
  autoRequeue(): void {
    this.#autoRequeue = true;
  }

  /**
   * Queues for leadership, in the background; the promise resolves at once (the selector has nothing to wait for
   * before it leads: `leadershipTaken` says when it does). Rejects with ILLEGAL_STATE if started already or closed.
   */
  start(options: { readonly signal?: AbortSignal } = {}): Promise<void> {
    return this.#life.start(options.signal, () => {
      this.#queued = true;
      this.#loop.start();
      this.#life.ready();
    });
  }

  /**
   * Queues again if not queued or leading now: true when that started a new attempt, false when one was already
   * under way (Curator's requeue()). ILLEGAL_STATE unless started.
   */
  requeue(): boolean {
    this.#life.requireStarted('requeue');
    if (this.#queued || this.#term !== undefined) return false;
    this.#queued = true; // an idle loop wakes; one winding a leadership down goes round once more
    this.#loop.wake();
    return true;
  }

  /** True while takeLeadership runs and its signal has not aborted. */
  hasLeadership(): boolean {
    return this.#term !== undefined && !this.#term.signal.aborted;
  }

  /**
   * Aborts the running leadership's signal (reason ABORTED); takeLeadership should then return. Does nothing when
   * not leading — in particular it never cancels a queued attempt (CURATOR-518).
   */
  interruptLeadership(): void {
    this.#term?.abort(
      recipeError('ABORTED', 'LeaderSelector', this.path, `leadership interrupted`),
    );
  }

  /** Every contender in queue order, the leader first. */
  async getParticipants(): Promise<Participant[]> {
    return participantsOf(this.#client, await this.#mutex.getParticipantNodes());
  }

  /** The current leader, or `{id: '', isLeader: false}`. */
  async getLeader(): Promise<Participant> {
    return leaderOf(await this.getParticipants());
  }

  addListener(listener: (event: LeaderSelectorEvent) => void): () => void {
    return this.#events.subscribe(listener);
  }

  events(options: { signal?: AbortSignal } = {}): AsyncIterable<LeaderSelectorEvent> {
    return this.#events.stream(options.signal);
  }

  /**
   * Leaves: a queued attempt is cancelled (its node deleted), a running leadership's signal aborts with CLOSED,
   * and the promise resolves once takeLeadership has returned and the node is released. ILLEGAL_STATE unless
   * started.
   */
  async close(): Promise<void> {
    this.#life.close();
    const reason = recipeError('CLOSED', 'LeaderSelector', this.path, `the selector was closed`);
    this.#stop.abort(reason);
    this.#term?.abort(reason);
    await this.#loop.stop();
    // an attempt aborted with its create in flight leaves the node to a background cleanup: close() waits for it
    // while the link is up, never for a server to come back (the cleanup goes on after the reconnect)
    await cleanupsSettledWhileConnected(this.#client);
    this.#events.end();
  }

  /**
   * For `await using`: close() if started (a queued attempt is cancelled, a running leadership's signal aborts and
   * the promise waits for takeLeadership to return and the node to go), else just marks it CLOSED.
   */
  async [Symbol.asyncDispose](): Promise<void> {
    if (this.#life.disposing()) await this.close();
  }

  /**
   * One turn of the selector's loop (common/supervised-loop.ts): while queued, wait for the mutex and lead; a
   * failure to queue is an `error` event and a pause under the `retry` policy.
   */
  async #turn(stop: AbortSignal): Promise<TurnOutcome> {
    if (!this.#queued) return 'wait';
    const lease = await this.#mutex.acquire({ signal: stop });
    this.#queued = false;
    if (stop.aborted || lease.signal.aborted) {
      // closed, or the link dropped, between the grant and now: do not start a leadership already void
      await lease.release().catch(() => undefined);
      return 'wait';
    }
    await this.#lead(lease);
    if (this.#autoRequeue) this.#queued = true;
    return 'again';
  }

  async #lead(lease: Lease): Promise<void> {
    const term = new AbortController();
    const unfollow = [lease.signal, this.#stop.signal].map((from) => {
      const onAbort = (): void => term.abort(from.reason);
      if (from.aborted) onAbort();
      else from.addEventListener('abort', onAbort, { once: true });
      return () => from.removeEventListener('abort', onAbort);
    });
    this.#term = term;
    this.#events.emit({ type: 'leadershipTaken', fencingToken: lease.fencingToken, node: lease.node });
    try {
      await this.#take({ signal: term.signal, fencingToken: lease.fencingToken, node: lease.node });
    } catch (err) {
      this.#events.emit({ type: 'error', error: err });
    } finally {
      this.#term = undefined;
      for (const remove of unfollow) remove();
      this.#events.emit({ type: 'leadershipEnded', reason: term.signal.aborted ? term.signal.reason : undefined });
      term.abort(recipeError('ABORTED', 'LeaderSelector', this.path, `leadership ended`));
      const released = lease.release().catch((err: unknown) => this.#events.emit({ type: 'error', error: err }));
      // The next attempt waits for the release; a close() (now or while the release waits for a reconnect) waits
      // for it only while the link answers, never for a server to come back: the lease's delete goes on through
      // reconnects in the background.
      await Promise.race([released, this.#stopped]);
      if (this.#stop.signal.aborted) await settledWhileConnected(this.#client, released);
    }
  }
}
