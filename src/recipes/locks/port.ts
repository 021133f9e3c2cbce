/**
 * The few client operations the lock recipes are built from, in the shape the recipes want them. The one
 * implementation (client-port.ts) maps them onto the public ZooKeeperClient API; keeping the list here makes
 * plain what a lock costs on the wire and keeps the recipe code free of option plumbing.
 */

import type { OpResult, WriteOp } from '../../client/multi.js';
import type { Clock } from '../../session/clock.js';

/** The parts of a Stat the recipes read (the port hands over the client's Stat itself). */
export interface NodeStamp {
  /** Zxid of the create: strictly increasing over the life of the ensemble, hence the fencing token. */
  readonly czxid: bigint;
  /** Session that owns the node (0 for persistent nodes). */
  readonly ephemeralOwner: bigint;
  readonly version: number;
}

/** A one-shot watch left by a read. */
export interface PortWatch {
  /** Resolves on the first event (session ends arrive as events too); never rejects. */
  readonly fired: Promise<{ readonly type: string; readonly state: string }>;
  /**
   * Takes the watch back (locally, and on the server when nothing else in this client watches the path). While
   * disconnected the removal is queued behind the reconnect (which re-arms the watch) and resolves at once.
   */
  remove(): Promise<void>;
}

/** Curator-style connection events the lock-lost signal listens to. */
export type PortConnectionEvent = 'SUSPENDED' | 'RECONNECTED' | 'LOST';

/** One write of a guarded multi: the client's multi() op, passed through untouched. */
export type PortWriteOp = WriteOp;

/**
 * Every call that an acquire makes takes the acquire's AbortSignal: a request still queued (while disconnected)
 * is taken back at once, and one already sent rejects with ABORTED without waiting for its reply.
 */
export interface LockPort {
  readonly clock: Clock;
  /** The current session id (0n before the first connection). */
  sessionId(): bigint;
  /** True while connected to a server with the session alive. */
  isConnected(): boolean;
  /** True once the session has ended for good (expired, closed, auth failed). */
  isSessionLost(): boolean;
  /** Why the session ended, as an error code (meaningful once isSessionLost()). */
  sessionEndCode(): 'SESSIONEXPIRED' | 'CLOSED' | 'AUTHFAILED';
  /** Resolves when connected; rejects once the session is lost or `signal` fires. */
  waitConnected(signal?: AbortSignal): Promise<void>;
  /** Calls `listener` on every later connection event; returns the unsubscribe function. */
  onConnectionEvent(listener: (event: PortConnectionEvent) => void): () => void;

  /**
   * Sends an ephemeral-sequential create and, in the same tick so both go out in one write, a getChildren of
   * the parent. The session answers a client's requests in order, so the listing includes our new node.
   */
  createSequentialAndList(
    path: string,
    parent: string,
    data: Uint8Array,
    signal?: AbortSignal,
  ): { readonly created: Promise<{ path: string; stamp: NodeStamp }>; readonly children: Promise<string[]> };
  /** Creates `path` and any missing ancestors as containers (existing nodes are fine). */
  ensureContainers(path: string, signal?: AbortSignal): Promise<void>;
  getChildren(path: string, signal?: AbortSignal): Promise<string[]>;
  /** getChildren leaving a child watch. */
  getChildrenWatch(path: string, signal?: AbortSignal): Promise<{ children: string[]; watch: PortWatch }>;
  /** getData leaving a data watch (none is left when the node does not exist: NONODE). */
  getDataWatch(path: string, signal?: AbortSignal): Promise<{ data: Uint8Array; watch: PortWatch }>;
  /** The node's stamp, or undefined when it does not exist. */
  stamp(path: string, signal?: AbortSignal): Promise<NodeStamp | undefined>;
  delete(path: string): Promise<void>;
  /** A check that `path` exists (any version), to put in front of guarded writes. */
  checkOp(path: string): PortWriteOp;
  multi(ops: readonly PortWriteOp[]): Promise<OpResult[]>;
}
