/**
 * The analysis: one pass over a stream of capture events (any source: a pcap file, a JSON-lines capture, the
 * proxy's live traffic), in the order they happened, folding them into the ops tables, sessions, watches, locks
 * and guardrails. Memory grows with open connections, sessions, lock contenders and armed watches, never with
 * the number of frames (every list in the report is bounded, with exact counts beside it). Pure: no I/O.
 */

import { AddWatchMode, CreateFlags, ErrorCode, EventType, hexId, JUTE_MAX_BUFFER, OpCode, WatcherType, type ConnectResponse, type DescribedFrame } from '../../protocol/index.js';
import type { MultiRequest, MultiResponse, SetWatches } from '../../protocol/index.js';
import { connectRequestOf, connectResponseOf, notificationEvent, opReply, opRequest, type OpRequest } from '../../protocol/op-bodies.js';
import type { CaptureConnection, CaptureEvent, FrameEvent } from '../capture/events.js';
import { Guardrails, HUGE_CHILDREN, NEAR_MAX_BUFFER } from './guardrails.js';
import { roundMs } from '../shared/latency.js';
import { leaderReports } from './leaders.js';
import { LockTracker } from './locks.js';
import { OpStats } from './op-stats.js';
import type { AnalysisReport, GuardrailFinding, WatchKind } from './report.js';
import { SessionTracker } from './sessions.js';
import { WatchTracker } from './watches.js';

export interface AnalyzeOptions {
  /** Path segments kept when rolling paths up for the per-path table (default 2). */
  depth?: number;
  /** Replies slower than this (ms) are reported (default 1000). */
  slowMs?: number;
  /** The server's jute.maxbuffer in bytes (default ZooKeeper's, 0xfffff). */
  maxBuffer?: number;
}

interface Pending {
  timeUs: number;
  frame: DescribedFrame;
  /** The request's body typed by its opcode (undefined when the body did not decode). */
  request: OpRequest | undefined;
}

interface ConnState {
  conn: CaptureConnection;
  /** The client's host, the key of the per-client table. */
  client: string;
  session: string | undefined;
  /** The session id the connect request asked to resume (0 for a new session). */
  requested: bigint | undefined;
  connectUs: number | undefined;
  /** Requests awaiting their reply, by xid (an array only when a client reused an xid before its reply). */
  pending: Map<number, Pending | Pending[]>;
  closeSentUs: number | undefined;
  lastReplyXid: number;
  closed: boolean;
  /** When the close was seen. */
  closedUs: number | undefined;
}

const CREATE_OPS = new Set<number>([OpCode.create, OpCode.create2, OpCode.createContainer, OpCode.createTTL]);
const MAX_PENDING_PER_CONN = 100_000;

/** Folds capture events into an AnalysisReport. Feed events with `add`, read the report with `report`. */
export class Analyzer {
  readonly depth: number;
  readonly slowMs: number;
  readonly maxBuffer: number;
  #startUs: number | undefined;
  #lastUs = 0;
  #frames = 0;
  #connectionCount = 0;
  readonly #conns = new Map<string, ConnState>();
  /** Each session's latest connection (to tell a reconnect from another party resuming the session beside it). */
  readonly #lastConnOf = new Map<string, ConnState>();
  /** Ephemeral node → the session that created it, and the other way round. */
  readonly #ephemeralOwner = new Map<string, string>();
  readonly #ephemeralsOf = new Map<string, Set<string>>();
  readonly #ops: OpStats;
  readonly #sessions: SessionTracker;
  readonly #watches: WatchTracker;
  readonly #locks: LockTracker;
  readonly #guardrails = new Guardrails();

  constructor(opts: AnalyzeOptions = {}) {
    this.depth = opts.depth ?? 2;
    this.slowMs = opts.slowMs ?? 1000;
    this.maxBuffer = opts.maxBuffer ?? JUTE_MAX_BUFFER;
    const ms = (us: number): number => roundMs((us - (this.#startUs ?? us)) / 1000);
    this.#ops = new OpStats(this.depth);
    this.#sessions = new SessionTracker(ms);
    this.#watches = new WatchTracker(ms);
    this.#locks = new LockTracker(ms, this.#sessions);
  }

  add(ev: CaptureEvent): void {
    this.#startUs ??= ev.timeUs;
    this.#lastUs = Math.max(this.#lastUs, ev.timeUs);
    if (ev.type === 'bad-line') {
      // Only a lenient JSON-lines source yields these (analyze reads strictly); a line that is no frame is a hole.
      this.#guardrails.add({ kind: 'undecodable', atMs: roundMs((ev.timeUs - this.#startUs) / 1000), conn: ev.conn === null ? '?' : String(ev.conn), session: null, op: null, path: null, detail: `line ${ev.lineNo}: ${ev.error}` });
      return;
    }
    if (ev.type === 'close') {
      // A close for a connection already closed (or never seen) has nothing left to end.
      const known = this.#conns.get(ev.conn.id);
      if (known !== undefined && !known.closed) this.#closeConn(known, ev.timeUs, ev.reason);
      return;
    }
    const c = this.#conn(ev.conn);
    switch (ev.type) {
      case 'open':
        return;
      case 'gap':
        this.#flag('gap', ev.timeUs, c, null, null, `${ev.dir}: ${ev.missingBytes ?? 'unknown number of'} byte(s) missing (${ev.reason})`);
        return;
      case 'frame':
        this.#frames++;
        this.#frame(c, ev);
        return;
    }
  }

  /** The report so far. `final` settles what only the end of the capture can tell (unanswered requests…). */
  report(final = true): AnalysisReport {
    const endUs = this.#lastUs;
    const start = this.#startUs ?? 0;
    const g = final ? this.#withUnanswered() : this.#guardrails;
    const locks = this.#locks.report(endUs);
    const sessions = this.#sessions.report();
    return {
      startUs: start,
      durationMs: roundMs((endUs - start) / 1000),
      connections: this.#connectionCount,
      frames: this.#frames,
      options: { depth: this.depth, slowMs: this.slowMs, maxBuffer: this.maxBuffer },
      ops: this.#ops.report(),
      sessions,
      watches: this.#watches.report(final),
      locks: locks.filter((l) => l.kind !== 'leader-latch'),
      leaders: leaderReports(locks, sessions),
      guardrails: g.report(),
    };
  }

  #conn(conn: CaptureConnection): ConnState {
    let c = this.#conns.get(conn.id);
    if (c === undefined || c.closed) {
      c = { conn, client: clientHost(conn.client), session: undefined, requested: undefined, connectUs: undefined, pending: new Map(), closeSentUs: undefined, lastReplyXid: 0, closed: false, closedUs: undefined };
      this.#conns.set(conn.id, c);
      this.#connectionCount++;
    }
    return c;
  }

  #frame(c: ConnState, ev: FrameEvent): void {
    const f = ev.frame;
    const t = ev.timeUs;
    if (f.error !== undefined) {
      // A reply we could not match is still worth its own finding; other failures are undecodable frames.
      const kind = f.kind === 'reply' && f.op === undefined && f.xid !== undefined ? 'unmatched-reply' : 'undecodable';
      this.#flag(kind, t, c, f.op ?? null, f.path ?? null, f.error);
      if (f.kind === 'request' && f.xid !== undefined) this.#remember(c, f.xid, { timeUs: t, frame: f, request: undefined });
      return;
    }
    if (ev.size >= this.maxBuffer * NEAR_MAX_BUFFER && (f.kind === 'request' || f.kind === 'reply')) {
      this.#flag('near-max-buffer', t, c, f.op ?? null, f.path ?? null, `${ev.size} byte frame is ${Math.round((ev.size / this.maxBuffer) * 100)}% of jute.maxbuffer (${this.maxBuffer})`);
    }
    if (c.session !== undefined) this.#sessions.frame(c.session, c.conn.id, ev.dir === 'c2s', t, f.kind === 'request');
    switch (f.kind) {
      case 'connect-request':
        c.requested = connectRequestOf(f)?.sessionId;
        c.connectUs = t;
        this.#ops.request('connect', undefined, c.session, c.client);
        return;
      case 'connect-response': {
        const r = connectResponseOf(f);
        if (r !== undefined) this.#connected(c, r, t);
        return;
      }
      case 'request':
        this.#request(c, f, t);
        return;
      case 'reply':
        this.#reply(c, f, t);
        return;
      case 'notification': {
        const ev2 = notificationEvent(f);
        if (c.session !== undefined && ev2 !== undefined && ev2.path !== null) {
          this.#watches.notified(c.session, ev2.type, ev2.path, t);
          if (ev2.type === EventType.NodeDeleted) this.#locks.gone(ev2.path, c.session, t);
        }
        return;
      }
      default:
        return; // four-letter words
    }
  }

  #connected(c: ConnState, r: ConnectResponse, t: number): void {
    const latency = c.connectUs === undefined ? undefined : (t - c.connectUs) / 1000;
    const requested = c.requested ?? 0n;
    if (r.timeOut <= 0) {
      // The server refused to resume the session: it has expired (ZooKeeper answers with timeout 0).
      this.#ops.reply('connect', undefined, c.session, c.client, ErrorCode.SESSIONEXPIRED, latency);
      if (requested !== 0n) this.#sessionEnded(hexId(requested), t, 'expired', 'the server refused to resume it (connect response with timeout 0)');
      return;
    }
    const id = hexId(r.sessionId);
    const resumed = requested !== 0n && requested === r.sessionId;
    c.session = id;
    this.#sessions.established(id, r.timeOut, c.conn, t, resumed);
    // A client reconnects after its connection ended. A connection that asked for the session while the session's
    // connection was still open is another party holding its id and password — killSession's, which resumes the
    // session only to close it — and the client has nothing to re-register on it. (The server closes the client's
    // connection on the takeover, but only after the request, so the close may come before this response.)
    const before = this.#lastConnOf.get(id);
    const beside = before !== undefined && before !== c && (!before.closed || (before.closedUs ?? 0) > (c.connectUs ?? t));
    this.#lastConnOf.set(id, c);
    if (resumed && !beside) this.#watches.reconnected(id, c.conn.id, t);
    this.#ops.reply('connect', undefined, c.session, c.client, 0, latency);
  }

  #request(c: ConnState, f: DescribedFrame, t: number): void {
    const op = f.op ?? `op(${f.opcode})`;
    this.#ops.request(op, f.path, c.session, c.client);
    if (c.closeSentUs !== undefined) this.#flag('request-after-close', t, c, op, f.path ?? null, `sent ${roundMs((t - c.closeSentUs) / 1000)} ms after closeSession on the same connection`);
    const req = opRequest(f);
    if (f.xid !== undefined) this.#remember(c, f.xid, { timeUs: t, frame: f, request: req });
    if (req === undefined) return;
    switch (req.opcode) {
      case OpCode.closeSession:
        c.closeSentUs ??= t;
        if (c.session !== undefined) this.#sessionEnded(c.session, t, 'closed', 'session closed');
        return;
      case OpCode.setWatches:
      case OpCode.setWatches2:
        if (c.session !== undefined) this.#watches.restored(c.session, restoredLists(req.body));
        return;
      default:
        return;
    }
  }

  #reply(c: ConnState, f: DescribedFrame, t: number): void {
    const req = f.xid === undefined ? undefined : this.#take(c, f.xid);
    const op = f.op ?? `op(${f.opcode})`;
    const err = f.err ?? 0;
    const latencyMs = req === undefined ? undefined : roundMs((t - req.timeUs) / 1000);
    this.#ops.reply(op, f.path, c.session, c.client, err, latencyMs);
    // A refusal a server sends ahead of its pipeline (ZooKeeper 3.4's UNIMPLEMENTED, a read-only server's
    // NOTREADONLY) may overtake earlier replies (see session/receive.ts): it neither breaks the order nor sets it.
    if (f.xid !== undefined && f.xid > 0 && err !== ErrorCode.UNIMPLEMENTED && err !== ErrorCode.NOTREADONLY) {
      if (f.xid < c.lastReplyXid) this.#flag('reply-out-of-order', t, c, op, f.path ?? null, `reply to xid ${f.xid} after the reply to xid ${c.lastReplyXid}`);
      c.lastReplyXid = Math.max(c.lastReplyXid, f.xid);
    }
    if (latencyMs !== undefined && latencyMs > this.slowMs) this.#flag('slow-reply', t, c, op, f.path ?? null, `${latencyMs} ms (slower than ${this.slowMs} ms)`);
    if (f.opcode === OpCode.ping && c.session !== undefined && latencyMs !== undefined) this.#sessions.ping(c.session, latencyMs);
    const s = c.session;
    if (err === ErrorCode.SESSIONEXPIRED && s !== undefined) {
      this.#sessionEnded(s, t, 'expired', `a ${op} reply said SESSIONEXPIRED`);
      return;
    }
    if (s === undefined || req === undefined) return;
    const rq = req.request;
    const rp = opReply(f);
    if (rq === undefined || rp === undefined) return;
    const zxid = f.zxid ?? 0n;
    // Each branch narrows the request's body (and the reply's) by the opcode of the request.
    switch (rq.opcode) {
      case OpCode.create:
      case OpCode.create2:
      case OpCode.createContainer:
      case OpCode.createTTL:
        if (err === 0 && rp.body !== undefined && 'path' in rp.body && rp.body.path !== null) this.#createdNode(s, rp.body.path, rq.body.flags, t, zxid);
        return;
      case OpCode.delete:
        if (err === 0 && rq.body.path !== null) this.#deletedNode(s, rq.body.path, req.timeUs);
        return;
      case OpCode.multi:
        if (err === 0 && rp.opcode === OpCode.multi && rp.body !== undefined) this.#multi(s, rq.body, rp.body, req.timeUs, t, zxid);
        return;
      case OpCode.getData:
      case OpCode.exists: {
        const path = rq.body.path;
        if (!rq.body.watch || path === null) return;
        // exists on a missing node still arms a watch (for its creation); getData on one does not.
        if (err === 0 || (rq.opcode === OpCode.exists && err === ErrorCode.NONODE)) {
          this.#watches.set(s, rq.opcode === OpCode.getData ? 'data' : 'exists', path, t);
          this.#locks.watched(path, s, t);
        }
        // A waiter that finds the node it meant to watch already gone learns that as it would from its NodeDeleted.
        if (err === ErrorCode.NONODE) this.#locks.gone(path, s, t);
        return;
      }
      case OpCode.getChildren:
      case OpCode.getChildren2: {
        const path = rq.body.path;
        if (err !== 0 || path === null || rp.body === undefined || !('children' in rp.body)) return;
        if (rq.body.watch) this.#watches.set(s, 'child', path, t);
        const children = rp.body.children ?? [];
        if (children.length >= HUGE_CHILDREN) this.#flag('huge-children', t, c, op, path, `${children.length} children in one reply`);
        this.#locks.listed(path, children, s, t, zxid);
        return;
      }
      case OpCode.removeWatches:
        if (err === 0 && rq.body.path !== null) this.#watches.removed(s, rq.body.path, removedKinds(rq.body.type));
        return;
      case OpCode.addWatch:
        if (err === 0 && rq.body.path !== null) this.#watches.set(s, rq.body.mode === AddWatchMode.PersistentRecursive ? 'persistent-recursive' : 'persistent', rq.body.path, t);
        return;
      default:
        return;
    }
  }

  #multi(s: string, req: MultiRequest, res: MultiResponse, requestUs: number, t: number, zxid: bigint): void {
    req.ops.forEach((o, i) => {
      const r = res.results[i]?.body;
      if (CREATE_OPS.has(o.header.type) && r != null && 'path' in r && r.path !== null && 'flags' in o.body) this.#createdNode(s, r.path, o.body.flags, t, zxid);
      else if (o.header.type === OpCode.delete && o.body.path !== null) this.#deletedNode(s, o.body.path, requestUs);
    });
  }

  #createdNode(s: string, path: string, flags: number, t: number, zxid: bigint): void {
    if (flags === CreateFlags.ephemeral || flags === CreateFlags.ephemeralSequential) {
      this.#sessions.ephemeral(s, path, t);
      this.#ephemeralOwner.set(path, s);
      const mine = this.#ephemeralsOf.get(s) ?? new Set<string>();
      mine.add(path);
      this.#ephemeralsOf.set(s, mine);
    }
    this.#locks.created(path, s, t, zxid);
  }

  #deletedNode(session: string, path: string, requestUs: number): void {
    const owner = this.#ephemeralOwner.get(path);
    if (owner !== undefined) {
      this.#sessions.ephemeralDeleted(owner, path, requestUs);
      this.#ephemeralOwner.delete(path);
      this.#ephemeralsOf.get(owner)?.delete(path);
    }
    this.#locks.deleted(path, session, requestUs);
  }

  #sessionEnded(id: string, t: number, kind: 'closed' | 'expired', how: string): void {
    if (kind === 'closed') this.#sessions.closed(id, t);
    else this.#sessions.expired(id, t, how);
    this.#locks.sessionEnded(id, t, kind === 'closed' ? 'session closed' : 'session expired');
    this.#watches.sessionEnded(id, kind === 'closed' ? 'session closed' : 'session expired');
    this.#lastConnOf.delete(id);
    // The server removes the session's ephemeral nodes with it.
    for (const path of this.#ephemeralsOf.get(id) ?? []) {
      this.#sessions.ephemeralDeleted(id, path, t);
      this.#ephemeralOwner.delete(path);
    }
    this.#ephemeralsOf.delete(id);
  }

  #closeConn(c: ConnState, t: number, reason: string): void {
    c.closed = true;
    c.closedUs = t;
    if (c.session === undefined) return;
    this.#sessions.connectionClosed(c.session, c.conn.id, t, reason);
    if (reason !== 'capture-end') this.#locks.connectionClosed(c.session, t);
  }

  #remember(c: ConnState, xid: number, p: Pending): void {
    if (c.pending.size >= MAX_PENDING_PER_CONN) return;
    const had = c.pending.get(xid);
    if (had === undefined) c.pending.set(xid, p);
    else if (Array.isArray(had)) had.push(p);
    else c.pending.set(xid, [had, p]);
  }

  #take(c: ConnState, xid: number): Pending | undefined {
    const had = c.pending.get(xid);
    if (had === undefined || !Array.isArray(had)) {
      c.pending.delete(xid);
      return had;
    }
    const p = had.shift();
    if (had.length === 0) c.pending.delete(xid);
    return p;
  }

  #flag(kind: GuardrailFinding['kind'], t: number, c: ConnState, op: string | null, path: string | null, detail: string): void {
    this.#guardrails.add({ kind, atMs: roundMs((t - (this.#startUs ?? t)) / 1000), conn: c.conn.id, session: c.session ?? null, op, path, detail });
  }

  /** The guardrails plus one finding per request never answered (computed on a copy: the capture may go on). */
  #withUnanswered(): Guardrails {
    const g = this.#guardrails.clone();
    for (const c of this.#conns.values()) {
      for (const had of c.pending.values()) {
        for (const p of Array.isArray(had) ? had : [had]) {
          // ZooKeeper never answers a standalone check (it is only meaningful inside a multi).
          if (p.frame.opcode === OpCode.check) continue;
          const why = c.closed ? 'the connection closed first' : 'the capture ended first';
          g.add({
            kind: 'unanswered',
            atMs: roundMs((p.timeUs - (this.#startUs ?? p.timeUs)) / 1000),
            conn: c.conn.id,
            session: c.session ?? null,
            op: p.frame.op ?? null,
            path: p.frame.path ?? null,
            detail: `xid ${p.frame.xid ?? '?'} got no reply: ${why}`,
          });
        }
      }
    }
    return g;
  }
}

/** The host of `ip:port` (`[v6]:port` keeps its brackets); other strings as they are. */
export function clientHost(client: string): string {
  const m = /^(\[[^\]]*\]|[^:]+):\d+$/.exec(client);
  return m === null ? client : m[1]!;
}

/** The watch kinds a removeWatches of this WatcherType removes. */
function removedKinds(type: number): readonly WatchKind[] {
  switch (type) {
    case WatcherType.Children:
      return ['child'];
    case WatcherType.Data:
      return ['data', 'exists'];
    case WatcherType.Persistent:
      return ['persistent'];
    case WatcherType.PersistentRecursive:
      return ['persistent-recursive'];
    default:
      return ['data', 'exists', 'child', 'persistent', 'persistent-recursive'];
  }
}

function restoredLists(body: SetWatches & { persistentWatches?: string[] | null; persistentRecursiveWatches?: string[] | null }): { kind: WatchKind; paths: string[] }[] {
  return [
    { kind: 'data', paths: body.dataWatches ?? [] },
    { kind: 'exists', paths: body.existWatches ?? [] },
    { kind: 'child', paths: body.childWatches ?? [] },
    { kind: 'persistent', paths: body.persistentWatches ?? [] },
    { kind: 'persistent-recursive', paths: body.persistentRecursiveWatches ?? [] },
  ];
}

/** Analyzes a whole stream of events. */
export async function analyzeEvents(events: AsyncIterable<CaptureEvent> | Iterable<CaptureEvent>, opts: AnalyzeOptions = {}): Promise<AnalysisReport> {
  const a = new Analyzer(opts);
  for await (const ev of events) a.add(ev);
  return a.report();
}
