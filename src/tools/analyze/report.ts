/**
 * The shape of an analysis report: plain JSON (no bigint, no bytes) so `--json` prints it as is and the terminal
 * and HTML renderers read the same object. Times are ms since the first event of the capture (`startUs` gives the
 * absolute start); session ids are written as ZooKeeper prints them (`0x…`).
 */

import type { LatencySummary } from '../shared/histogram.js';
import type { LatencyBucket } from '../shared/latency.js';
import type { OpRow } from '../shared/op-totals.js';

export type { LatencyBucket, LatencySummary, OpRow };


export interface OpsReport {
  byOp: OpRow[];
  /** Paths rolled up to `depth` segments. */
  byPath: OpRow[];
  depth: number;
  bySession: OpRow[];
  byClient: OpRow[];
  /** All replies, for the histogram. */
  histogram: LatencyBucket[];
}

/** One TCP connection a session used. */
export interface SessionConnection {
  conn: string;
  client: string;
  server: string;
  fromMs: number;
  /** When the connection ended; null if still open at the end of the capture. */
  toMs: number | null;
  /** fin, rst, capture-end, proxy… */
  endReason: string | null;
  /** True when this connection resumed an existing session (its connect request carried the session id). */
  resumed: boolean;
}

/** A stretch with no frame in either direction longer than a third of the session timeout. */
export interface Silence {
  conn: string;
  fromMs: number;
  toMs: number;
  ms: number;
}

export type SessionEnd =
  | { kind: 'closed'; atMs: number }
  | { kind: 'expired'; atMs: number; how: string }
  | { kind: 'open' }
  | { kind: 'disconnected'; atMs: number };

export interface SessionReport {
  id: string;
  /** Negotiated timeout (ms) from the connect response. */
  timeoutMs: number | null;
  /** First and last time this session was seen. */
  fromMs: number;
  toMs: number;
  connections: SessionConnection[];
  /** Reconnects that resumed this session (connections after the first). */
  reconnects: number;
  /** Connections that ended while the session lived on (or at least was not closed). */
  disconnects: number;
  pingMs: { count: number; p50: number; p99: number } | null;
  silences: Silence[];
  end: SessionEnd;
  /** Ephemeral nodes created by this session (the actual paths from the replies). */
  ephemerals: { path: string; atMs: number; deletedAtMs: number | null }[];
  requests: number;
}

export type WatchKind = 'data' | 'exists' | 'child' | 'persistent' | 'persistent-recursive';

export interface WatchReport {
  session: string;
  kind: WatchKind;
  path: string;
  setMs: number;
  /** The notification that fired it, or null while still armed / removed. */
  fired: { atMs: number; event: string; path: string; latencyMs: number } | null;
  /** Why it is no longer armed without firing: session ended, lost on reconnect, … */
  dropped: string | null;
}

/** A watch the session had armed when it reconnected, not listed in the setWatches of the new connection. */
export interface LostWatch {
  session: string;
  kind: WatchKind;
  path: string;
  reconnectMs: number;
  conn: string;
}

/** One change that notified many sessions at once. */
export interface Herd {
  path: string;
  event: string;
  atMs: number;
  sessions: number;
  /** First to last notification of the group. */
  spreadMs: number;
}

export interface WatchesReport {
  set: number;
  fired: number;
  armedAtEnd: number;
  list: WatchReport[];
  /** List entries left out to bound memory (counts above stay exact). */
  omitted: number;
  notRestored: LostWatch[];
  herds: Herd[];
  /** Set → fire latency of the watches that fired. */
  fireLatencyMs: LatencySummary | null;
}

/** `leader-latch` directories are reported as leaders (`AnalysisReport.leaders`), not as locks. */
export type LockKind = 'mutex' | 'read-write' | 'semaphore-leases' | 'leader-latch';

export interface LockHolder {
  node: string;
  session: string;
  /** 'read' or 'write' for a read/write lock, 'exclusive' for a mutex, 'lease' for a semaphore lease. */
  mode: 'exclusive' | 'read' | 'write' | 'lease';
  fromMs: number;
  /** Null while still held at the end of the capture. */
  toMs: number | null;
  /** How it ended: deleted, session closed, session expired, lost (node vanished while its owner was away)… */
  how: string | null;
  /** The previous holder's release → this holder's getChildren reply, when it was waiting. */
  handoffMs: number | null;
}

export interface LockWait {
  waiter: string;
  waiterSession: string;
  watched: string;
  atMs: number;
}

export interface LockViolation {
  a: { node: string; session: string; mode: string };
  b: { node: string; session: string; mode: string };
  fromMs: number;
  toMs: number;
}

export interface LockReport {
  dir: string;
  recipe: string;
  kind: LockKind;
  contenders: number;
  holders: LockHolder[];
  waits: LockWait[];
  /** Contender nodes left behind: owner session ended but the node was still listed, or alive at the end. */
  orphans: { node: string; session: string; why: string }[];
  violations: LockViolation[];
  handoffMs: LatencySummary | null;
}

/** One leader's term: from when it learned it led to when that ended. */
export interface LeaderTerm {
  node: string;
  session: string;
  /** The client address of the session's connection at the start of the term (null if unknown). */
  client: string | null;
  fromMs: number;
  /** Null while still leading at the end of the capture. */
  toMs: number | null;
  /** What ended it: its node deleted (the latch closed, or the leader let go), session closed or expired, lost… */
  ended: string | null;
}

/** A stretch with no leader between two terms, or after the last one ended. */
export interface LeaderGap {
  fromMs: number;
  /** Null when nobody led again before the end of the capture. */
  toMs: number | null;
  /** The leader before the gap and the one after it. */
  after: string;
  before: string | null;
}

export interface LeaderReport {
  path: string;
  /**
   * `latch` for LeaderLatch nodes (certainly an election); `mutex` for a lock whose nodes are also those of Curator's
   * LeaderSelector or kazoo's Election (the names cannot tell them apart: its holders are its leaders if it is one).
   */
  basis: 'latch' | 'mutex';
  recipe: string;
  candidates: number;
  terms: LeaderTerm[];
  gaps: LeaderGap[];
  /** Two leaders at once (from the lock's violations). */
  overlaps: LockViolation[];
}

export type GuardrailKind =
  | 'near-max-buffer'
  | 'huge-children'
  | 'reply-out-of-order'
  | 'request-after-close'
  | 'unanswered'
  | 'slow-reply'
  | 'gap'
  | 'undecodable'
  | 'unmatched-reply';

export interface GuardrailFinding {
  kind: GuardrailKind;
  atMs: number;
  conn: string;
  session: string | null;
  op: string | null;
  path: string | null;
  detail: string;
}

export interface GuardrailsReport {
  /** Counts by kind (exact, even when the list is cut). */
  counts: Partial<Record<GuardrailKind, number>>;
  findings: GuardrailFinding[];
  omitted: number;
}

export interface AnalysisReport {
  /** Absolute time of the first event, µs since the epoch (0 when the capture has no times). */
  startUs: number;
  durationMs: number;
  connections: number;
  frames: number;
  options: { depth: number; slowMs: number; maxBuffer: number };
  ops: OpsReport;
  sessions: SessionReport[];
  watches: WatchesReport;
  /** Lock directories (LeaderLatch directories are under `leaders`). */
  locks: LockReport[];
  leaders: LeaderReport[];
  guardrails: GuardrailsReport;
  /** Present when a data directory was given: the transactions linked to the capture's sessions by session id. */
  transactions?: TransactionsReport;
}

/**
 * One change to a node, from the server's transaction log, with the client address of the session that made it
 * when that session is in the capture (`analyze --data-dir`).
 */
export interface TxnChange {
  /** The transaction's zxid, hex as ZooKeeper logs it. */
  zxid: string;
  /** When the leader logged it, ms since the start of the capture (negative before it), and as an ISO time. */
  atMs: number;
  time: string;
  session: string;
  /** The client address of the session's connection at that time; null when the session is not in the capture. */
  client: string | null;
  /** The transaction's op (`create`, `setData`, `delete`, `multi`, `closeSession`, …). */
  op: string;
  /** What it did to the node: created, changed, acl-changed, deleted, deleted-with-session. */
  change: string;
  path: string;
  /** Ephemeral, container, the TTL… */
  detail: string | null;
}

export interface TransactionsReport {
  /** The data directory (or log files) read. */
  source: string;
  /** The --path asked about, or null: then only the changes of the capture's sessions are listed. */
  path: string | null;
  /** Transactions read from the logs (each zxid once, when several members' logs hold it). */
  scanned: number;
  /** Of them, made by a session seen in the capture. */
  fromCapture: number;
  changes: TxnChange[];
  /** Changes left out of the list to bound memory (the count above stays exact). */
  omitted: number;
}
