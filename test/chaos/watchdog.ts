/**
 * The per-session watchdog. A session hangs when it neither works nor gives up: a request that gets no answer and
 * no error, or a client that stays disconnected without ever declaring its session lost. zkwire promises bounds
 * for both, derived from the session timeout T:
 *  - a request settles within 2·T: a dead link is noticed after 2/3·T, and a session that cannot be resumed is
 *    declared expired 4/3·T after the last word from a server, failing everything queued;
 *  - a client that is not connected reconnects or declares its session expired within 4/3·T.
 * Each bound gets a fixed allowance for scheduling on a loaded machine (three JVMs and the run share the cores);
 * the report also gives the worst event-loop lag seen, so a hang can be told from a starved process.
 *
 * Every bound assumes some member can be reached. While the expiry lane has frozen every link of one slot (until
 * the server has expired its session, which can take well over T when a ZooKeeper leader election restarts the
 * session clocks), nothing of that slot can make progress, so the watchdog leaves the slot alone; at the thaw its
 * pending operations' bounds move by the time they spent frozen, and a client still disconnected starts its
 * 4/3·T afresh.
 */

import type { ZooKeeperClient } from '../../src/node.js';
import type { OpTracker } from './op-tracker.js';

const CHECK_EVERY_MS = 250;

interface Watched {
  readonly client: ZooKeeperClient;
  /** When it last left the connected state (undefined while connected or ended). */
  disconnectedSince: number | undefined;
  reported: boolean;
  readonly unsubscribe: () => void;
}

export interface WatchdogFigures {
  /** Sessions (client generations) with at least one hang. */
  hungSessions: number;
  /** Operations past their bound when checked. */
  hungOperations: number;
  /** The first few hangs, described. */
  notes: string[];
  /** Worst delay of the watchdog's own timer: how starved the event loop was. */
  maxEventLoopLagMs: number;
}

export class Watchdog {
  private readonly clients = new Map<string, Watched>();
  private readonly hung = new Set<string>();
  /** Slots (s0, e0, ...) whose every link is frozen now. */
  private readonly frozen = new Set<string>();
  private readonly notes: string[] = [];
  private hungOperations = 0;
  private maxLag = 0;
  private timer: ReturnType<typeof setInterval> | undefined;
  private lastTick = 0;

  constructor(
    private readonly tracker: OpTracker,
    /** How long a client may stay disconnected without declaring its session lost (4/3·T plus allowance). */
    private readonly disconnectedBoundMs: number,
    private readonly now: () => number = () => Date.now(),
  ) {}

  start(): void {
    this.lastTick = this.now();
    this.timer = setInterval(() => this.check(), CHECK_EVERY_MS);
  }

  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
    for (const w of this.clients.values()) w.unsubscribe();
    this.clients.clear();
  }

  /** Starts watching one client generation (`session` names it in reports). */
  watch(session: string, client: ZooKeeperClient): void {
    const watched: Watched = {
      client,
      disconnectedSince: connected(client) ? undefined : this.now(),
      reported: false,
      unsubscribe: client.onStateChange((change) => {
        if (change.to === 'connected' || change.to === 'connected-read-only') {
          watched.disconnectedSince = undefined;
          this.#nextAttempt(session);
        }
        else if (change.to === 'expired' || change.to === 'closed' || change.to === 'auth-failed') watched.disconnectedSince = undefined;
        else watched.disconnectedSince ??= this.now();
      }),
    };
    this.clients.set(session, watched);
  }

  /** Its client is connected again: a call that sends again (TrackOptions.perAttempt) has a new attempt's bound. */
  #nextAttempt(session: string): void {
    const now = this.now();
    for (const op of this.tracker.pending.values()) {
      if (op.session === session && op.perAttempt && op.hangAt !== undefined && op.boundMs !== undefined) op.hangAt = Math.max(op.hangAt, now + op.boundMs);
    }
  }

  forget(session: string): void {
    this.clients.get(session)?.unsubscribe();
    this.clients.delete(session);
  }

  /** The slot's links are frozen from now until the returned function is called (see the module comment). */
  freeze(slot: string): () => void {
    const since = this.now();
    this.frozen.add(slot);
    return () => {
      this.frozen.delete(slot);
      const now = this.now();
      for (const op of this.tracker.pending.values()) {
        if (slotOf(op.session) === slot && op.hangAt !== undefined) op.hangAt += now - Math.max(op.startedAt, since);
      }
      for (const [session, w] of this.clients) {
        if (slotOf(session) === slot && w.disconnectedSince !== undefined) w.disconnectedSince = Math.max(w.disconnectedSince, now);
      }
    };
  }

  get figures(): WatchdogFigures {
    return { hungSessions: this.hung.size, hungOperations: this.hungOperations, notes: [...this.notes], maxEventLoopLagMs: this.maxLag };
  }

  /** One pass (also called once more at the end of the run). */
  check(): void {
    const now = this.now();
    const lag = now - this.lastTick - CHECK_EVERY_MS;
    if (lag > this.maxLag) this.maxLag = lag;
    this.lastTick = now;
    for (const op of this.tracker.pending.values()) {
      if (op.hangAt === undefined || op.hangReported || now < op.hangAt || this.frozen.has(slotOf(op.session))) continue;
      op.hangReported = true;
      this.hungOperations++;
      const client = this.clients.get(op.session)?.client;
      const where = client === undefined ? '' : `; its client ${client.state}, session ${client.sessionIdHex}, ${client.sessionRenewals} renewals`;
      this.report(op.session, `${op.session}: ${op.op} pending for ${now - op.startedAt} ms (bound ${op.hangAt - op.startedAt} ms${where})`);
    }
    for (const [session, w] of this.clients) {
      if (w.reported || w.disconnectedSince === undefined || this.frozen.has(slotOf(session))) continue;
      const down = now - w.disconnectedSince;
      if (down <= this.disconnectedBoundMs) continue;
      w.reported = true;
      this.report(session, `${session}: ${w.client.state} for ${down} ms without reconnecting or ending (bound ${this.disconnectedBoundMs} ms)`);
    }
  }

  private report(session: string, note: string): void {
    this.hung.add(session);
    if (this.notes.length < 20) this.notes.push(note);
  }
}

/** "s3.1" → "s3". */
function slotOf(session: string): string {
  const dot = session.indexOf('.');
  return dot < 0 ? session : session.slice(0, dot);
}

function connected(client: ZooKeeperClient): boolean {
  return client.state === 'connected' || client.state === 'connected-read-only';
}
