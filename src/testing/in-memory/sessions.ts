/**
 * The in-memory server's sessions: id, password, negotiated timeout and the deadline by which the server must hear
 * from the client again. Every frame from the client moves the deadline (`touch`); a session whose deadline passes
 * on the server's clock expires. The real server checks deadlines on tick boundaries, so it expires a session up
 * to one tick later than this tracker does.
 */

import { Timer, type Clock } from '../../session/clock.js';

/** One session. */
export interface Session {
  readonly id: bigint;
  readonly password: Uint8Array;
  timeoutMs: number;
  /** Server time (ms) after which the session expires unless touched. */
  deadline: number;
}

interface Tracked {
  readonly session: Session;
  readonly timer: Timer;
}

export class SessionTracker {
  readonly #sessions = new Map<bigint, Tracked>();
  #nextId: bigint;

  readonly #clock: Clock;
  /** Server time: the clock plus whatever `advance` added. */
  readonly #now: () => number;
  readonly #expire: (session: Session) => void;

  constructor(clock: Clock, now: () => number, expire: (session: Session) => void) {
    this.#clock = clock;
    this.#now = now;
    this.#expire = expire;
    // As ZooKeeperServer's SessionTrackerImpl.initializeNextSessionId for server id 1: time in the middle bits.
    this.#nextId = (BigInt.asUintN(64, BigInt(Math.floor(now())) << 24n) >> 8n) | (1n << 56n);
  }

  get size(): number {
    return this.#sessions.size;
  }

  ids(): bigint[] {
    return [...this.#sessions.keys()];
  }

  get(id: bigint): Session | undefined {
    return this.#sessions.get(id)?.session;
  }

  /** Opens a session with a fresh id and a random 16-byte password. */
  create(timeoutMs: number): Session {
    const id = this.#nextId++;
    const session: Session = { id, password: crypto.getRandomValues(new Uint8Array(16)), timeoutMs, deadline: 0 };
    const timer = new Timer(this.#clock, () => this.#check(id));
    this.#sessions.set(id, { session, timer });
    this.touch(session);
    return session;
  }

  /** The client was heard from: the session lives another timeout. */
  touch(session: Session): void {
    session.deadline = this.#now() + session.timeoutMs;
    const tracked = this.#sessions.get(session.id);
    // One timer per session, armed for the first deadline; when it fires early (the session was touched since)
    // it re-arms for the rest, so a busy session costs no timer churn.
    if (tracked !== undefined && !tracked.timer.armed) tracked.timer.arm(session.timeoutMs);
  }

  /** Forgets a session (closed or expired) and its timer. */
  remove(id: bigint): void {
    this.#sessions.get(id)?.timer.cancel();
    this.#sessions.delete(id);
  }

  /** Expires every session whose deadline has passed (after the server's time jumped). */
  sweep(): void {
    for (const id of [...this.#sessions.keys()]) this.#check(id);
  }

  /** Forgets every session and timer (the server closes). */
  clear(): void {
    for (const { timer } of this.#sessions.values()) timer.cancel();
    this.#sessions.clear();
  }

  #check(id: bigint): void {
    const tracked = this.#sessions.get(id);
    if (tracked === undefined) return;
    const left = tracked.session.deadline - this.#now();
    if (left > 0) {
      if (!tracked.timer.armed) tracked.timer.arm(left);
      return;
    }
    this.remove(id);
    this.#expire(tracked.session);
  }
}
