/**
 * The attempt loop every lock shares (Curator's LockInternals): create our ephemeral sequential node, list the
 * lock directory, ask the predicate, and either hold or wait (wait-until-held.ts), until we hold, are stopped by
 * the attempt's signal, or fail. Locks differ only in the name they create and the predicate they pass in.
 *
 * Where we go beyond Curator:
 *  - the create and the first listing are sent back to back, so an uncontended acquire is one round trip;
 *  - the attempt's one signal (timeout and caller's abort folded together at the entry point) stops every step,
 *    the create and the waits for a connection included, and every exit path (timeout, abort, error) deletes our
 *    node and takes back the watch it left, so a given-up attempt leaves nothing on the server;
 *  - releases are guaranteed deletes (common/nodes.ts), and the caller hears back only once the node is gone.
 */

import { aborted, nodeVanished } from '../common/errors.js';
import { isSessionRenewed } from '../common/connection.js';
import type { NodeOps } from '../common/nodes.js';
import { joinPath, nodeName } from '../common/znode-names.js';
import { isCode } from '../../errors.js';
import type { RetryPolicy } from '../../session/retry-policy.js';
import { sleep } from '../retry.js';
import { sortLockChildren } from './predicate.js';
import { OurNodeGone, WaitUntilHeld, type Decide } from './wait-until-held.js';

export type { Decide } from './wait-until-held.js';

/** How a lock names its nodes and orders its directory. */
export interface LockDriver {
  /** The name after the protection prefix: `lock-`, `__READ__`, `__WRIT__`. */
  readonly lockName: string;
  /** Names stripped to find each child's sequence when sorting (see predicate.ts). */
  readonly sortNames: readonly string[];
}

export interface AttemptOptions {
  /** The one signal that stops every step: the acquire's timeout and the caller's abort (Deadline). */
  readonly signal?: AbortSignal | undefined;
  /** `timeoutMs: 0`: one create and one listing, then give up (undefined) rather than wait. */
  readonly tryOnce?: boolean;
  readonly data?: Uint8Array | undefined;
  readonly decide: Decide;
  /**
   * False when the caller learns by itself whether our node survived the wait: the semaphore deletes its gate node
   * right behind the create it makes under the gate, and the delete's answer says whether the node was still
   * there. Saves the read that arms the watch on our own node and the notification it sends when we delete it.
   */
  readonly watchOwnNode?: boolean;
}

/** The node an attempt holds. */
export interface HeldNode {
  readonly path: string;
  readonly name: string;
  readonly fencingToken: bigint;
  /** The session that owns the node: the lock is held only while the client is on that session. */
  readonly session: bigint;
}

const EMPTY = new Uint8Array(0);

export class LockInternals {
  readonly #ops: NodeOps;
  readonly #driver: LockDriver;
  readonly #retry: RetryPolicy;

  constructor(
    ops: NodeOps,
    /** The lock directory. */
    readonly basePath: string,
    driver: LockDriver,
    retry: RetryPolicy,
  ) {
    this.#ops = ops;
    this.#driver = driver;
    this.#retry = retry;
  }

  /** Holds the lock and returns our node; undefined for a `tryOnce` attempt that would have to wait. */
  async attempt(opts: AttemptOptions): Promise<HeldNode | undefined> {
    const clock = this.#ops.clock;
    const started = clock.now();
    for (let retryCount = 0; ; retryCount++) {
      if (opts.signal?.aborted === true) throw aborted(opts.signal, 'acquire', this.basePath);
      try {
        return await this.#attemptOnce(opts);
      } catch (err) {
        if (!(err instanceof OurNodeGone) && !isSessionRenewed(this.#ops.client, err)) throw err;
        // Our node went away under us: the session that owned it ended (and the client has a new one, or is
        // opening it), or someone deleted it. Curator retries the whole attempt under its retry policy; so do we,
        // within the attempt's deadline (its signal stops the sleep).
        const delay = this.#retry.nextDelay(retryCount, clock.now() - started);
        if (delay === undefined) throw nodeVanished('acquire', this.basePath, 'our lock node vanished while waiting');
        await sleep(delay, clock, opts.signal);
      }
    }
  }

  async #attemptOnce(opts: AttemptOptions): Promise<HeldNode | undefined> {
    const first = await this.#ops.createProtected(this.basePath, this.#driver.lockName, opts.data ?? EMPTY, opts.signal, { list: true });
    const node: HeldNode = { path: first.path, name: nodeName(first.path), fencingToken: first.stat.czxid, session: first.stat.ephemeralOwner };
    let held = false;
    try {
      const wait = new WaitUntilHeld(this.#ops, this.basePath, node.path, node.name, first.children, {
        signal: opts.signal,
        tryOnce: opts.tryOnce === true,
        decide: opts.decide,
        watchOwnNode: opts.watchOwnNode !== false,
      });
      held = await wait.run();
      return held ? node : undefined;
    } finally {
      // Every way out that does not hold the lock gives our place back: timeout, abort, error.
      if (!held) await this.#ops.deleteOnExit(node.path);
    }
  }

  /** Deletes a held node (release), retrying through reconnects; see NodeOps.guaranteedDelete. */
  guaranteedDelete(path: string): Promise<void> {
    return this.#ops.guaranteedDelete(path);
  }

  /** The lock's participants, full paths in lock order (empty when the directory does not exist). */
  async participantNodes(filter?: (name: string) => boolean): Promise<string[]> {
    let children: string[];
    try {
      children = await this.#ops.client.getChildren(this.basePath);
    } catch (err) {
      if (isCode(err, 'NONODE')) return [];
      throw err;
    }
    return sortLockChildren(children, this.#driver.sortNames)
      .filter((name) => filter === undefined || filter(name))
      .map((name) => joinPath(this.basePath, name));
  }
}
