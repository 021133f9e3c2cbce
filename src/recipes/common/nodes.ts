/**
 * The node operations every recipe stands on, over the public client API only (Curator's framework does the same
 * for its recipes): the locks, the semaphore, the leader latch and the kept-alive nodes all create, list and delete
 * through here.
 *
 *  - a protected create: a sequential node under `_c_<uuid>-` (Curator's protection mode), the parent made as
 *    containers when missing. A create whose reply was lost may or may not have happened, so before creating again
 *    we list the parent for our uuid and check the node's `ephemeralOwner` is this session: we never leave a
 *    second node behind (an orphan that would block a lock for the rest of our session), and never take an older
 *    session's node for ours. It is bounded (the retry policy, with jitter, between tries; a few directory
 *    creations at most), a failure to make the parent that no retry can fix (NOAUTH, …) is thrown, and the
 *    caller's AbortSignal stops it between steps and takes back a request in flight. If the caller gives up while
 *    a create's outcome is unknown, the search for it and its delete go on in the background.
 *  - the create can take a listing of the parent in the same tick, so both leave in one write and are answered in
 *    order: an uncontended lock costs one round trip.
 *  - idempotent reads retried across broken connections while the session lives, under the retry policy.
 *  - guaranteed deletes: retried after every reconnect until the node is gone or the session has ended (which
 *    removes an ephemeral node too); a recipe's close() awaits its delete only while the link answers and leaves
 *    the rest to the background (deleteOnClose), so close() settles promptly with the client disconnected.
 */

import type { ZooKeeperClient } from '../../client.js';
import type { CreateMode } from '../../client/create-mode.js';
import type { Stat } from '../../client/types.js';
import { isCode, isSessionLost } from '../../errors.js';
import { systemClock, type Clock } from '../../session/clock.js';
import { exponentialBackoff, type RetryPolicy } from '../../session/retry-policy.js';
import { sleep } from '../retry.js';
import { cleanupBackoff } from './backoff.js';
import { isConnected, isSessionRenewed, retryableOn, settledWhileConnected } from './connection.js';
import { createWithStat, lacksCreate2 } from './compat-create.js';
import { aborted, badArgument } from './errors.js';
import { oneShotWatch, type OneShotWatch } from './watches.js';
import { findProtectedChild, isValidNodePath, joinPath, newProtectedId } from './znode-names.js';

export { joinPath, nodeName, parentPath } from './znode-names.js';
export { sortSequential } from './sequence.js';

/** Containers removed under us this many times in a row means something else is wrong. */
const MAX_DIRECTORY_CREATES = 5;

/** Refuses a path ZooKeeper would refuse (or the root) before anything is sent. */
export function checkRecipePath(path: string, what: string): void {
  if (typeof path !== 'string' || !isValidNodePath(path) || path === '/') {
    throw badArgument(what, String(path), 'not a valid absolute node path (and not the root)');
  }
}

/**
 * Creates `path` and its missing ancestors as containers, as Curator's creatingParentContainersIfNeeded does, so
 * the server removes a recipe directory once it is empty: the client's create with `parents: 'containers'`, one
 * round trip; persistent nodes on a server without containers (3.4, as Curator 4 makes them there) or a client
 * with `containers: false`. An existing node is fine; any other failure (NOAUTH, say) is thrown.
 */
export async function ensureContainers(client: ZooKeeperClient, path: string, signal?: AbortSignal): Promise<void> {
  try {
    await client.create(path, null, { mode: 'container', parents: 'containers', signal });
  } catch (err) {
    if (!isCode(err, 'NODEEXISTS')) throw err;
  }
}

/** The children of `path`, [] when it does not exist. */
export async function childrenOrEmpty(client: ZooKeeperClient, path: string, signal?: AbortSignal): Promise<string[]> {
  try {
    return await client.getChildren(path, { signal });
  } catch (err) {
    if (isCode(err, 'NONODE')) return [];
    throw err;
  }
}

/** What a protected create made. */
export interface CreatedNode {
  readonly path: string;
  readonly stat: Stat;
  /** The parent's children as listed right behind the create (when asked for and that listing succeeded). */
  readonly children: string[] | undefined;
}

/** How a protected create makes its node. */
export interface ProtectedCreateOptions {
  /** Default `ephemeral-sequential`. */
  readonly mode?: CreateMode;
  readonly ttlMs?: number | undefined;
  /** List the parent in the same write as the create (CreatedNode.children). */
  readonly list?: boolean;
  /** Runs right after the create (and listing) are queued: what it queues leaves in the same write, behind them. */
  readonly alongside?: () => void;
}

/** A try that made no node, so the create may be tried again with the same protection id. */
export interface NotCreated {
  /** NONODE: the parent is missing. */
  readonly failed: unknown;
}

/** Options of the foundation. */
export interface NodeOpsOptions {
  /** Between retries of a create or a read (default exponentialBackoff()). */
  readonly retry?: RetryPolicy;
  readonly clock?: Clock;
}

export class NodeOps {
  readonly client: ZooKeeperClient;
  readonly clock: Clock;
  readonly #retry: RetryPolicy;

  constructor(client: ZooKeeperClient, options: NodeOpsOptions = {}) {
    this.client = client;
    this.clock = options.clock ?? systemClock;
    this.#retry = options.retry ?? exponentialBackoff();
  }

  /**
   * Creates `<dir>/_c_<uuid>-<name><seq>`, trying again while the directory is missing (made as containers) or the
   * reply was lost and the create did not happen. Between lost replies it backs off under the retry policy; a
   * directory that keeps vanishing is made at most a few times, with back-off after the first. `signal` stops it
   * between steps and takes back a request in flight; a node that was made is then deleted in the background.
   */
  async createProtected(dir: string, name: string, data: Uint8Array, signal: AbortSignal | undefined, options: ProtectedCreateOptions = {}): Promise<CreatedNode> {
    const protectedId = newProtectedId();
    const started = this.clock.now();
    for (let missingDirectory = 0; ; ) {
      const made = await this.tryCreateProtected(dir, name, protectedId, data, signal, options);
      if (!('failed' in made)) return made;
      // The directory is missing (first use, or the server just removed the empty container): make it. A parent
      // that cannot be made throws here (NOAUTH, …); one that keeps vanishing is a fault, bounded and backed off.
      if (missingDirectory >= MAX_DIRECTORY_CREATES) throw made.failed;
      if (missingDirectory++ > 0) await this.#backOff(missingDirectory - 1, started, made.failed, signal);
      await this.makeDirectory(dir, signal);
      if (signal?.aborted === true) throw aborted(signal, 'create', dir);
    }
  }

  async #backOff(retryCount: number, started: number, failure: unknown, signal: AbortSignal | undefined): Promise<void> {
    const delay = this.#retry.nextDelay(retryCount, this.clock.now() - started);
    if (delay === undefined) throw failure;
    await sleep(delay, this.clock, signal);
  }

  /**
   * One try of a protected create (the client's `protected` option, which finds the node again after a lost reply),
   * with a listing of `dir` behind it when `options.list`. Resolves to our node, or to NONODE (the directory is
   * missing: nothing was made, so the create may be tried again with the same `protectedId`). Any other error
   * rejects; after an abort, or a loss the client gave up on, the node, if made, is found and deleted in the
   * background.
   */
  async tryCreateProtected(
    dir: string,
    name: string,
    protectedId: string,
    data: Uint8Array,
    signal: AbortSignal | undefined,
    options: ProtectedCreateOptions = {},
  ): Promise<CreatedNode | NotCreated> {
    const mode = options.mode ?? 'ephemeral-sequential';
    // Both queue synchronously, so they leave in the same write and are answered in this order: the listing
    // includes our new node.
    // Without create2 (3.4) the stat is read after the create: a listing queued now would be answered before our node
    // existed, so none is made and the caller lists for itself.
    const viaRead = (): boolean => lacksCreate2(this.client);
    const created = createWithStat(this.client, joinPath(dir, name), data, { mode, ttl: options.ttlMs, signal, protected: protectedId, stat: true });
    const children = options.list === true && !viaRead() ? this.client.getChildren(dir, { signal }) : undefined;
    children?.catch(() => undefined);
    options.alongside?.();
    try {
      const node = await created;
      return { path: node.path, stat: node.stat, children: viaRead() ? undefined : await children?.catch(() => undefined) };
    } catch (err) {
      if (isCode(err, 'NONODE')) return { failed: err };
      // Taken back before it was sent, nothing was made; aborted while awaiting its reply (or lost too often), the
      // node may exist with a name we never learnt. Either way the caller leaves now (its deadline holds even on a
      // frozen link), and the protection prefix finds the node (behind the create, in this session's order) to
      // delete it, in the background: a recipe whose close() must leave nothing waits for it with cleanupsSettled().
      if (isCode(err, 'ABORTED') || retryableOn(this.client, err)) void this.#findAndDelete(dir, protectedId);
      throw err;
    }
  }

  /** Creates a missing directory (and its ancestors) as containers, retrying across broken connections. */
  makeDirectory(dir: string, signal: AbortSignal | undefined): Promise<void> {
    return this.retrying(() => ensureContainers(this.client, dir, signal), signal);
  }

  /**
   * The unknown-outcome create of an abandoned attempt: find it once connected and delete it. Never rejects; counted
   * in cleanupsSettled(client) until done.
   */
  #findAndDelete(dir: string, protectedId: string): Promise<void> {
    return this.#inBackground(async () => {
      await this.client.waitConnected();
      const name = findProtectedChild(await this.client.getChildren(dir), protectedId);
      if (name !== undefined) await this.guaranteedDelete(joinPath(dir, name));
    });
  }

  /**
   * Runs `step` in the background until it completes, again after every reconnect (with the cleanup back-off when
   * it fails while connected) and until a failure no retry fixes or the client's end. Never rejects; counted in
   * cleanupsSettled(client) until done.
   */
  #inBackground(step: () => Promise<void>): Promise<void> {
    const run = async (): Promise<void> => {
      for (let failures = 0; ; failures++) {
        try {
          await step();
          return;
        } catch (err) {
          if (!retryableOn(this.client, err)) return;
        }
        if (failures > 0) await sleep(cleanupBackoff.nextDelay(failures - 1, 0) ?? 0, this.clock);
      }
    };
    return tracked(this.client, run().catch(() => undefined));
  }

  /**
   * Runs an idempotent call, retrying it (under the retry policy) across broken connections and across a session
   * renewal: the caller learns what the new session shows (its ephemeral nodes gone) from the answer.
   */
  async retrying<T>(run: () => Promise<T>, signal: AbortSignal | undefined): Promise<T> {
    const started = this.clock.now();
    for (let failures = 0; ; failures++) {
      try {
        return await run();
      } catch (err) {
        if (!retryableOn(this.client, err)) throw err;
        await this.#backOff(failures, started, err, signal);
        await this.client.waitConnected({ signal });
      }
    }
  }

  /** getData leaving a data watch; NONODE (and no watch) when the node does not exist. */
  async watchData(path: string, signal: AbortSignal | undefined): Promise<{ data: Uint8Array; watch: OneShotWatch }> {
    const { data, watch } = await this.client.getData(path, { watch: true, signal });
    return { data, watch: oneShotWatch(this.client, path, watch, 'data') };
  }

  /** getChildren leaving a child watch. */
  async watchChildren(path: string, signal: AbortSignal | undefined): Promise<{ children: string[]; watch: OneShotWatch }> {
    const { children, watch } = await this.client.getChildren(path, { watch: true, signal });
    return { children, watch: oneShotWatch(this.client, path, watch, 'children') };
  }

  /**
   * Deletes a node we are giving up while acquiring. The first try is awaited, so a timed-out or aborted acquire
   * normally returns with its node already gone; while disconnected, or if that try hits a broken connection,
   * the delete carries on in the background (counted in cleanupsSettled) until it succeeds or the session ends.
   */
  async deleteOnExit(path: string): Promise<void> {
    await this.deleteOnClose(path).catch(() => undefined);
  }

  /**
   * The delete of a recipe's node at close(): awaited while the client is connected and the server answers, so a
   * close() normally resolves with the node gone; handed to the background (counted in cleanupsSettled, retried
   * after every reconnect) as soon as the link is down, so a close() never waits for a server to come back. A
   * node that outlives its session (`outlivesSession`: persistent modes) is deleted on the next session too.
   * Rejects only for a failure no retry fixes (NOAUTH, say).
   */
  async deleteOnClose(path: string, options: { readonly outlivesSession?: boolean } = {}): Promise<void> {
    const later = (): void => void this.#inBackground(() => this.guaranteedDelete(path, options));
    if (!isConnected(this.client)) return later(); // nothing would answer before the reconnect
    try {
      await this.client.delete(path);
    } catch (err) {
      if (isCode(err, 'NONODE') || this.client.ended) return;
      if (isSessionLost(err) && options.outlivesSession !== true) return; // an ephemeral went with the session
      if (!retryableOn(this.client, err)) throw err;
      later();
    }
  }

  /**
   * After a create of `path` (not protected: its name is known) was stopped with its outcome unknown: once
   * connected, deletes the node if it is ours (for an ephemeral, owned by this session; another session's node is
   * not ours to delete). In the background; never rejects; counted in cleanupsSettled.
   */
  deleteIfCreated(path: string, ephemeral: boolean): Promise<void> {
    return this.#inBackground(async () => {
      await this.client.waitConnected();
      const stat = await this.client.exists(path);
      if (stat === null || (ephemeral && stat.ephemeralOwner !== this.client.sessionId)) return;
      await this.guaranteedDelete(path, { outlivesSession: !ephemeral });
    });
  }

  /**
   * Deletes our node, retrying after every reconnect (with the cleanup back-off when refused while connected) until
   * it is gone. Resolves once the node is deleted, was already gone, or our session has ended (which removes an
   * ephemeral node; with `outlivesSession`, only the client's end stops it). Rejects only for errors no retry can
   * fix (NOAUTH, for example).
   */
  async guaranteedDelete(path: string, options: { readonly outlivesSession?: boolean } = {}): Promise<void> {
    for (let failures = 0; ; failures++) {
      try {
        await this.client.delete(path);
        return;
      } catch (err) {
        if (isCode(err, 'NONODE') || this.client.ended) return;
        if (isSessionLost(err) && !(options.outlivesSession === true && isSessionRenewed(this.client, err))) return;
        if (!retryableOn(this.client, err)) throw err;
      }
      try {
        await this.client.waitConnected();
      } catch {
        return; // the client has ended, and our ephemeral node with its session
      }
      // Connected yet refused again (throttled, or the link broke at once): back off.
      if (failures > 0) await sleep(cleanupBackoff.nextDelay(failures - 1, 0) ?? 0, this.clock);
    }
  }
}

/** Options of createProtectedSequential beyond the node itself. */
export interface CreateProtectedOptions extends NodeOpsOptions {
  /** Stops the create between steps and takes back a request in flight (ABORTED). */
  readonly signal?: AbortSignal;
}

/**
 * Creates `<parent>/_c_<uuid>-<name><seq>` (NodeOps.createProtected for one call): bounded, backed off,
 * abort-aware, safe against a lost reply, the parent made as containers when missing. Rejects with the session's
 * end, a failure no retry fixes (a parent that cannot be made: NOAUTH), or once the retries run out.
 */
export function createProtectedSequential(
  client: ZooKeeperClient,
  parent: string,
  name: string,
  data: Uint8Array,
  mode: CreateMode = 'ephemeral-sequential',
  ttlMs?: number,
  options: CreateProtectedOptions = {},
): Promise<CreatedNode> {
  return new NodeOps(client, options).createProtected(parent, name, data, options.signal, { mode, ttlMs });
}

/** Background cleanups (nodes of abandoned attempts being found and deleted), by client. */
const cleanups = new WeakMap<ZooKeeperClient, Set<Promise<void>>>();

function tracked(client: ZooKeeperClient, cleanup: Promise<void>): Promise<void> {
  let set = cleanups.get(client);
  if (set === undefined) cleanups.set(client, (set = new Set()));
  const running = set;
  running.add(cleanup);
  void cleanup.finally(() => running.delete(cleanup));
  return cleanup;
}

/**
 * Resolves once every background cleanup of `client`'s abandoned attempts has finished (never rejects): what a
 * recipe's close() waits for when it promises to leave no node behind after aborting an attempt of its own.
 */
export async function cleanupsSettled(client: ZooKeeperClient): Promise<void> {
  for (let set = cleanups.get(client); set !== undefined && set.size > 0; set = cleanups.get(client)) await Promise.all(set);
}

/** cleanupsSettled while the link is up (see settledWhileConnected): for a close() that must not wait for a server. */
export function cleanupsSettledWhileConnected(client: ZooKeeperClient): Promise<void> {
  return settledWhileConnected(client, cleanupsSettled(client));
}
