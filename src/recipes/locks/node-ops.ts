/**
 * The node operations every recipe needs to be safe on a flaky link, shared by the lock loop (internals.ts) and
 * the semaphore's own loop (semaphore-v2.ts):
 *
 *  - a protected create: an ephemeral sequential node under `_c_<uuid>-`, creating the directory as containers
 *    when missing. A create whose reply was lost may or may not have happened, so before creating again we list
 *    the directory for our uuid: we never leave a second node behind (an orphan that would block the lock for
 *    the rest of our session). If the caller gives up meanwhile, the search and delete go on in the background.
 *  - idempotent reads retried across broken connections while the session lives;
 *  - guaranteed deletes: retried after every reconnect until the node is gone or the session has ended (which
 *    removes an ephemeral node too).
 */

import { isCode, isRetryable, isSessionLost } from '../../errors.js';
import { abortError, sleep, type RetryPolicy } from '../retry.js';
import { findProtectedChild, joinPath, newProtectedId, protectedPath } from './naming.js';
import type { LockPort, NodeStamp } from './port.js';

/** Containers removed under us this many times in a row means something else is wrong. */
const MAX_DIRECTORY_CREATES = 5;

export interface CreatedNode {
  readonly path: string;
  readonly stamp: NodeStamp;
  /** The directory's children as listed right behind the create (when that listing succeeded). */
  readonly children: string[] | undefined;
}

export class NodeOps {
  readonly #port: LockPort;
  readonly #retry: RetryPolicy;

  constructor(
    port: LockPort,
    retry: RetryPolicy,
  ) {
    this.#port = port;
    this.#retry = retry;
  }

  /**
   * Creates `<dir>/_c_<uuid>-<name><seq>` with a getChildren of `dir` in the same write (one round trip for both),
   * trying again (under the retry policy) while the directory is missing or the reply was lost and the create did
   * not happen. The create itself is never abandoned half way: `signal` is honoured between steps, so a node that
   * was made is always known, and deleted by whoever gives up.
   */
  async createProtected(dir: string, name: string, data: Uint8Array, signal: AbortSignal | undefined): Promise<CreatedNode> {
    const protectedId = newProtectedId();
    const clock = this.#port.clock;
    const started = clock.now();
    for (let lostReplies = 0, missingDirectory = 0; ; ) {
      const made = await this.tryCreateProtected(dir, name, protectedId, data, signal);
      if (!('failed' in made)) return made;
      if (isCode(made.failed, 'NONODE')) {
        // The directory is missing (first use, or the server just removed the empty container): make it.
        if (missingDirectory++ >= MAX_DIRECTORY_CREATES) throw made.failed;
        await this.makeDirectory(dir, signal);
      } else {
        const delay = this.#retry.nextDelay(lostReplies++, clock.now() - started);
        if (delay === undefined) throw made.failed;
        await sleep(delay, clock, signal);
      }
      if (signal?.aborted) throw abortError(signal, 'acquire');
    }
  }

  /**
   * One try of a protected create, with a listing of `dir` behind it. `alongside` runs right after the create and
   * the listing are queued, so whatever it queues (the semaphore's gate release) leaves in the same write and is
   * applied after them. Resolves to our node, or to the error after which no node of ours exists, so the create
   * may be tried again with the same `protectedId`: NONODE (the directory is missing), or a retryable error whose
   * create did not happen. Any other error rejects; after an abort the node, if made, is deleted in the background.
   */
  async tryCreateProtected(
    dir: string,
    name: string,
    protectedId: string,
    data: Uint8Array,
    signal: AbortSignal | undefined,
    alongside?: () => void,
  ): Promise<CreatedNode | { readonly failed: unknown }> {
    const both = this.#port.createSequentialAndList(protectedPath(dir, protectedId, name), dir, data, signal);
    both.children.catch(() => undefined);
    alongside?.();
    try {
      const node = await both.created;
      return { ...node, children: await both.children.catch(() => undefined) };
    } catch (err) {
      if (isCode(err, 'ABORTED')) {
        // Taken back before it was sent, nothing was made; aborted while awaiting its reply, the node may
        // exist with a name we never learnt. Either way the caller leaves now, and the protection prefix finds
        // the node (behind the create, in this session's order) to delete it.
        this.#findAndDeleteInBackground(dir, protectedId);
        throw err;
      }
      if (isCode(err, 'NONODE')) return { failed: err };
      if (!isRetryable(err)) throw err;
      const found = await this.#findOurNode(dir, protectedId, signal);
      return found === undefined ? { failed: err } : { ...found, children: undefined };
    }
  }

  /** Creates a missing lock directory (and its ancestors) as containers, retrying across broken connections. */
  makeDirectory(dir: string, signal: AbortSignal | undefined): Promise<void> {
    return this.retrying(() => this.#port.ensureContainers(dir, signal), signal);
  }

  /**
   * After a create with an unknown outcome: our node if the server made it for this session. A node of ours left
   * by an earlier session is not ours to use (it goes when that session's expiry is processed); we delete it.
   */
  async #findOurNode(
    dir: string,
    protectedId: string,
    signal: AbortSignal | undefined,
  ): Promise<{ path: string; stamp: NodeStamp } | undefined> {
    let children: string[];
    try {
      children = await this.retrying(() => this.#port.getChildren(dir, signal), signal);
    } catch (err) {
      if (isCode(err, 'NONODE')) return undefined;
      // The caller gave up (or the retries ran out) but the node may exist: clean up behind them.
      if (!isSessionLost(err)) this.#findAndDeleteInBackground(dir, protectedId);
      throw err;
    }
    const name = findProtectedChild(children, protectedId);
    if (name === undefined) return undefined;
    const path = joinPath(dir, name);
    let stamp: NodeStamp | undefined;
    try {
      stamp = await this.retrying(() => this.#port.stamp(path), undefined);
    } catch (err) {
      // We found our node but cannot read it: nobody else will ever delete it while this session lives.
      if (!isSessionLost(err)) void this.guaranteedDelete(path).catch(() => undefined);
      throw err;
    }
    if (stamp === undefined) return undefined;
    if (stamp.ephemeralOwner !== this.#port.sessionId()) {
      void this.guaranteedDelete(path).catch(() => undefined);
      return undefined;
    }
    return { path, stamp };
  }

  /** The unknown-outcome create of an abandoned attempt: find it once connected and delete it. */
  #findAndDeleteInBackground(dir: string, protectedId: string): void {
    const run = async (): Promise<void> => {
      for (;;) {
        try {
          await this.#port.waitConnected();
          const name = findProtectedChild(await this.#port.getChildren(dir), protectedId);
          if (name !== undefined) await this.guaranteedDelete(joinPath(dir, name));
          return;
        } catch (err) {
          if (!isRetryable(err)) return;
        }
      }
    };
    void run().catch(() => undefined);
  }

  /** Runs an idempotent call, retrying it across broken connections while the session lives. */
  async retrying<T>(run: () => Promise<T>, signal: AbortSignal | undefined): Promise<T> {
    const clock = this.#port.clock;
    const started = clock.now();
    for (let failures = 0; ; failures++) {
      try {
        return await run();
      } catch (err) {
        if (!isRetryable(err)) throw err;
        const delay = this.#retry.nextDelay(failures, clock.now() - started);
        if (delay === undefined) throw err;
        await sleep(delay, clock, signal);
        await this.#port.waitConnected(signal);
      }
    }
  }

  /**
   * Deletes a node we are giving up while acquiring. The first try is awaited, so a timed-out or aborted acquire
   * normally returns with its node already gone; while disconnected, or if that try hits a broken connection,
   * the delete carries on in the background until it succeeds or the session ends.
   */
  async deleteOnExit(path: string): Promise<void> {
    if (!this.#port.isConnected()) {
      // Nothing would answer before the reconnect: give up now and let the delete wait for the link.
      void this.guaranteedDelete(path).catch(() => undefined);
      return;
    }
    try {
      await this.#port.delete(path);
    } catch (err) {
      if (isCode(err, 'NONODE') || isSessionLost(err)) return;
      void this.guaranteedDelete(path).catch(() => undefined);
    }
  }

  /**
   * Deletes our node, retrying after every reconnect until it is gone. Resolves once the node is deleted, was
   * already gone, or our session has ended. Rejects only for errors no retry can fix (NOAUTH, for example).
   */
  async guaranteedDelete(path: string): Promise<void> {
    const clock = this.#port.clock;
    for (let failures = 0; ; failures++) {
      try {
        await this.#port.delete(path);
        return;
      } catch (err) {
        if (isCode(err, 'NONODE') || isSessionLost(err)) return;
        if (!isRetryable(err)) throw err;
      }
      try {
        await this.#port.waitConnected();
      } catch {
        return; // the session ended, and our ephemeral node with it
      }
      // Connected yet refused again (throttled, or the link broke at once): back off, at most a second.
      if (failures > 0) await sleep(Math.min(1000, 50 * 2 ** Math.min(failures, 5)), clock);
    }
  }
}
