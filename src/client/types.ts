/** The public types of the client API. */

import type { Stat } from '../protocol/index.js';
import type { Clock } from '../session/clock.js';
import type { Resolver } from '../session/resolve.js';
import type { RetryPolicy } from '../session/retry-policy.js';
import type { SaslMechanism } from '../session/sasl-login.js';
import type { FrameListener } from '../session/trace.js';
import type { WatchEvent } from '../session/watches.js';
import type { TlsOptions, Transport } from '../transport/types.js';
import type { ACL } from './acl.js';
import type { CreateMode } from './create-mode.js';

export type { Stat } from '../protocol/index.js';
export type { TlsOptions } from '../transport/types.js';
export type { WatchEvent, WatchEventType, WatchKeeperState } from '../session/watches.js';
export type { Resolver } from '../session/resolve.js';

/** Node data as given by callers: bytes, or a string sent as UTF-8. */
export type Data = Uint8Array | string;

/** Options of `connect` and the `ZooKeeperClient` constructor. */
export interface ClientOptions {
  /** Requested session timeout, default 30 000 ms (the server clamps it to [2, 20] ticks). */
  readonly sessionTimeoutMs?: number;
  /** The byte-stream transport. The Node entry point supplies node:net by default. */
  readonly transport?: Transport;
  /**
   * Speak TLS (to a server's secureClientPort): `true` for the runtime's trusted roots, or PEM `ca`, a client
   * certificate `cert` with its `key` (for `ssl.clientAuth=need` and x509 ACLs) and a `servername`. Applied through
   * the transport's `withTls`: node:tls on Node, Bun and Deno (all fields; `denoTransport()` all but servername),
   * `secureTransport: 'on'` on workerd stream sockets (no CA, no client certificate). A certificate either side
   * refuses makes `connect()` reject at once with TLS_ERROR, as does a TLS-only server met without this option.
   */
  readonly tls?: boolean | TlsOptions;
  /** Accept read-only servers (state `connected-read-only`; writes then fail with NOTREADONLY). */
  readonly canBeReadOnly?: boolean;
  /** Largest frame accepted from a server, default DEFAULT_MAX_FRAME_SIZE. */
  readonly maxFrameSize?: number;
  /**
   * Largest node data sent; more is refused before sending with BAD_ARGUMENT. Default DEFAULT_MAX_DATA_SIZE,
   * 1 048 526 bytes: what a server at the default jute.maxbuffer (0xfffff) accepts in a create of a short path
   * with the open ACL (0xfffff less 49 bytes for the rest of that request). A request whose frame would still
   * pass the server's limit (a long path, a large ACL) is refused too, rather than sent to a server that would
   * drop the connection. Raise it only for servers started with a larger jute.maxbuffer (by as much).
   */
  readonly maxDataSize?: number;
  /**
   * Reports every frame sent and received, as bytes; wrap the listener in `describeFrames` to get each frame
   * decoded (op, xid, records, a one-line summary).
   */
  readonly onFrame?: FrameListener;
  /**
   * When to reconnect after the link ends, in the recipes' retry vocabulary (`exponentialBackoff`, `retryForever`,
   * `retryNTimes`, `retryUntilElapsed`, `noRetry`). The policy is asked before the first reconnect and after each
   * pass over the hosts that found no server (`retryCount` = passes so far); hosts inside a pass are tried without a
   * pause. When it gives up, the client ends in state `closed` and its calls fail with CONNECTIONLOSS. Default:
   * forever, 100–200 ms before the first reconnect, then doubling up to 500–1000 ms; but before the first session,
   * two passes in a row in which every host refused the connection or was not ZooKeeper end the client (docs/client.md).
   */
  readonly reconnect?: RetryPolicy;
  /** Credentials sent on every connection, e.g. `[{scheme: 'digest', auth: 'user:password'}]`. */
  readonly authInfo?: readonly { readonly scheme: string; readonly auth: Data }[];
  /**
   * SASL authentication on every connection, before anything else: `saslDigestMd5({ username, password })` against
   * servers with a JAAS DigestLoginModule. The session's identity is then `sasl:<username>`. A refused login ends
   * the session with AUTHFAILED. Kerberos: `saslGssapi({ principal, password })` from `zkwire/kerberos`.
   */
  readonly sasl?: SaslMechanism;
  /** ACL for nodes created without one, default OPEN_ACL_UNSAFE. */
  readonly defaultAcl?: readonly ACL[];
  /**
   * How long close() waits for the server to confirm closeSession; also how long it first waits for the guaranteed
   * deletes still owed (default 2 s for those).
   */
  readonly closeTimeoutMs?: number;
  /** `connect()` gives up (TIMEOUT) when no session is established within this time; default the session timeout. */
  readonly connectTimeoutMs?: number;
  /** Cancels `connect()`. */
  readonly signal?: AbortSignal;
  /**
   * Open a new session by itself when the session expires (default true), as Curator and kazoo do: the expiry is
   * reported (LOST), calls in flight fail with SESSIONEXPIRED, later calls wait for the new session, and its first
   * connection is RECONNECTED with `newSession: true`. False makes an expiry end the client, as a close does.
   */
  readonly renewSession?: boolean;
  /** Resume an existing session (with its password) instead of creating a new one. */
  readonly sessionId?: bigint;
  readonly sessionPassword?: Uint8Array;
  /**
   * The ZooKeeper version every server of the ensemble runs (e.g. "3.8.4"), when known: the client then refuses ops
   * newer than it without asking a server. By default it asks each connection's server (`srvr`, then `envi`, on a
   * side connection) the first time an op newer than 3.5 is sent.
   */
  readonly serverVersion?: string;
  /**
   * Follow the ensemble's membership (default true), as Curator's EnsembleTracker: the client reads
   * /zookeeper/config on each new session and after each `reconfig`, and makes its members the server list
   * (`updateServerList`), so it keeps its session when members are added, replaced or removed, and learns the
   * members its connect string left out. Servers with nothing to follow (standalone, 3.4) cost one read per
   * session. Turn it off for clients that must only use the addresses they were given (behind a load balancer or
   * a proxy, or when the members' configured client addresses are not reachable from the client).
   */
  readonly trackEnsemble?: boolean;
  /**
   * Resolves each host name before each connect attempt, so a name whose addresses change is followed; one of the
   * addresses it gives is picked at random. Default: the transport's own (`nodeTransport`, the Node entry's default,
   * resolves with node:dns as `nodeResolver`); a transport without one is handed the name as given. Also a hook for
   * custom discovery and tests. The web and Deno transports dial a resolved address over plain TCP only (under TLS
   * they need the name).
   */
  readonly resolver?: Resolver;
  /**
   * Retries for every call, in the same vocabulary as `reconnect` (`exponentialBackoff`, `retryNTimes`,
   * `retryUntilElapsed`, `retryForever`, `noRetry`); a call's own `retry` option overrides it. Default: no retry, so
   * a call fails with CONNECTIONLOSS as it always has, and the recipes (which retry for themselves) are not retried
   * twice. Which calls retry, and how idempotent writes settle, is in docs/client.md ("Retries").
   */
  readonly retry?: RetryPolicy;
  /**
   * A call whose request was written and got no answer in this time fails with REQUESTTIMEOUT, and the connection is
   * dropped as suspect (its other calls fail with CONNECTIONLOSS) and the session reconnects, as ZooKeeper's Java
   * client does with `zookeeper.request.timeout`. Checked every quarter of it: a call fails after 1 to 1.25 times
   * this. Default: none (a call waits as long as the link stays up).
   */
  readonly requestTimeoutMs?: number;
  /**
   * Compressed node data, as Curator's `compressionProvider(...)` and `enableCompression()`:
   * `compressWith(GzipCompression)` (GzipCompression from `zkwire/recipes` writes what Curator's
   * GzipCompressionProvider does) for the calls that say `compressed: true` / `decompressed: true`,
   * `compressWith(provider, { enabled: true })` for every create, setData and getData. See docs/client.md.
   */
  readonly compression?: Compression;
  /** Injected time source (tests). */
  readonly clock?: Clock;
  /** Randomness for host shuffling and rebalancing (tests). */
  readonly random?: () => number;
  /**
   * The ACL of every node created without one (Curator's ACLProvider): called with the node's path (relative to
   * the chroot, with a namespace's prefix, before any sequence suffix) by every create that names no ACL, parents
   * and recipes' nodes included; `undefined` means `defaultAcl`.
   */
  readonly aclProvider?: AclProvider;
  /**
   * False: parents are never made as containers (Curator's dontUseContainerParents), for servers or policies that
   * forbid them: `parents: 'containers'`, mkdirp's `containers` and the recipes' directories then make persistent
   * nodes, which stay until deleted. An explicit `mode: 'container'` is still a container. Default true.
   */
  readonly containers?: boolean;
  /**
   * Count every call for `stats()` and publish on the `zkwire:*` diagnostics channels (docs/observability.md).
   * Default true; false takes the hook out of the call path altogether (then `stats()` counts no calls).
   */
  readonly observe?: boolean;
}

/** `aclProvider`: the ACL for a node created at `path` without one; `undefined` for the client's `defaultAcl`. */
export type AclProvider = (path: string) => readonly ACL[] | undefined;

/** Options every operation accepts. */
export interface CallOptions {
  /** Cancels the call (ABORTED); undefined is the same as none. */
  readonly signal?: AbortSignal | undefined;
  /** This call's retries, instead of the client's `retry` option (`noRetry` turns them off for the call). */
  readonly retry?: RetryPolicy | undefined;
}

/** Options of `create`. */
export interface CreateOptions extends CallOptions {
  /** Default `persistent`. */
  readonly mode?: CreateMode;
  readonly acl?: readonly ACL[] | undefined;
  /** Required for the ttl modes: ms of inactivity (no children, no change) after which the node goes. */
  readonly ttl?: number | undefined;
  /** Ask for the new node's Stat too (create2); then the result is `{path, stat}`. */
  readonly stat?: boolean;
  /**
   * When a retry after a lost reply finds the node, settle as created if it holds our data at version 0 (and, for an
   * ephemeral, this session as its owner) instead of failing with NODEEXISTS (Curator's idempotent create).
   */
  readonly idempotent?: boolean | undefined;
  /**
   * Make missing ancestors first, in the same round trip: `true` as persistent nodes, `'containers'` as containers
   * (persistent where the server has none or the client's `containers` is false). They get `acl` when given, else
   * the ACL the client's `aclProvider` (or `defaultAcl`) gives for their own path; existing ones are left alone.
   */
  readonly parents?: boolean | 'containers' | undefined;
  /**
   * When the node exists, set its data instead (Curator's orSetData): a create, then a setData on NODEEXISTS. Then
   * the result is the path given and, with `stat: true`, the Stat setData returned; the node's ACL is left as it
   * is. Not with sequential modes or `protected`, whose names never exist already (BAD_ARGUMENT).
   */
  readonly orSetData?: boolean | undefined;
  /**
   * Name the node `<parent>/_c_<uuid>-<name>` (Curator's protection mode), so that a create whose reply is lost is
   * found again: after a CONNECTIONLOSS the client waits for the connection, lists the parent for its uuid, and
   * resolves with the node it made (for an ephemeral, made by this session) or creates it again, never twice. A
   * uuid instead of `true` is the id to use (to find the node yourself if you abandon the call with its signal).
   */
  readonly protected?: boolean | string | undefined;
  /**
   * Write the data compressed with the client's `compression` provider (Curator's `.compressed()`); default: the
   * option's `enabled`. BAD_ARGUMENT when the client has no `compression` option.
   */
  readonly compressed?: boolean | undefined;
}

/** What `create` resolves with when asked for the stat: the created path (with its sequence suffix) and its stat. */
export interface Created {
  /** The created path (with the sequence suffix for sequential modes). */
  readonly path: string;
  readonly stat: Stat;
}

/** Options of the operations that take an expected version (`setData`, `delete`, `setACL`). */
export interface VersionOptions extends CallOptions {
  /** Expected version; -1 (default) matches any. */
  readonly version?: number;
  /**
   * The write may be sent again after a lost reply even without a version, and a retry that finds it already
   * applied succeeds: a delete that finds no node, a versioned setData that finds our data one version on.
   */
  readonly idempotent?: boolean | undefined;
}

/** Options of `delete`. */
export interface DeleteOptions extends VersionOptions {
  /**
   * Keep trying in the background, across reconnects and new sessions, until the node is gone (a missing node counts
   * as deleted); the promise settles then. `close()` waits for it a bounded time (`closeTimeoutMs`, default 2 s); one
   * not done by then rejects with CLOSED naming its path.
   */
  readonly guaranteed?: boolean | undefined;
}

/** Options of `setData`. */
export interface SetDataOptions extends VersionOptions {
  /** Write the data compressed, as `create`'s `compressed` (Curator's `.compressed()`). */
  readonly compressed?: boolean | undefined;
}

/** Options of `getData`. */
export interface GetDataOptions extends WatchOptions {
  /**
   * Hand out the data decompressed with the client's `compression` provider (Curator's `.decompressed()`); default:
   * the option's `enabled`. Data that is not what the provider writes rejects the read (MARSHALLINGERROR with gzip).
   */
  readonly decompressed?: boolean | undefined;
}

/** Options of the reads that can set a one-shot watch (`exists`, `getData`, `getChildren`). */
export interface WatchOptions extends CallOptions {
  /** Leave a one-shot watch: the result then carries `watch`, a promise of the first event. */
  readonly watch?: boolean;
}

/** The one-shot watch a read set: `watch` resolves with the event that fires it. */
export interface Watched {
  /**
   * Resolves with the first event for the node (or a final `None` event with state Expired / Closed /
   * AuthFailed when the session ends first). Never rejects.
   */
  readonly watch: Promise<WatchEvent>;
}

/** A node's data and stat, as `getData` returns them. */
export interface NodeData {
  /** The data (empty when the node's data is null). */
  readonly data: Uint8Array;
  readonly stat: Stat;
}

/** A node's children with the parent's stat, as `getChildrenWithStat` returns them. */
export interface ChildrenWithStat {
  readonly children: string[];
  readonly stat: Stat;
}

/** The mode of a persistent watch: on the node only, or on the node and its whole subtree. */
export type AddWatchMode = 'persistent' | 'persistent-recursive';

/**
 * Which watches `removeWatches` (and `checkWatches`) concern: child watches, data watches, every kind (`any`), or
 * (ZooKeeper 3.9 and later) only the persistent or only the persistent-recursive watch, leaving one-shot watches on
 * the same path in place. The last two fail with UNIMPLEMENTED, unsent, on an older server.
 */
export type RemoveWatchType = 'children' | 'data' | 'any' | 'persistent' | 'persistent-recursive';

/** One identity the server associates with the session, as `whoAmI` reports it. */
export interface ClientIdentity {
  readonly scheme: string;
  readonly user: string;
}

/**
 * A dynamic reconfiguration (ZooKeeper 3.5+, `reconfigEnabled=true`). Incremental: `joining` server specs
 * (`server.4=host:quorumPort:electionPort[:role];[clientHost:]clientPort`) and/or `leaving` server ids. Bulk:
 * `newMembers`, the whole new membership as server specs.
 */
export interface ReconfigChange extends CallOptions {
  readonly joining?: string | readonly string[];
  readonly leaving?: string | readonly (string | number)[];
  readonly newMembers?: string | readonly string[];
  /**
   * Apply only if the current configuration has this version (getConfig's `version=` line, hex, or a bigint);
   * BADVERSION otherwise. Default: whatever is current.
   */
  readonly fromConfig?: bigint | number | string;
}

/** Options of `mkdirp`. */
export interface MkdirpOptions extends CallOptions {
  /** Create missing parents as containers (removed by the server once empty) instead of persistent nodes. */
  readonly containers?: boolean;
  readonly acl?: readonly ACL[];
  /** Data for the last node (parents get none). */
  readonly data?: Data;
}

/** Curator's CompressionProvider: compress before a write, decompress after a read. */
export interface CompressionProvider {
  /** The bytes to write at `path` for `data`. */
  compress(path: string, data: Uint8Array): Promise<Uint8Array>;
  /** The data in the bytes read at `path` (MARSHALLINGERROR when they are not what compress writes). */
  decompress(path: string, data: Uint8Array): Promise<Uint8Array>;
}

/** Options of `compressWith`. */
export interface CompressionOptions {
  /**
   * Curator's `enableCompression()`: every create and setData (multi's included) compresses and every getData
   * (multiRead's included) decompresses, unless the call says `compressed: false` / `decompressed: false`. Default
   * false: only the calls that say `compressed: true` / `decompressed: true` do.
   */
  readonly enabled?: boolean;
}

/**
 * The client's `compression` option, as `compressWith` makes it: the client calls it with its context, once (the
 * hook that binds the compression to the client; not for applications to call).
 */
export type Compression = (context: object) => void;
