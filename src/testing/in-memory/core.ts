/**
 * What the in-memory server's connections and request handlers share: the tree, the watches, the sessions, the
 * zxid counter and the server's time, and the transactions every write goes through. A transaction takes the
 * next zxid even when it fails, as ZooKeeper logs a failed write as an error transaction.
 */

import type { Session, SessionTracker } from './sessions.js';
import type { DataTree, TreeEvent } from './data-tree.js';
import type { VersionBehaviour } from './version.js';
import type { WatchManager } from './watch-manager.js';

/** The server settings a connection applies. */
export interface CoreSettings {
  readonly minSessionTimeoutMs: number;
  readonly maxSessionTimeoutMs: number;
  /** The largest frame payload accepted (jute.maxbuffer). */
  readonly maxBufferBytes: number;
  /** `super:BASE64(SHA1(super:password))`: the digest identity that passes every ACL check, if any. */
  readonly superDigest: string | undefined;
}

/** The connection side of a session: what the core needs from it. */
export interface SessionConnection {
  /** Closes the connection (the client sees it drop); pending replies go out first. */
  close(): void;
}

export interface ServerCore {
  readonly tree: DataTree;
  readonly watches: WatchManager;
  readonly sessions: SessionTracker;
  readonly settings: CoreSettings;
  /** The behaviours of the ZooKeeper version the server reproduces. */
  readonly behaviour: VersionBehaviour;
  /** The zxid of the last transaction. */
  readonly lastZxid: bigint;
  /** Takes the next zxid. */
  nextZxid(): bigint;
  /** Server time (ms): its clock plus what `advance` added. */
  now(): number;
  /** Fires the watches of a committed change. */
  commit(events: readonly TreeEvent[]): void;
  /** The connection a session is attached to now. */
  connectionOf(sessionId: bigint): SessionConnection | undefined;
  attach(sessionId: bigint, connection: SessionConnection | undefined): void;
  /** Ends a session in a closeSession transaction of zxid `zxid`: its ephemeral nodes go, their watches fire. */
  endSession(session: Session, zxid: bigint): void;
}
