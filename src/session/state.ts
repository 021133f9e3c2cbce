import { ReaderQueue } from '../util/reader-queue.js';

/**
 * Session states as one closed union with a single `change` entry point. The three terminal states
 * (expired, auth-failed, closed) absorb every later change, so no code path can "revive" a dead session: after an
 * expiry the client opens a new Session (src/client/session-series.ts), it never brings this one back.
 *
 * Alongside the raw states, Curator-style connection events are derived for recipes: CONNECTED (first
 * connection), SUSPENDED (link lost, session maybe alive), RECONNECTED, LOST (session gone), READ_ONLY.
 */

export type SessionState =
  | 'connecting'
  | 'connected'
  | 'connected-read-only'
  | 'disconnected'
  | 'expired'
  | 'auth-failed'
  | 'closed';

/** A connection event, named as Curator's ConnectionState names them. */
export type ConnectionEvent = 'CONNECTED' | 'SUSPENDED' | 'RECONNECTED' | 'LOST' | 'READ_ONLY';

/** One state transition of the session, as `stateChanges()` yields it. */
export interface StateChange {
  readonly from: SessionState;
  readonly to: SessionState;
  /** The Curator-style event this change amounts to, if any. */
  readonly event: ConnectionEvent | undefined;
  /** Clock time of the change. */
  readonly at: number;
  /** Why, for losses: the error that dropped the link or ended the session. */
  readonly reason: Error | undefined;
  /**
   * True on the change that connects a session the client opened by itself after the previous one expired (its
   * event is RECONNECTED, and `sessionId` is a new one): ephemeral nodes and one-shot watches of the old session are
   * gone. Always false on a session's own changes; the client sets it (see src/client/session-series.ts).
   */
  readonly newSession: boolean;
}

export function isTerminal(state: SessionState): boolean {
  return state === 'expired' || state === 'auth-failed' || state === 'closed';
}

export function isConnectedState(state: SessionState): boolean {
  return state === 'connected' || state === 'connected-read-only';
}

type Listener = (change: StateChange) => void;

export class StateMachine {
  #current: SessionState = 'connecting';
  #everConnected = false;
  #suspended = false;
  readonly #listeners = new Set<Listener>();
  readonly #now: () => number;

  constructor(now: () => number) {
    this.#now = now;
  }

  get state(): SessionState {
    return this.#current;
  }

  get terminal(): boolean {
    return isTerminal(this.#current);
  }

  /** Moves to `to`; returns false (and does nothing) when already there or already terminal. */
  change(to: SessionState, reason?: Error): boolean {
    const from = this.#current;
    if (from === to || isTerminal(from)) return false;
    this.#current = to;
    const change: StateChange = { from, to, event: this.#eventFor(to), at: this.#now(), reason, newSession: false };
    for (const listener of [...this.#listeners]) {
      try {
        listener(change);
      } catch {
        // A listener's bug must not break the session's own bookkeeping.
      }
    }
    return true;
  }

  #eventFor(to: SessionState): ConnectionEvent | undefined {
    switch (to) {
      case 'connected':
      case 'connected-read-only': {
        const event: ConnectionEvent =
          to === 'connected-read-only' ? 'READ_ONLY' : this.#everConnected ? 'RECONNECTED' : 'CONNECTED';
        this.#everConnected = true;
        this.#suspended = false;
        return event;
      }
      case 'disconnected':
      case 'connecting':
        if (this.#everConnected && !this.#suspended) {
          this.#suspended = true;
          return 'SUSPENDED';
        }
        return undefined;
      case 'expired':
      case 'auth-failed':
      case 'closed':
        return 'LOST';
    }
  }

  /** Calls `listener` on every later change; returns the unsubscribe function. */
  subscribe(listener: Listener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * The changes from now on, as an async iterable. It ends after yielding a terminal change, or when
   * the consumer stops (break/return).
   */
  changes(): AsyncIterable<StateChange> {
    return changeStream(this);
  }
}

/** What a stream of state changes is read from: a session's machine, or the client's line of sessions. */
export interface ChangeSource {
  /** True once no change will follow. */
  readonly terminal: boolean;
  subscribe(listener: Listener): () => void;
}

/**
 * `source`'s changes from now on, as an async iterable that ends after the change that makes the source terminal,
 * or when the consumer stops (break/return).
 */
export function changeStream(source: ChangeSource): AsyncIterable<StateChange> {
  return {
    [Symbol.asyncIterator]: () => {
      const queue = new ReaderQueue<StateChange>();
      const unsubscribe = source.subscribe((change) => {
        queue.push(change);
        if (source.terminal) {
          unsubscribe();
          queue.end();
        }
      });
      if (source.terminal) {
        unsubscribe();
        queue.end();
      }
      return {
        next: (): Promise<IteratorResult<StateChange>> => queue.next(),
        return: async (): Promise<IteratorResult<StateChange>> => {
          unsubscribe();
          queue.discard();
          return { value: undefined, done: true };
        },
      };
    },
  };
}
