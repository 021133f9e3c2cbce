/** A caller's AbortSignal and optional timeout as one signal, so every wait has a single thing to listen to. */

import { ZooKeeperError } from '../../errors.js';
import { badArgument } from './errors.js';
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

export class Deadline implements Disposable {
  readonly #controller = new AbortController();
  readonly #handle: unknown;
  #expired = false;

  readonly #clock: Clock;

  constructor(
    options: WaitOptions,
    what: string,
    path: string,
    clock: Clock = systemClock,
  ) {
    this.#clock = clock;
    const { signal, timeoutMs } = options;
    if (timeoutMs !== undefined && !(timeoutMs >= 0)) throw badArgument(what, path, 'timeoutMs must be a number >= 0');
    if (signal?.aborted === true) this.#controller.abort(signal.reason);
    else signal?.addEventListener('abort', this.#onAbort, { once: true });
    this.#signalSource = signal;
    if (timeoutMs !== undefined) {
      this.#handle = clock.setTimeout(() => {
        this.#expired = true;
        this.#controller.abort(new ZooKeeperError('TIMEOUT', `TIMEOUT (${what} ${path})`, { op: what, path }));
      }, timeoutMs);
    }
  }

  readonly #signalSource: AbortSignal | undefined;
  readonly #onAbort = (): void => this.#controller.abort(this.#signalSource?.reason);

  /** Fires on the caller's abort or the timeout. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** True when the timeout (not the caller) ended the wait. */
  get timedOut(): boolean {
    return this.#expired;
  }

  [Symbol.dispose](): void {
    if (this.#handle !== undefined) this.#clock.clearTimeout(this.#handle);
    this.#signalSource?.removeEventListener('abort', this.#onAbort);
  }
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
  if (signal.aborted) return deadlineOutcome(deadline, op);
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
  const reason: unknown = deadline.signal.reason;
  throw reason instanceof ZooKeeperError && reason.code === 'ABORTED'
    ? reason
    : new ZooKeeperError('ABORTED', `ABORTED (${op})`, { op, ...(reason === undefined ? {} : { cause: reason }) });
}
