/**
 * Watch handles. A one-shot watch is a promise of its event; a persistent (or recursive) watch is an
 * AsyncIterable of events that ends when it is disposed or the client ends, and `await using` removes it.
 *
 * Across a session expiry the two differ, as the server's watches do: a one-shot watch belongs to its session and
 * fires with the expiry (`{ type: 'None', state: 'Expired' }`); a persistent watch belongs to the client and goes on
 * on the new session (re-added there before any later request), after yielding that same event as a marker that
 * events between the two sessions may have been missed.
 */

import type { WatchEvent, Watcher } from '../session/watches.js';
import { ReaderQueue } from '../util/reader-queue.js';
import type { AddWatchMode } from './types.js';

/** Yields the expiry marker on a persistent watch that goes on on a new session (see watch-ops.ts). */
export let markRenewed: (watch: PersistentWatch) => void;

/** What a persistent watch yields when its session expired and the watch moved to the new session. */
const EXPIRED_MARKER: WatchEvent = { type: 'None', state: 'Expired', path: undefined };

/** A one-shot watcher and the promise it resolves (never rejects: session ends arrive as events). */
export function oneShot(mapPath: (event: WatchEvent) => WatchEvent): { watcher: Watcher; promise: Promise<WatchEvent> } {
  let resolve!: (event: WatchEvent) => void;
  const promise = new Promise<WatchEvent>((r) => (resolve = r));
  return { watcher: (event) => resolve(mapPath(event)), promise };
}

/**
 * A persistent (optionally recursive) watch: an async iterable of events that lasts until removed. `await using` or
 * `remove()` removes it from the server.
 */
export class PersistentWatch implements AsyncIterable<WatchEvent>, AsyncDisposable {
  readonly #queue = new ReaderQueue<WatchEvent>();
  #removal: Promise<void> | undefined;
  /** The registry callback; the client registers it under the server path. */
  readonly watcher: Watcher;

  readonly #remove: () => Promise<void>;

  static {
    // The one place that can reach the queue: markRenewed is for the client's renewal, not a public method.
    markRenewed = (watch) => watch.#queue.push(EXPIRED_MARKER);
  }

  constructor(
    /** The watched path (client view). */
    readonly path: string,
    readonly mode: AddWatchMode,
    mapPath: (event: WatchEvent) => WatchEvent,
    remove: () => Promise<void>,
  ) {
    this.#remove = remove;
    this.watcher = (event) => {
      this.#queue.push(mapPath(event));
      // A session-ending event is the last one, and so is the server's removal of the watch (removeWatches).
      if (event.type === 'None' || event.type === 'PersistentWatchRemoved') this.#queue.end();
    };
  }

  /** True once disposed or once the session ended. */
  get closed(): boolean {
    return this.#queue.ended;
  }

  /** Events not yet consumed. */
  get buffered(): number {
    return this.#queue.size;
  }

  /** Removes the watch (locally and, if nothing else watches the path, on the server) and ends iteration. */
  close(): Promise<void> {
    this.#removal ??= (async () => {
      const wasEnded = this.#queue.ended;
      this.#queue.end();
      if (!wasEnded) await this.#remove();
    })();
    return this.#removal;
  }

  /** `await using` support: removes the watch. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  /** The next event, or undefined once the watch is over and drained. */
  async next(): Promise<WatchEvent | undefined> {
    return (await this.#queue.next()).value;
  }

  /**
   * The events, in the order the server sent them; the iteration ends when the watch is removed or the client ends.
   * After a session expiry it yields `{ type: 'None', state: 'Expired' }` and goes on with the new session's events:
   * re-read what the watch is about then (a read made after the marker is answered after the watch is in place).
   */
  [Symbol.asyncIterator](): AsyncIterator<WatchEvent> {
    return {
      next: (): Promise<IteratorResult<WatchEvent>> => this.#queue.next(),
      // Leaving a for-await loop (break, throw) removes the watch.
      return: async (): Promise<IteratorResult<WatchEvent>> => {
        await this.close();
        return { value: undefined, done: true };
      },
    };
  }
}
