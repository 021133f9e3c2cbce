/** What a request handler of the in-memory server sees: the tree, the watches, and who is asking. */

import type { Id } from '../../protocol/records/acl.js';
import type { DataTree } from './data-tree.js';
import type { VersionBehaviour } from './version.js';
import type { Watcher, WatchManager } from './watch-manager.js';

export interface RequestContext {
  readonly tree: DataTree;
  readonly watches: WatchManager;
  /** The session the request came in on. */
  readonly sessionId: bigint;
  /** The connection's identities (ip, digest, …). */
  readonly identities: readonly Id[];
  /** Whether the connection authenticated as the server's super user. */
  readonly superUser: boolean;
  /** The connection, as the watcher its watches notify. */
  readonly watcher: Watcher;
  /** The behaviours of the ZooKeeper version the server reproduces. */
  readonly behaviour: VersionBehaviour;
}

/** A write's context: also its transaction's zxid and time. */
export interface WriteContext extends RequestContext {
  readonly zxid: bigint;
  /** The transaction's wall time (ms), for ctime and mtime. */
  readonly time: bigint;
}
