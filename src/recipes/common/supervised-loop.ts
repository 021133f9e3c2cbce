/**
 * The one background loop of the recipes that keep working after start() (latch, persistent node, shared value,
 * cache, queue consumer): each used to write "back off, wait for a connection, run, catch, decide, stop on close"
 * by hand, with small differences nobody chose. Here it is written once, and a recipe gives only its step (one
 * look at the world and what to do about it) and what to say about a failure.
 *
 * A turn: after a failure, the back-off's pause; then a wait for a connection (a broken link waits here, never in a
 * tight loop); then the step. The step says what comes next: `'wait'` until wake() (a watch fired, a connection
 * event, a change of our own), `'again'` at once, `'done'` to end the loop. A wake() during the step is kept: the
 * turn after it goes at once, and `turn.woken` tells a step that its reads may have been overtaken.
 *
 * A failure is one of three (failureKind): the client has ended or is closing (`end`: the loop is over, onEnd says
 * why); the link broke or the session was renewed (`reconnect`: the next turn waits for the connection, no pause);
 * anything else (`backoff`: NOAUTH, a throttled server, a bug: onError hears it, and the pause grows under the
 * RetryPolicy). stop() ends the loop: every wait of the loop and every call made with `turn.signal` stop at once, so
 * a recipe's close() never waits for a server to come back.
 */

import type { ZooKeeperClient } from '../../client.js';
import { isCode, isRetryable, type ZooKeeperError } from '../../errors.js';
import type { Clock } from '../../session/clock.js';
import type { RetryPolicy } from '../../session/retry-policy.js';
import { sleep } from '../retry.js';
import { Backoff } from './backoff.js';
import { isConnected, isSessionRenewed } from './connection.js';
import { sessionEnded } from './errors.js';

/** What a step asks for next: wait for wake(), run again at once, or end the loop. */
export type TurnOutcome = 'wait' | 'again' | 'done';

/** What a step is given. */
export interface LoopTurn {
  /** The loop's stop signal: pass it to every call the step makes. */
  readonly signal: AbortSignal;
  /** True once wake() was called after this turn began: what the step read may be stale; look again. */
  readonly woken: boolean;
}

/** How a failure of a turn is taken (see the file comment). */
export type FailureKind = 'end' | 'reconnect' | 'backoff';

/** The decision behind every recipe loop, for the loops that cannot be a SupervisedLoop (an async generator). */
export function failureKind(client: ZooKeeperClient, err: unknown): FailureKind {
  // A closing client fails calls with CLOSED while it still says connected: going round again would spin.
  if (client.ended || isCode(err, 'CLOSED', 'AUTHFAILED')) return 'end';
  return isSessionRenewed(client, err) || (isRetryable(err) && !isConnected(client)) ? 'reconnect' : 'backoff';
}

export interface SupervisedLoopOptions {
  readonly clock: Clock;
  /** The recipe's name and path, for the error onEnd gets when the client has ended. */
  readonly recipe: string;
  readonly path: string;
  /** The pause after `backoff` failures. Default loopBackoff (100 ms doubling to 5 s, never giving up). */
  readonly backoff?: RetryPolicy;
  /** Also stops the loop (a recipe that has its own stop controller for more than the loop). */
  readonly signal?: AbortSignal;
  /** A failure that a reconnect does not cure: the loop backs off and tries again. */
  readonly onError?: (err: unknown) => void;
  /** Every failure of a turn, before it is classified (a recipe that must read afresh after any of them). */
  readonly onFailure?: (err: unknown) => void;
  /** The client has ended or is closing: the loop is over; `err` is the session's end (or CLOSED, AUTHFAILED). */
  readonly onEnd?: (err: ZooKeeperError) => void;
}

export class SupervisedLoop {
  readonly #client: ZooKeeperClient;
  readonly #step: (turn: LoopTurn) => Promise<TurnOutcome>;
  readonly #options: SupervisedLoopOptions;
  readonly #stop = new AbortController();
  #wake: () => void = () => undefined;
  #woken = false;
  #done: Promise<void> = Promise.resolve();

  constructor(client: ZooKeeperClient, step: (turn: LoopTurn) => Promise<TurnOutcome>, options: SupervisedLoopOptions) {
    this.#client = client;
    this.#step = step;
    this.#options = options;
    const outer = options.signal;
    if (outer?.aborted === true) this.#stop.abort();
    else if (outer !== undefined) {
      const onAbort = (): void => void this.stop();
      outer.addEventListener('abort', onAbort, { once: true });
      this.#stop.signal.addEventListener('abort', () => outer.removeEventListener('abort', onAbort), { once: true });
    }
  }

  /** Aborts on stop(), or once the loop has ended by itself: the signal for what the recipe does in the background. */
  get signal(): AbortSignal {
    return this.#stop.signal;
  }

  /** Starts the loop (once). */
  start(): void {
    // ended by itself ('done', or the client's end): the signal says so too, and the outer signal's listener goes
    this.#done = this.#run().finally(() => this.#stop.abort());
  }

  /** Something changed: a waiting loop goes round, a running step sees `turn.woken`. */
  wake(): void {
    this.#woken = true;
    this.#wake();
  }

  /** Ends the loop: resolves once it has left its turn (at once for one that waits; never waits for a server). */
  stop(): Promise<void> {
    this.#stop.abort();
    this.#wake();
    return this.#done;
  }

  async #run(): Promise<void> {
    const { clock, onError, onFailure, onEnd } = this.#options;
    const client = this.#client;
    const stop = this.#stop.signal;
    const backoff = new Backoff(this.#options.backoff);
    const loop = this;
    const turn: LoopTurn = {
      signal: stop,
      get woken() {
        return loop.#woken;
      },
    };
    while (!stop.aborted) {
      this.#woken = false;
      const woken = new Promise<void>((resolve) => (this.#wake = resolve));
      try {
        if (backoff.delayMs > 0) await sleep(backoff.delayMs, clock, stop);
        await client.waitConnected({ signal: stop });
        const next = await this.#step(turn);
        backoff.reset();
        if (next === 'done') return;
        if (next === 'wait') await woken;
      } catch (err) {
        if (stop.aborted) return;
        onFailure?.(err);
        const kind = failureKind(client, err);
        if (kind === 'end') {
          onEnd?.(client.ended ? sessionEnded(client, this.#options.recipe, this.#options.path) : (err as ZooKeeperError));
          return;
        }
        if (kind === 'reconnect') backoff.reset();
        else {
          onError?.(err);
          backoff.failed();
        }
      }
    }
  }
}
