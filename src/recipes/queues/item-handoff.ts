/**
 * The one-item hand-off between a queue's consumer loop and a `for await` over queue.items(): the loop offers an
 * item and waits; the iteration takes it; the item counts as consumed when the iteration asks for the next one or
 * leaves the loop (then, in lock-safe mode, its node is deleted). An iteration can tell neither a `break` from a
 * `throw` in its body, so both count as consumed: a caller who wants a failed item requeued uses the `consumer`
 * option, whose promise says so.
 *
 * An offer settles in every case: consumed, or its item's signal aborted (the queue closed, the iteration ended, or
 * in lock-safe mode the lock's session ended: the item is then left in the queue; one not yet taken is not
 * delivered).
 */

export class ItemHandoff<T> {
  /** Called when an item is offered after leave(): the loop must stop (the item is left, not delivered). */
  readonly #refuse: () => void;
  /** Offered, not yet taken. */
  #offered: { readonly item: T; readonly consumed: () => void } | undefined;
  /** Taken by the iteration: its body is running. */
  #inHand: (() => void) | undefined;
  #reader: ((result: IteratorResult<T>) => void) | undefined;
  #ended = false;

  constructor(refuse: () => void) {
    this.#refuse = refuse;
  }

  /** The loop's side (a QueueConsumer): resolves once the item is consumed or its `signal` aborted. */
  offer(item: T, signal: AbortSignal): Promise<void> {
    return new Promise<void>((resolve) => {
      if (signal.aborted) return resolve();
      const consumed = (): void => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = (): void => {
        if (this.#offered?.consumed === consumed) this.#offered = undefined;
        consumed();
      };
      signal.addEventListener('abort', onAbort, { once: true });
      // the iteration is over: this item is not delivered; the loop stops, and the abort settles this offer
      if (this.#ended) return this.#refuse();
      const reader = this.#reader;
      this.#reader = undefined;
      if (reader === undefined) this.#offered = { item, consumed };
      else {
        this.#inHand = consumed;
        reader({ value: item, done: false });
      }
    });
  }

  /** The iteration's side: the item in hand is consumed; the next one, once offered, or done once ended. */
  next(): Promise<IteratorResult<T>> {
    this.#release();
    const offered = this.#offered;
    if (offered !== undefined) {
      this.#offered = undefined;
      this.#inHand = offered.consumed;
      return Promise.resolve({ value: offered.item, done: false });
    }
    if (this.#ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => (this.#reader = resolve));
  }

  /**
   * The loop over the items was left: the item in hand counts as consumed (its take goes on to its end in the
   * background); true when there was one (else there is nothing to finish, and the caller stops the loop).
   */
  leave(): boolean {
    const inHand = this.#inHand !== undefined;
    this.#release();
    this.end();
    return inHand;
  }

  /**
   * No more items: a waiting next() is done. Called as the items' signal aborts, whose listeners settle the offers
   * (the item in hand and any not yet taken are left: in lock-safe mode they stay in the queue).
   */
  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#inHand = undefined;
    this.#offered = undefined;
    this.#reader?.({ value: undefined, done: true });
    this.#reader = undefined;
  }

  #release(): void {
    const consumed = this.#inHand;
    this.#inHand = undefined;
    consumed?.();
  }
}
