/**
 * PersistentTtlNode: Curator's persistent TTL node. A container node at `path` (holding the data) lives as long as
 * its TTL child `touch` does, and this process keeps touching that child every `ttlMs * touchScheduleFactor`. When
 * the process stops (closed, crashed, partitioned away), the touches stop, the child's TTL runs out and the server
 * removes the child and then the empty container: a node that outlives brief disconnects, unlike an ephemeral one,
 * but not its owner. Needs a server with TTL nodes enabled (extendedTypesEnabled).
 */

import type { ZooKeeperClient } from '../../client.js';
import type { Data } from '../../client/types.js';
import { isRetryable } from '../../errors.js';
import { isConnected } from '../common/connection.js';
import { badArgument, illegalState } from '../common/errors.js';
import { isCode } from '../../errors.js';
import { joinPath } from '../common/nodes.js';
import type { RecipeState } from '../common/lifecycle.js';
import { PersistentNode } from './persistent-node.js';
import { clockOf, type Clock } from '../../session/clock.js';

/** The TTL child's name, as Curator names it. */
export const TTL_CHILD_NAME = 'touch';

/** How often a PersistentTtlNode touches its TTL child. */
export interface PersistentTtlNodeOptions {
  /** Touch every ttlMs × this (0 < factor < 1). Default 0.5, as Curator. */
  readonly touchScheduleFactor?: number;
  /** Timers (tests). */
  readonly clock?: Clock;
}

/**
 * Curator's PersistentTtlNode: a container node at `path` holding the data, kept alive by a TTL child `touch` that
 * this process touches every `ttlMs × touchScheduleFactor`. Once the touches stop (closed, crashed, cut off), the
 * child expires after `ttlMs` and the server then removes the empty container; brief disconnects do not remove it,
 * as they would an ephemeral node. Needs TTL nodes enabled on the server (`zookeeper.extendedTypesEnabled=true`).
 *
 * Usage: `await using node = new PersistentTtlNode(client, '/services/me', 10_000, 'payload'); await node.start();`
 */
export class PersistentTtlNode implements AsyncDisposable {
  readonly #node: PersistentNode;
  readonly #client: ZooKeeperClient;
  readonly #ttlMs: number;
  readonly #everyMs: number;
  readonly #clock: Clock;
  readonly #touchPath: string;
  #timer: unknown;
  #touching: Promise<void> = Promise.resolve();
  /** Stops a touch in flight at close(), so close() never waits on a frozen link for it. */
  readonly #stop = new AbortController();
  /** A touch was sent, so the TTL child may exist: close() deletes it (before that, nothing to delete nor wait for). */
  #touched = false;

  constructor(
    client: ZooKeeperClient,
    readonly path: string,
    ttlMs: number,
    data: Data = new Uint8Array(0),
    options: PersistentTtlNodeOptions = {},
  ) {
    const factor = options.touchScheduleFactor ?? 0.5;
    if (!(ttlMs > 0)) throw badArgument('PersistentTtlNode', path, 'ttlMs must be > 0');
    if (!(factor > 0 && factor < 1)) throw badArgument('PersistentTtlNode', path, 'touchScheduleFactor must be between 0 and 1');
    this.#node = new PersistentNode(client, path, data, { mode: 'container', ...(options.clock === undefined ? {} : { clock: options.clock }) });
    this.#client = client;
    this.#ttlMs = ttlMs;
    this.#everyMs = Math.max(1, Math.floor(ttlMs * factor));
    this.#clock = clockOf(options.clock);
    this.#touchPath = joinPath(path, TTL_CHILD_NAME);
  }

  /** Where the node is in its life (the container's PersistentNode's state: see common/lifecycle.ts). */
  get state(): RecipeState {
    return this.#node.state;
  }

  /**
   * Creates the container and starts touching its TTL child; the promise resolves once the container exists.
   * ILLEGAL_STATE if started already or closed.
   */
  start(options: { readonly signal?: AbortSignal } = {}): Promise<void> {
    const fresh = this.#node.state === 'LATENT';
    const started = this.#node.start(options);
    // The first touch once the container exists: a touch before that finds nothing to touch under, and the next
    // would come a whole period later.
    if (fresh) {
      void started.then(
        () => {
          if (this.#node.state === 'STARTED' && this.#timer === undefined) this.#schedule(0);
        },
        () => undefined,
      );
    }
    return started;
  }

  /** See PersistentNode.waitForInitialCreate. */
  waitForInitialCreate(options: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<boolean> {
    return this.#node.waitForInitialCreate(options);
  }

  /** The container's data. */
  getData(): Uint8Array {
    return this.#node.getData();
  }

  /** Changes the container's data: written now if it exists, else when it is created. Resolves once written. */
  setData(data: Data): Promise<void> {
    return this.#node.setData(data);
  }

  /** Stops touching and deletes the TTL child and the container. */
  async close(): Promise<void> {
    if (this.#node.state !== 'STARTED') throw illegalState('PersistentTtlNode.close', this.path, `the node is ${this.#node.state}`);
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#stop.abort();
    await this.#touching;
    if (this.#touched) {
      try {
        await this.#client.delete(this.#touchPath);
      } catch {
        // gone already, or the link is down: the TTL takes care of it
      }
    }
    await this.#node.close();
  }

  /** For `await using`: close() if started (stops touching, deletes the TTL child and the container), else nothing. */
  async [Symbol.asyncDispose](): Promise<void> {
    if (this.#node.state === 'STARTED') await this.close();
    else await this.#node[Symbol.asyncDispose]();
  }

  #schedule(ms: number): void {
    this.#timer = this.#clock.setTimeout(() => {
      if (this.#timer === undefined) return;
      this.#touching = this.#touch().finally(() => {
        if (this.#timer !== undefined) this.#schedule(this.#everyMs);
      });
    }, ms);
  }

  /** Creates the TTL child, or bumps its mtime (Curator's create().orSetData()). */
  async #touch(): Promise<void> {
    if (!(await this.#node.waitForInitialCreate({ timeoutMs: 0 }).catch(() => false))) return;
    try {
      const client = this.#client;
      if (!isConnected(client)) return;
      const signal = this.#stop.signal;
      this.#touched = true; // even a create that close() stops may have been made
      try {
        await client.create(this.#touchPath, null, { mode: 'ttl', ttl: this.#ttlMs, signal });
      } catch (err) {
        if (!isCode(err, 'NODEEXISTS')) throw err;
        await client.setData(this.#touchPath, new Uint8Array(0), { signal });
      }
    } catch (err) {
      // the container went (the loop recreates it) or the link broke: the next touch tries again
      if (!isCode(err, 'NONODE') && !isRetryable(err)) return;
    }
  }
}
