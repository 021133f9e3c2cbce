/**
 * Sessions across connections: a session id is handed out in a connect response and resumed by later connect
 * requests that carry it, so one session may span several TCP connections. Tracks the handshake, the negotiated
 * timeout, ping round trips, silences, disconnects and reconnects, and how the session ended.
 */

import type { CaptureConnection } from '../capture/events.js';
import type { LatencyHistogram } from '../shared/histogram.js';
import { msHistogram, roundMs } from '../shared/latency.js';
import type { SessionConnection, SessionEnd, SessionReport, Silence } from './report.js';

/**
 * A client pings when it has sent nothing for a third of the timeout (ZooKeeper's ClientCnxn, and zkwire's
 * heartbeat), so a gap of exactly a third is the normal rhythm of an idle session; timers and scheduling add a
 * little. A gap this much longer than a third means a ping was late: the client was busy, paused or cut off.
 */
export const SILENCE_SLACK = 1.25;

interface ConnLife extends SessionConnection {
  lastC2sUs: number;
}

interface SessionState {
  id: string;
  timeoutMs: number | null;
  firstUs: number;
  lastUs: number;
  conns: ConnLife[];
  disconnects: number;
  pings: LatencyHistogram;
  silences: Silence[];
  end: SessionEnd | undefined;
  ephemerals: Map<string, { atUs: number; deletedUs: number | null }>;
  requests: number;
}

const MAX_SILENCES = 200;
const MAX_EPHEMERALS = 5000;

export class SessionTracker {
  readonly #ms: (us: number) => number;
  readonly #sessions = new Map<string, SessionState>();

  constructor(ms: (us: number) => number) {
    this.#ms = ms;}

  /** A connect response that granted (or re-granted) a session. */
  established(id: string, timeoutMs: number, conn: CaptureConnection, atUs: number, resumed: boolean): void {
    const s = this.#session(id, atUs);
    s.timeoutMs = timeoutMs;
    s.conns.push({
      conn: conn.id,
      client: conn.client,
      server: conn.server,
      fromMs: this.#ms(atUs),
      toMs: null,
      endReason: null,
      resumed,
      lastC2sUs: atUs,
    });
    // A connection made after an end we inferred (e.g. a disconnect) proves the session still lived.
    if (s.end?.kind === 'disconnected') s.end = undefined;
  }

  /** Any frame of the session, for its time span and silences. */
  frame(id: string, connId: string, c2s: boolean, atUs: number, isRequest: boolean): void {
    const s = this.#sessions.get(id);
    if (s === undefined) return;
    s.lastUs = Math.max(s.lastUs, atUs);
    if (isRequest) s.requests++;
    if (!c2s) return;
    const c = openConn(s, connId);
    if (c === undefined) return;
    const gapUs = atUs - c.lastC2sUs;
    if (s.timeoutMs !== null && gapUs / 1000 > (s.timeoutMs / 3) * SILENCE_SLACK && s.silences.length < MAX_SILENCES) {
      s.silences.push({ conn: connId, fromMs: this.#ms(c.lastC2sUs), toMs: this.#ms(atUs), ms: roundMs(gapUs / 1000) });
    }
    c.lastC2sUs = atUs;
  }

  ping(id: string, rttMs: number): void {
    this.#sessions.get(id)?.pings.record(rttMs);
  }

  /** The client asked to close the session. */
  closed(id: string, atUs: number): void {
    const s = this.#sessions.get(id);
    if (s !== undefined && (s.end === undefined || s.end.kind === 'disconnected')) s.end = { kind: 'closed', atMs: this.#ms(atUs) };
  }

  expired(id: string, atUs: number, how: string): void {
    const s = this.#session(id, atUs);
    if (s.end === undefined || s.end.kind === 'disconnected') s.end = { kind: 'expired', atMs: this.#ms(atUs), how };
  }

  /** True once the session is known to be over (closed or expired). */
  ended(id: string): boolean {
    const k = this.#sessions.get(id)?.end?.kind;
    return k === 'closed' || k === 'expired';
  }

  /** True while the session has an open connection in the capture. */
  connected(id: string): boolean {
    const s = this.#sessions.get(id);
    return s !== undefined && s.conns.some((c) => c.toMs === null);
  }

  connectionClosed(id: string, connId: string, atUs: number, reason: string): void {
    const s = this.#sessions.get(id);
    if (s === undefined) return;
    const c = openConn(s, connId);
    if (c === undefined) return;
    s.lastUs = Math.max(s.lastUs, atUs);
    // Still open when the capture ended: not a disconnect, and it has no end time.
    if (reason === 'capture-end') return;
    c.toMs = this.#ms(atUs);
    c.endReason = reason;
    if (s.end === undefined) {
      s.disconnects++;
      if (!s.conns.some((o) => o.toMs === null)) s.end = { kind: 'disconnected', atMs: this.#ms(atUs) };
    }
  }

  ephemeral(id: string, path: string, atUs: number): void {
    const s = this.#sessions.get(id);
    if (s !== undefined && s.ephemerals.size < MAX_EPHEMERALS) s.ephemerals.set(path, { atUs, deletedUs: null });
  }

  ephemeralDeleted(id: string, path: string, atUs: number): void {
    const e = this.#sessions.get(id)?.ephemerals.get(path);
    if (e !== undefined && e.deletedUs === null) e.deletedUs = atUs;
  }

  report(): SessionReport[] {
    return [...this.#sessions.values()]
      .sort((a, b) => a.firstUs - b.firstUs)
      .map((s) => ({
        id: s.id,
        timeoutMs: s.timeoutMs,
        fromMs: this.#ms(s.firstUs),
        toMs: this.#ms(s.lastUs),
        connections: s.conns.map(({ lastC2sUs: _, ...c }) => c),
        reconnects: s.conns.filter((c) => c.resumed).length,
        disconnects: s.disconnects,
        pingMs: s.pings.count === 0 ? null : { count: s.pings.count, p50: roundMs(s.pings.percentile(50)), p99: roundMs(s.pings.percentile(99)) },
        silences: s.silences,
        end: s.end ?? { kind: 'open' },
        ephemerals: [...s.ephemerals].map(([path, e]) => ({ path, atMs: this.#ms(e.atUs), deletedAtMs: e.deletedUs === null ? null : this.#ms(e.deletedUs) })),
        requests: s.requests,
      }));
  }

  #session(id: string, atUs: number): SessionState {
    let s = this.#sessions.get(id);
    if (s === undefined) {
      s = {
        id,
        timeoutMs: null,
        firstUs: atUs,
        lastUs: atUs,
        conns: [],
        disconnects: 0,
        pings: msHistogram(),
        silences: [],
        end: undefined,
        ephemerals: new Map(),
        requests: 0,
      };
      this.#sessions.set(id, s);
    }
    return s;
  }
}

function openConn(s: SessionState, connId: string): ConnLife | undefined {
  for (let i = s.conns.length - 1; i >= 0; i--) if (s.conns[i]!.conn === connId && s.conns[i]!.toMs === null) return s.conns[i];
  return undefined;
}
