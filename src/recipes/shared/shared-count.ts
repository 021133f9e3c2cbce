/**
 * SharedCount: Curator's shared counter, a SharedValue holding a 32-bit signed integer as 4 big-endian bytes (the
 * bytes Curator writes), so Curator and zkwire clients on one path read and write the same count and versions.
 * Across a session expiry it behaves as SharedValue does: the count is read again on the new session, with one
 * countChanged if it changed meanwhile, after connectionStateChanged LOST and RECONNECTED.
 */

import type { ZooKeeperClient } from '../../client.js';
import type { RecipeConnectionEvent } from '../common/connection.js';
import { badArgument, recipeError } from '../common/errors.js';
import { EventHub, type RecipeEvents } from '../common/event-hub.js';
import { SharedValue, type SharedValueOptions, type SharedValueState } from './shared-value.js';
import type { VersionedValue } from './versioned.js';

/** What listeners and iterators of a SharedCount hear. */
export type SharedCountEvent =
  | { readonly type: 'countChanged'; readonly value: VersionedValue<number> }
  | { readonly type: 'connectionStateChanged'; readonly event: RecipeConnectionEvent };

const INT_MIN = -(2 ** 31);
const INT_MAX = 2 ** 31 - 1;

function checkInt(value: number, what: string, path: string): void {
  if (!Number.isInteger(value) || value < INT_MIN || value > INT_MAX) {
    throw badArgument(what, path, `the count must be a 32-bit signed integer, got ${String(value)}`);
  }
}

/** The 4 big-endian bytes of a count (Java's ByteBuffer.putInt). */
export function countToBytes(value: number): Uint8Array {
  const bytes = new Uint8Array(4);
  new DataView(bytes.buffer).setInt32(0, value, false);
  return bytes;
}

/** A count from node data: MARSHALLINGERROR when the data is not 4 bytes. */
export function countFromBytes(bytes: Uint8Array, path: string): number {
  if (bytes.length !== 4) {
    throw recipeError('MARSHALLINGERROR', 'SharedCount', path, `node data is ${bytes.length} bytes, not a 4-byte count`);
  }
  return new DataView(bytes.buffer, bytes.byteOffset, 4).getInt32(0, false);
}

export class SharedCount implements RecipeEvents<SharedCountEvent>, AsyncDisposable {
  readonly #value: SharedValue;
  readonly #events = new EventHub<SharedCountEvent>();

  constructor(
    client: ZooKeeperClient,
    /** The node holding the count. */
    readonly path: string,
    /** Written when the node does not exist yet. */
    seedValue: number,
    options: SharedValueOptions = {},
  ) {
    checkInt(seedValue, 'SharedCount', path);
    this.#value = new SharedValue(client, path, countToBytes(seedValue), options);
    this.#value.addListener((event) => {
      if (event.type === 'connectionStateChanged') {
        this.#events.emit(event);
        return;
      }
      let count: number;
      try {
        count = countFromBytes(event.value.value, path);
      } catch {
        return; // not a count (someone else's data); getCount() reports it
      }
      this.#events.emit({ type: 'countChanged', value: { version: event.value.version, value: count } });
    });
  }

  /** `LATENT` before start(), `STARTED` from start() until close(), `CLOSED` after (or when start() failed). */
  get state(): SharedValueState {
    return this.#value.state;
  }

  /** See SharedValue.start(): creates the node with the seed if missing, resolves once the count is known. */
  start(options: { signal?: AbortSignal } = {}): Promise<void> {
    return this.#value.start(options);
  }

  /** The latest count known here. ILLEGAL_STATE before start(); MARSHALLINGERROR if the node holds no count. */
  getCount(): number {
    return countFromBytes(this.#value.getValue(), this.path);
  }

  /** The latest count with its version, for trySetCount. */
  getVersionedValue(): VersionedValue<number> {
    const { version, value } = this.#value.getVersionedValue();
    return { version, value: countFromBytes(value, this.path) };
  }

  /** Writes `newCount` whatever the node holds. */
  setCount(newCount: number): Promise<void> {
    checkInt(newCount, 'SharedCount.setCount', this.path);
    return this.#value.setValue(countToBytes(newCount));
  }

  /**
   * Writes `newCount` only if `previous` (from getVersionedValue) is still current: true when written, false when
   * someone wrote meanwhile (the local count is then refreshed; read it again and retry).
   */
  trySetCount(previous: VersionedValue<number>, newCount: number): Promise<boolean> {
    checkInt(newCount, 'SharedCount.trySetCount', this.path);
    checkInt(previous?.value, 'SharedCount.trySetCount', this.path);
    return this.#value.trySetValue({ version: previous.version, value: countToBytes(previous.value) }, countToBytes(newCount));
  }

  addListener(listener: (event: SharedCountEvent) => void): () => void {
    return this.#events.subscribe(listener);
  }

  events(options: { signal?: AbortSignal } = {}): AsyncIterable<SharedCountEvent> {
    return this.#events.stream(options.signal);
  }

  /**
   * Stops watching the count (the node and its value stay) and ends the event streams. ILLEGAL_STATE unless
   * started; `await using` closes quietly in any state.
   */
  async close(): Promise<void> {
    try {
      await this.#value.close();
    } finally {
      if (this.#value.state === 'CLOSED') this.#events.end();
    }
  }

  /** For `await using`: close() if started, else just marks it CLOSED; either way the event streams end. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.#value[Symbol.asyncDispose]();
    this.#events.end();
  }
}
