/**
 * The lock-lost signal every lease carries. A holder cannot know it still holds a ZooKeeper lock while it cannot
 * reach ZooKeeper: its session may already have expired on the server and someone else may hold the lock. So
 * the signal aborts when holding can no longer be trusted:
 *
 *  - policy `suspended` (the default, Curator's "standard" policy): as soon as the connection is lost, even if
 *    the session later turns out to have survived. Safe: nobody else can hold the lock before this fires.
 *  - policy `lost` (Curator's "session" policy): only when the session has ended. Fewer false alarms, but for up
 *    to a session timeout the holder may run on while another client already holds the lock.
 *  - either way, when our lock node is deleted under us (an operator, a revoke gone wrong), if we are watching it.
 *
 * The abort reason is a ZooKeeperError: CONNECTIONLOSS for a suspension; SESSIONEXPIRED, CLOSED (the client was
 * closed) or AUTHFAILED for the end of the session; NONODE for a deleted node.
 */

import type { ZooKeeperClient } from '../../client.js';
import type { ZooKeeperError } from '../../errors.js';
import { isConnected, isSessionOver, onConnectionEvent } from '../common/connection.js';
import { recipeError, sessionEndCodeOf } from '../common/errors.js';

/** When a held lock counts as lost: as soon as the connection is suspended, or only when the session is lost. */
export type LockLostPolicy = 'suspended' | 'lost';

export class LockLostSignal {
  /**
   * Made on first use of `signal`: most leases are released without anyone looking at it, and an AbortController
   * per acquisition was the largest allocation left on the contended hot path.
   */
  #controller: AbortController | undefined;
  #reason: ZooKeeperError | undefined;
  readonly #unsubscribe: () => void;

  readonly #policy: LockLostPolicy;
  readonly #node: string;

  constructor(
    client: ZooKeeperClient,
    policy: LockLostPolicy,
    node: string,
    /** The session that owns the lock node. */
    session: bigint,
  ) {
    this.#policy = policy;
    this.#node = node;
    this.#unsubscribe = onConnectionEvent(client, (event) => {
      if (event === 'LOST') this.lose(sessionEndCodeOf(client), 'the ZooKeeper session ended');
      else if (event === 'SUSPENDED' && this.#policy === 'suspended') {
        this.lose('CONNECTIONLOSS', 'the connection to ZooKeeper was lost (suspended); another client may hold the lock');
      }
    });
    if (isSessionOver(client)) this.lose(sessionEndCodeOf(client), 'the ZooKeeper session ended');
    // the session that made the node expired already, and the client is on (or opening) its successor
    else if (client.sessionId !== session) this.lose('SESSIONEXPIRED', 'the ZooKeeper session that made the lock node ended');
    else if (!isConnected(client) && policy === 'suspended') {
      this.lose('CONNECTIONLOSS', 'not connected to ZooKeeper when the lock was taken');
    }
  }

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#reason !== undefined) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  /** Aborts the signal (once) and stops listening. */
  lose(code: 'CONNECTIONLOSS' | 'SESSIONEXPIRED' | 'NONODE' | 'CLOSED' | 'AUTHFAILED', why: string): void {
    if (this.#reason !== undefined) return;
    this.#reason = recipeError(code, 'lock', this.#node, `lock lost: ${why}`);
    this.#controller?.abort(this.#reason);
    this.#unsubscribe();
  }

  /** Stops listening without aborting (the lease was released). */
  dispose(): void {
    this.#unsubscribe();
  }
}
