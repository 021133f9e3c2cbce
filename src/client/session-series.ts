/**
 * The client's line of sessions. A session ends (expiry, a refused login, close) and is never revived; the client
 * goes on: when its session expires it opens a new one to the same ensemble with the same options and
 * credentials, as Curator's framework and kazoo do, and says so: LOST (reason SESSIONEXPIRED), then, once the new
 * session is established, RECONNECTED with `newSession: true`. A close or an auth failure stays final, and so does
 * an expiry with `renewSession: false`.
 *
 * This class keeps the current session and the client's own state, one stream of changes across sessions.
 */

import type { ZooKeeperError } from '../errors.js';
import { settleWithin, Timer, type Clock } from '../session/clock.js';
import type { RetryPolicy } from '../session/retry-policy.js';
import { Session, type SessionOptions } from '../session/session.js';
import { changeStream, isConnectedState, isTerminal, type SessionState, type StateChange } from '../session/state.js';
import { untilConnected } from '../session/wait-connected.js';
import type { CallTap } from './observe.js';
import { FeatureBook } from './server-features.js';
import type { Endpoint } from '../transport/types.js';

type Listener = (change: StateChange) => void;

/**
 * A renewal that follows a session that was never established (a server answering every new session with an
 * expiry, which only a broken or hostile server does) waits before dialling: 100 ms, doubling up to this.
 */
const MAX_RENEWAL_PAUSE_MS = 10_000;

export interface SeriesOptions {
  /** The first session's options; a successor takes the same, less the resumed id, with the credentials held. */
  readonly session: SessionOptions;
  /** Open a new session after an expiry (the default); false makes an expiry final. */
  readonly renew: boolean;
  readonly clock: Clock;
  /**
   * Called when `next` has replaced the expired `old`, before anyone is told: what must carry over (persistent
   * watches) is queued on `next` ahead of every request made by a listener of the LOST change.
   */
  readonly renewed: (old: Session, next: Session) => void;
  /** The client's `retry` option: every call's retries unless the call says otherwise (client/retry-call.ts). */
  readonly retry?: RetryPolicy | undefined;
  /** Told of every settled call, by the session's observer: what stats collectors attach to (undefined with `observe: false`). */
  readonly taps?: Set<CallTap> | undefined;
}

export class SessionSeries {
  /** What the servers can do, learnt over every session of the series (client/server-features.ts). */
  readonly features = new FeatureBook();
  /** As given (the call path reads the clock and the retry policy from here). */
  readonly options: SeriesOptions;
  readonly #listeners = new Set<Listener>();
  #current: Session;
  #unsubscribe: () => void;
  #state: SessionState = 'connecting';
  #ended = false;
  #endError: ZooKeeperError | undefined;
  #closing = false;
  /** The current session replaced an expired one and has not been established yet. */
  #awaitingNew = false;
  #renewals = 0;
  /** Renewals in a row whose session expired without ever being established. */
  #barren = 0;
  readonly #startNext: Timer;
  /** The guaranteed deletes still running (client/guaranteed-delete.ts): what close() waits for, bounded. */
  readonly owed = new Set<Promise<unknown>>();

  constructor(options: SeriesOptions) {
    this.options = options;
    this.#current = new Session(options.session);
    this.#unsubscribe = this.#follow(this.#current);
    this.#startNext = new Timer(options.clock, () => this.#current.start());
  }

  /** The session requests go to now. */
  get current(): Session {
    return this.#current;
  }

  /** The client's state: the current session's, except that an expiry is followed by a new session's connecting. */
  get state(): SessionState {
    return this.#state;
  }

  /** True once no session will follow: closed, auth failed, or expired with renewal off. */
  get terminal(): boolean {
    return this.#ended;
  }

  /** How many times a new session replaced an expired one. */
  get renewals(): number {
    return this.#renewals;
  }

  start(): void {
    this.#current.start();
  }

  subscribe(listener: Listener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  changes(): AsyncIterable<StateChange> {
    return changeStream(this);
  }

  /** Resolves once a session is connected; rejects only when the client has ended (or `signal` fires). */
  waitConnected(signal?: AbortSignal): Promise<void> {
    return untilConnected(this, () => (this.#ended ? this.#endError : undefined), signal);
  }

  get lastConnectionFailure(): ZooKeeperError | undefined {
    return this.#current.lastConnectionFailure;
  }

  /**
   * Replaces the server list of the current session (and so of every session after it); true when the client
   * leaves its server to spread the load (see host-provider.ts).
   */
  updateServerList(hosts: readonly Endpoint[]): boolean {
    return this.#current.updateServerList(hosts);
  }

  /**
   * Closes the current session; no session follows. The guaranteed deletes still owed get `closeTimeoutMs` (default
   * 2 s) to finish first; those left then fail with CLOSED, each naming its path.
   */
  async close(): Promise<void> {
    if (this.owed.size > 0 && !this.#closing) {
      await settleWithin(this.options.clock, Promise.allSettled(this.owed).then(() => {}), this.options.session.closeTimeoutMs ?? 2000);
    }
    this.#closing = true;
    this.#startNext.cancel();
    return this.#current.close();
  }

  #follow(session: Session): () => void {
    return session.stateMachine.subscribe((change) => {
      if (session === this.#current) this.#onChange(session, change);
    });
  }

  #onChange(session: Session, change: StateChange): void {
    if (change.to === 'expired' && this.options.renew && !this.#closing) {
      this.#renew(session, change);
      return;
    }
    if (isTerminal(change.to)) {
      this.#ended = true;
      this.#endError = change.reason as ZooKeeperError | undefined;
    }
    if (isConnectedState(change.to)) this.#barren = 0;
    if (this.#awaitingNew && isConnectedState(change.to)) {
      this.#awaitingNew = false;
      // The new session's own machine calls its first connection CONNECTED; to the client it is a reconnection.
      this.#emit({ ...change, event: change.to === 'connected' ? 'RECONNECTED' : 'READ_ONLY', newSession: true });
      return;
    }
    this.#emit(change);
  }

  /**
   * The expired session is replaced before anyone hears of the expiry, so that a request made by any listener (or
   * by code resumed by a failed request) goes to the new session and waits for it, as requests wait for any
   * reconnect.
   */
  #renew(old: Session, expiry: StateChange): void {
    this.#unsubscribe();
    const { sessionId: _id, sessionPassword: _password, ...rest } = this.options.session;
    // The credentials held now (added ones included), and the newest zxid seen: a server behind it refuses the
    // handshake (the client tries the next), so the new session never reads older data than the old one did.
    // The server list as it is now: updateServerList and the ensemble tracker may have changed it since the start.
    const next = new Session({ ...rest, hosts: old.hosts, authInfo: old.authInfo, lastZxidSeen: old.lastZxidSeen });
    this.#current = next;
    this.#renewals++;
    this.#awaitingNew = true;
    this.#unsubscribe = this.#follow(next);
    this.options.renewed(old, next);
    this.#emit(expiry);
    this.#emit({ from: 'expired', to: 'connecting', event: undefined, at: this.options.clock.now(), reason: undefined, newSession: false });
    if (old.negotiatedTimeoutMs !== 0) {
      this.#barren = 0;
      next.start();
    } else {
      this.#startNext.arm(Math.min(MAX_RENEWAL_PAUSE_MS, 100 * 2 ** this.#barren++));
    }
    // The expired session has released its socket already or is about to; close() only waits for that.
    void old.close();
  }

  #emit(change: StateChange): void {
    this.#state = change.to;
    for (const listener of [...this.#listeners]) {
      try {
        listener(change);
      } catch {
        // A listener's bug must not break the client's bookkeeping (as in the session's own machine).
      }
    }
  }
}
