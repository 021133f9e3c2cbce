/**
 * ReaderQueue: the buffer behind every async-iterable event stream (persistent watches, the client's
 * stateChanges(), the recipes' event hubs). Values are read in push order; `end()` lets readers drain what is
 * queued and then finish. Every reader waiting in `next()` is woken on each push or end, so two concurrent
 * `next()` calls can never leave one of them waiting for a value the other already took.
 */

export class ReaderQueue<T> {
  readonly #items: T[] = [];
  #waiters: (() => void)[] = [];
  #ended = false;

  /** Queues `value` for the readers (ignored once ended). */
  push(value: T): void {
    if (this.#ended) return;
    this.#items.push(value);
    this.#wake();
  }

  /** No more values: readers get what is queued, then `done`. */
  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#wake();
  }

  /** Drops what is queued and ends (a reader that left, or an aborted stream). */
  discard(): void {
    this.#items.length = 0;
    this.end();
  }

  /** True once `end()` or `discard()` was called. */
  get ended(): boolean {
    return this.#ended;
  }

  /** Values queued and not yet read. */
  get size(): number {
    return this.#items.length;
  }

  /** The next value, waiting for one if needed; `done` once ended and drained. */
  async next(): Promise<IteratorResult<T, undefined>> {
    for (;;) {
      if (this.#items.length > 0) return { value: this.#items.shift() as T, done: false };
      if (this.#ended) return { value: undefined, done: true };
      await new Promise<void>((resolve) => this.#waiters.push(resolve));
    }
  }

  #wake(): void {
    const woken = this.#waiters;
    this.#waiters = [];
    for (const wake of woken) wake();
  }
}
