/** A caller's AbortSignal and optional timeout as one signal, so every wait has a single thing to listen to. */

import { isCode, ZooKeeperError } from '../../errors.js';
import { aborted, badArgument, recipeError } from './errors.js';
import { systemClock, type Clock } from '../../session/clock.js';

/**
 * How long a recipe's wait (waitOnBarrier, enter, leave, await, waitForInitialCreate, …) may last. Without either
 * option it waits until its condition holds or the session ends.
 */
export interface WaitOptions {
  /** Gives up when it fires: the wait rejects with ABORTED. */
  readonly signal?: AbortSignal;
  /** Gives up after this long: the wait resolves with its "not yet" answer (false). */
  readonly timeoutMs?: number;
}

/** Resolves when `signal` fires (never rejects); for Promise.race against other wake-ups. */
export function whenAborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}

/**
 * Waits for `event` unless `deadline` fires first: resolves true on the event, false on the timeout, rejects with
 * ABORTED on the caller's abort.
 */
export async function eventOrDeadline(event: Promise<unknown>, deadline: Deadline, op: string): Promise<boolean> {
  const signal = deadline.signal;
  if (signal?.aborted === true) return deadlineOutcome(deadline, op);
  if (deadline.tryOnce) return false; // `timeoutMs: 0`: one look, no wait
  if (signal === undefined) {
    await event;
    return true;
  }
  let onAbort!: () => void;
  const aborted = new Promise<'aborted'>((resolve) => {
    onAbort = () => resolve('aborted');
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    const winner = await Promise.race([event.then(() => 'event' as const), aborted]);
    return winner === 'event' ? true : deadlineOutcome(deadline, op);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

/** false for a timeout; throws ABORTED for the caller's abort. */
export function deadlineOutcome(deadline: Deadline, op: string): false {
  if (deadline.timedOut) return false;
  throw aborted(deadline.signal, op);
}

/**
 * The one deadline type of the recipes: a call's or a wait's `timeoutMs` and the caller's `signal`, folded into one
 * signal where the call enters (habit 17): every
 * step after that (the create, its retries, the waits for a connection, the reads and watches) carries only
 * `signal`, so the deadline bounds all of them, and a request in flight when it passes is taken back at once.
 *
 * - `signal` is undefined when nothing can stop the call (no timeout, no caller signal): the hot path of an
 *   uncontended lock pays for no AbortController and no timer. With only a caller signal it is that signal.
 * - `timeoutMs: 0` arms no timer: the call makes one try (Curator's `acquire(0, …)`: one create and one listing,
 *   no wait) and asks `tryOnce` before it would wait. That try is bounded by the caller's signal and the link,
 *   not the clock, so a free lock is still taken with a zero timeout.
 * - `Infinity` is no deadline at all.
 */
export class Deadline implements Disposable {
  readonly signal: AbortSignal | undefined;
  /** `timeoutMs: 0`: never wait; give up at the first point where the call would. */
  readonly tryOnce: boolean;
  readonly #caller: AbortSignal | undefined;
  readonly #clock: Clock;
  readonly #what: string;
  /** The node the call is about, for its errors. */
  readonly path: string | undefined;
  #handle: unknown;
  #timedOut = false;
  #onAbort: (() => void) | undefined;

  constructor(
    options: { readonly timeoutMs?: number | undefined; readonly signal?: AbortSignal | undefined },
    what: string,
    path: string | undefined,
    clock: Clock = systemClock,
  ) {
    const { signal, timeoutMs } = options;
    if (signal !== undefined && (typeof signal !== 'object' || signal === null || typeof signal.addEventListener !== 'function')) {
      throw badArgument(what, path, 'signal must be an AbortSignal');
    }
    if (timeoutMs !== undefined && (typeof timeoutMs !== 'number' || !(timeoutMs >= 0))) {
      throw badArgument(what, path, 'timeoutMs must be a non-negative number');
    }
    this.#caller = signal;
    this.#clock = clock;
    this.#what = what;
    this.path = path;
    this.tryOnce = timeoutMs === 0;
    if (timeoutMs === undefined || timeoutMs === 0 || timeoutMs === Infinity) {
      this.signal = signal;
      return;
    }
    const controller = new AbortController();
    this.signal = controller.signal;
    if (signal?.aborted === true) {
      controller.abort(signal.reason);
      return;
    }
    if (signal !== undefined) {
      this.#onAbort = () => controller.abort(signal.reason);
      signal.addEventListener('abort', this.#onAbort, { once: true });
    }
    this.#handle = clock.setTimeout(() => {
      this.#timedOut = true;
      controller.abort(recipeError('TIMEOUT', what, path, `not done within ${timeoutMs} ms`));
    }, timeoutMs);
  }

  /** `{ signal }` for a client call when there is one (exactOptionalPropertyTypes refuses `signal: undefined`). */
  get stopOption(): { signal?: AbortSignal } {
    return this.signal === undefined ? {} : { signal: this.signal };
  }

  /** True when the caller aborted or the timeout passed. */
  get stopped(): boolean {
    return this.signal?.aborted === true;
  }

  /** True once the timeout (not the caller) has stopped the call. */
  get timedOut(): boolean {
    return this.#timedOut;
  }

  /**
   * For the error that ended the call: 'timeout' when the deadline stopped it (the call then reports its "not
   * yet" answer); the caller's abort as one ABORTED (or the caller's own ZooKeeperError reason); any other error
   * as it is.
   */
  settle(err: unknown): 'timeout' {
    if (this.#timedOut && (isCode(err, 'ABORTED', 'TIMEOUT') || (err instanceof ZooKeeperError && err === this.signal?.reason))) {
      return 'timeout';
    }
    if (this.#caller?.aborted === true && isCode(err, 'ABORTED')) throw aborted(this.#caller, this.#what, this.path);
    throw err;
  }

  [Symbol.dispose](): void {
    if (this.#handle !== undefined) this.#clock.clearTimeout(this.#handle);
    this.#handle = undefined;
    if (this.#onAbort !== undefined) this.#caller?.removeEventListener('abort', this.#onAbort);
  }
}
