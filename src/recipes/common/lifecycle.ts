/**
 * One lifecycle for every recipe that runs in the background (latch, selector, cache, shared value and count,
 * persistent and TTL nodes, group member), so they all start, report readiness, close and dispose the same way:
 *
 * - `state`: `LATENT` until start(), `STARTED` from then on, `CLOSED` after close() or disposal (or a start that
 *   failed for good, where a recipe says so). A closed recipe cannot restart: make a new one.
 * - `start(options?)` returns a promise: the recipe starts at once and runs in the background; the promise resolves
 *   once its first work is in (each recipe says what that is) and rejects with ABORTED when `options.signal` fires
 *   first (the recipe goes on starting: close() stops it), with the client's end (CLOSED, AUTHFAILED, or
 *   SESSIONEXPIRED with renewal off), or with ILLEGAL_STATE when it is closed first or was not LATENT. Awaiting it
 *   is optional: a start() nobody awaits never becomes an unhandled rejection.
 * - `close()` rejects with ILLEGAL_STATE unless STARTED; `await using` closes a started recipe and is quiet
 *   otherwise.
 */

import { aborted, illegalState } from './errors.js';

/** Where a recipe is in its life (Curator's LATENT / STARTED / CLOSED). */
export type RecipeState = 'LATENT' | 'STARTED' | 'CLOSED';

export class Lifecycle {
  #state: RecipeState = 'LATENT';
  #settled = false;
  #resolve!: () => void;
  #reject!: (err: unknown) => void;
  readonly #ready: Promise<void>;

  constructor(
    /** The recipe's name, for errors (`LeaderLatch`). */
    readonly recipe: string,
    readonly path: string,
  ) {
    this.#ready = new Promise<void>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    // Marked as handled: a caller who does not await start() must not get an unhandled rejection for it.
    this.#ready.catch(() => undefined);
  }

  get state(): RecipeState {
    return this.#state;
  }

  /**
   * LATENT → STARTED, returning start()'s promise (see the file's comment); or an ILLEGAL_STATE rejection, with no
   * change, when the recipe was started before or closed. `begin` then runs the recipe's own start.
   */
  start(signal: AbortSignal | undefined, begin: () => void): Promise<void> {
    if (this.#state !== 'LATENT') {
      return handled(Promise.reject(illegalState(`${this.recipe}.start`, this.path, `cannot start a ${this.recipe} that is ${this.#state}`)));
    }
    this.#state = 'STARTED';
    begin();
    if (signal === undefined) return this.#ready;
    return handled(
      new Promise<void>((resolve, reject) => {
        const onAbort = (): void => reject(aborted(signal, `${this.recipe}.start`, this.path));
        if (signal.aborted) onAbort();
        else signal.addEventListener('abort', onAbort, { once: true });
        this.#ready.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
      }),
    );
  }

  /** The first work is in: start() resolves. */
  ready(): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#resolve();
  }

  /** The first work can never be done (the client ended, or a failure no retry fixes): start() rejects with `err`. */
  fail(err: unknown): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#reject(err);
  }

  /** Throws ILLEGAL_STATE unless STARTED: for calls that need a running recipe (`what` names the call). */
  requireStarted(what: string): void {
    if (this.#state !== 'STARTED') throw illegalState(`${this.recipe}.${what}`, this.path, `the ${this.recipe} is ${this.#state}`);
  }

  /** STARTED → CLOSED for close(); throws ILLEGAL_STATE unless STARTED. A start() still waiting rejects with ILLEGAL_STATE. */
  close(): void {
    if (this.#state !== 'STARTED') throw illegalState(`${this.recipe}.close`, this.path, `cannot close a ${this.recipe} that is ${this.#state}`);
    this.#state = 'CLOSED';
    this.fail(illegalState(`${this.recipe}.start`, this.path, 'closed before it was ready'));
  }

  /** A recipe that can do nothing more (a start that failed for good) closes itself: CLOSED, start() rejects. */
  end(err: unknown): void {
    if (this.#state === 'STARTED') this.#state = 'CLOSED';
    this.fail(err);
  }

  /** For `await using`: true when a close() is due (STARTED); otherwise marks the recipe CLOSED quietly. */
  disposing(): boolean {
    if (this.#state === 'STARTED') return true;
    this.#state = 'CLOSED';
    return false;
  }
}

function handled<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}
