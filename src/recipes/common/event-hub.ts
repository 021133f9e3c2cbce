/**
 * The event side of every recipe: a listener form (`subscribe`, synchronous, in emit order) and an async-iterable
 * form (`stream`, each iterator with its own ReaderQueue, the one the client's PersistentWatch and stateChanges()
 * use).
 * A recipe ends its hub on close: iterators drain what they have queued, then finish.
 */

import { ReaderQueue } from '../../util/reader-queue.js';

/** A listener-or-iterable source of recipe events. */
export interface RecipeEvents<T> {
  /** Calls `listener` for every later event, in order; returns the unsubscribe function. */
  addListener(listener: (event: T) => void): () => void;
  /**
   * The events from now on as an async iterable. It ends when the recipe is closed (after the queued events), when
   * `signal` fires, or when the consumer leaves its loop.
   */
  events(options?: { signal?: AbortSignal }): AsyncIterable<T>;
}

export class EventHub<T> {
  readonly #listeners = new Set<(event: T) => void>();
  readonly #enders = new Set<() => void>();
  #ended = false;

  /** Delivers `event` to every listener and iterator. A throwing listener does not stop the others. */
  emit(event: T): void {
    if (this.#ended) return;
    for (const listener of [...this.#listeners]) {
      try {
        listener(event);
      } catch {
        // a listener's bug must not break the recipe's own bookkeeping
      }
    }
  }

  subscribe(listener: (event: T) => void): () => void {
    if (this.#ended) return () => undefined;
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** No more events: listeners are dropped and iterators finish once drained. */
  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#listeners.clear();
    for (const end of [...this.#enders]) end();
  }

  get isEnded(): boolean {
    return this.#ended;
  }

  stream(signal?: AbortSignal): AsyncIterable<T> {
    return {
      [Symbol.asyncIterator]: (): AsyncIterator<T> => {
        const queue = new ReaderQueue<T>();
        const done = this.#ended || signal?.aborted === true;
        const finish = (): void => {
          unsubscribe();
          this.#enders.delete(finish);
          signal?.removeEventListener('abort', onAbort);
          queue.end();
        };
        const onAbort = (): void => {
          queue.discard();
          finish();
        };
        const unsubscribe = done ? () => undefined : this.subscribe((event) => queue.push(event));
        if (done) queue.end();
        else {
          this.#enders.add(finish);
          signal?.addEventListener('abort', onAbort, { once: true });
        }
        return {
          next: (): Promise<IteratorResult<T>> => queue.next(),
          return: async (): Promise<IteratorResult<T>> => {
            queue.discard();
            finish();
            return { value: undefined, done: true };
          },
        };
      },
    };
  }
}
