/**
 * DistributedAtomicLong: Curator's distributed atomic long, on the same node and bytes (a 64-bit two's-complement
 * integer, 8 bytes big-endian; an empty or missing node reads as 0), so Curator and zkwire clients share counters.
 *
 * Each change is Curator's optimistic attempt: read the value and its version, write the new value only over that
 * version (or create the node if it is missing), and try again under the retry policy when someone else wrote
 * first. With `promotedToLock`, once the optimistic tries run out the change is tried again while holding an
 * InterProcessMutex, so heavy contention still completes. Every result says whether it succeeded, with the value
 * before and after.
 *
 * A write whose reply is lost (CONNECTIONLOSS) may or may not have been applied. Curator's retry loop would run it
 * again and could apply an increment twice; we never resend it: the operation rejects with the connection error,
 * so the caller knows the outcome is unknown. Reads are retried after reconnecting.
 *
 * Across a session expiry (the client opens a new session by itself) nothing of the value is lost: it lives in a
 * persistent node. An operation waiting for a connection or for its read at the expiry goes on on the new session:
 * the read is made again there and the change goes on under its retry policy (a read that has to wait for the new
 * session is not a try; the caller's signal bounds the wait). A write that was on its way when the session expired
 * rejects with SESSIONEXPIRED (or CONNECTIONLOSS), as a lost reply does: it may have been applied, and is not sent
 * again. With `promotedToLock`, the mutex follows the locks' rules across expiry (a held lease is lost, a waiting
 * acquire starts over); the tries under it stay versioned writes, so the value is never corrupted by a lease lost
 * midway. Only a client that has ended makes the operations reject (CLOSED, AUTHFAILED, or SESSIONEXPIRED).
 */

import type { ZooKeeperClient } from '../../client.js';
import type { Stat } from '../../client/types.js';
import { InterProcessMutex } from '../locks/mutex.js';
import { exponentialBackoff, type RetryPolicy } from '../../session/retry-policy.js';
import { sleep } from '../retry.js';
import { aborted, badArgument, recipeError } from '../common/errors.js';
import { retryableOn } from '../common/connection.js';
import { isCode } from '../../errors.js';
import { checkRecipePath, ensureContainers, parentPath } from '../common/nodes.js';
import { clockOf, type Clock } from '../../session/clock.js';

/** How an operation went (Curator's AtomicStats). */
export interface AtomicStats {
  readonly optimisticTries: number;
  readonly promotedLockTries: number;
  readonly optimisticTimeMs: number;
  readonly promotedTimeMs: number;
}

/** The outcome of an operation (Curator's AtomicValue): when `succeeded` is false, nothing was written. */
export interface AtomicValue<T> {
  readonly succeeded: boolean;
  /** The value the operation started from (0 when the node did not exist). */
  readonly preValue: T;
  /** The value written; equal to preValue when nothing was. */
  readonly postValue: T;
  readonly stats: AtomicStats;
}

/**
 * Curator's PromotedToLock: once the optimistic tries run out, try the change again while holding an
 * InterProcessMutex on `path` (which every process changing this value should name alike).
 */
export interface PromotedToLock {
  /** The mutex directory. */
  readonly path: string;
  /** How long to wait for the mutex; default: as long as it takes. */
  readonly timeoutMs?: number;
  /** Tries while holding the mutex. Default: three, 10 ms apart at first. */
  readonly retry?: RetryPolicy;
}

/** How a DistributedAtomicLong retries a change that lost a race with another writer. */
export interface DistributedAtomicLongOptions {
  /** How often and after how long the optimistic attempt is tried again. Default: 10 retries from 10 ms, doubling to 500 ms. */
  readonly retry?: RetryPolicy;
  /** Then try under a mutex (see PromotedToLock). Default: no lock; the change fails (`succeeded` false) when the tries run out. */
  readonly promotedToLock?: PromotedToLock;
  /** Timers (tests). */
  readonly clock?: Clock;
}

/** Cancels an operation between tries or while waiting for a connection or the mutex (rejects ABORTED). */
export interface AtomicCallOptions {
  readonly signal?: AbortSignal;
}

const MIN_LONG = -(2n ** 63n);
const MAX_LONG = 2n ** 63n - 1n;

/** 8 bytes, big-endian (Java's ByteBuffer.putLong). */
export function longToBytes(value: bigint): Uint8Array {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigInt64(0, value, false);
  return bytes;
}

/** Curator's reading: no data is 0; otherwise the first 8 bytes (MARSHALLINGERROR when fewer). */
export function longFromBytes(bytes: Uint8Array | undefined, path: string): bigint {
  if (bytes === undefined || bytes.length === 0) return 0n;
  if (bytes.length < 8) {
    throw recipeError('MARSHALLINGERROR', 'DistributedAtomicLong', path, `node data is ${bytes.length} bytes, not a long`);
  }
  return new DataView(bytes.buffer, bytes.byteOffset, 8).getBigInt64(0, false);
}

interface Current {
  readonly value: bigint;
  /** undefined when the node does not exist */
  readonly stat: Stat | undefined;
}

class Stats {
  optimisticTries = 0;
  promotedLockTries = 0;
  optimisticTimeMs = 0;
  promotedTimeMs = 0;
  freeze(): AtomicStats {
    return { ...this };
  }
}

/**
 * Curator's DistributedAtomicLong: a 64-bit signed counter in one persistent node (8 bytes big-endian; missing or
 * empty reads as 0), changed by optimistic versioned writes and, with `promotedToLock`, under a mutex when
 * contention exhausts them. Values are bigints; a result with `succeeded` false wrote nothing. A change whose reply
 * was lost rejects with the connection error (the outcome is unknown) rather than risk applying it twice. Across a
 * session expiry its reads go on on the new session (see the file's comment).
 *
 * Usage: `const r = await new DistributedAtomicLong(client, '/counters/jobs').increment(); if (r.succeeded) use(r.postValue);`
 */
export class DistributedAtomicLong {
  readonly #client: ZooKeeperClient;
  readonly #retry: RetryPolicy;
  readonly #promoted: { mutex: InterProcessMutex; timeoutMs: number | undefined; retry: RetryPolicy } | undefined;
  readonly #clock: Clock;

  constructor(
    client: ZooKeeperClient,
    /** The node holding the value. */
    readonly path: string,
    options: DistributedAtomicLongOptions = {},
  ) {
    checkRecipePath(path, 'DistributedAtomicLong');
    this.#client = client;
    this.#clock = clockOf(options.clock);
    this.#retry = options.retry ?? exponentialBackoff({ baseDelayMs: 10, maxDelayMs: 500, maxRetries: 10 });
    const promoted = options.promotedToLock;
    if (promoted !== undefined) {
      checkRecipePath(promoted.path, 'DistributedAtomicLong');
      if (promoted.timeoutMs !== undefined && !(promoted.timeoutMs >= 0)) {
        throw badArgument('DistributedAtomicLong', path, 'promotedToLock.timeoutMs must be >= 0');
      }
      this.#promoted = {
        mutex: new InterProcessMutex(client, promoted.path, { clock: this.#clock }),
        timeoutMs: promoted.timeoutMs,
        retry: promoted.retry ?? exponentialBackoff({ baseDelayMs: 10, maxDelayMs: 100, maxRetries: 2 }),
      };
    }
  }

  /** The current value (0 when the node does not exist); always succeeds. */
  async get(options: AtomicCallOptions = {}): Promise<AtomicValue<bigint>> {
    const current = await this.#read(options.signal);
    return { succeeded: true, preValue: current.value, postValue: current.value, stats: new Stats().freeze() };
  }

  /** Adds 1 (wrapping at 64 bits, as Java's long does). */
  increment(options: AtomicCallOptions = {}): Promise<AtomicValue<bigint>> {
    return this.#change((v) => v + 1n, options);
  }

  /** Subtracts 1 (wrapping at 64 bits, as Java's long does). */
  decrement(options: AtomicCallOptions = {}): Promise<AtomicValue<bigint>> {
    return this.#change((v) => v - 1n, options);
  }

  /** Adds `delta` (an integer; wrapping at 64 bits, as Java's long does). */
  add(delta: bigint | number, options: AtomicCallOptions = {}): Promise<AtomicValue<bigint>> {
    const d = this.#long(delta, 'add');
    return this.#change((v) => v + d, options);
  }

  /** Subtracts `delta` (an integer; wrapping at 64 bits, as Java's long does). */
  subtract(delta: bigint | number, options: AtomicCallOptions = {}): Promise<AtomicValue<bigint>> {
    const d = this.#long(delta, 'subtract');
    return this.#change((v) => v - d, options);
  }

  /** Sets `newValue` (retrying on contention like the other changes); `succeeded` false if the tries ran out. */
  trySet(newValue: bigint | number, options: AtomicCallOptions = {}): Promise<AtomicValue<bigint>> {
    const n = this.#long(newValue, 'trySet');
    return this.#change(() => n, options);
  }

  /**
   * Sets `newValue` only if the value is `expected` now, in one try (Curator's compareAndSet): the node must exist,
   * hold `expected`, and not change before the write.
   */
  async compareAndSet(expected: bigint | number, newValue: bigint | number, options: AtomicCallOptions = {}): Promise<AtomicValue<bigint>> {
    const e = this.#long(expected, 'compareAndSet');
    const n = this.#long(newValue, 'compareAndSet');
    const stats = new Stats();
    const started = this.#clock.now();
    const current = await this.#read(options.signal);
    stats.optimisticTries = 1;
    let succeeded = false;
    if (current.stat !== undefined && current.value === e) succeeded = await this.#write(current, n, options.signal);
    stats.optimisticTimeMs = this.#clock.now() - started;
    return { succeeded, preValue: current.value, postValue: succeeded ? n : current.value, stats: stats.freeze() };
  }

  /** Writes `newValue` whatever the value is (creating the node if missing). */
  async forceSet(newValue: bigint | number, options: AtomicCallOptions = {}): Promise<void> {
    const n = this.#long(newValue, 'forceSet');
    for (;;) {
      await this.#client.waitConnected({ signal: options.signal });
      try {
        await this.#client.setData(this.path, longToBytes(n), sig(options.signal));
        return;
      } catch (err) {
        if (!isCode(err, 'NONODE')) throw err;
      }
      if (await this.#create(n, options.signal)) return;
    }
  }

  /** Creates the node with `value` if it does not exist: true when this call created it (Curator's initialize). */
  async initialize(value: bigint | number, options: AtomicCallOptions = {}): Promise<boolean> {
    const n = this.#long(value, 'initialize');
    await this.#client.waitConnected({ signal: options.signal });
    return this.#create(n, options.signal);
  }

  #long(value: bigint | number, what: string): bigint {
    const v = typeof value === 'number' && Number.isSafeInteger(value) ? BigInt(value) : value;
    if (typeof v !== 'bigint' || v < MIN_LONG || v > MAX_LONG) {
      throw badArgument(`DistributedAtomicLong.${what}`, this.path, `expected a 64-bit integer (bigint, or a safe integer number), got ${String(value)}`);
    }
    return v;
  }

  async #change(next: (value: bigint) => bigint, options: AtomicCallOptions): Promise<AtomicValue<bigint>> {
    const signal = options.signal;
    const stats = new Stats();
    let started = this.#clock.now();
    let outcome = await this.#tryUnder(this.#retry, next, signal, () => stats.optimisticTries++);
    stats.optimisticTimeMs = this.#clock.now() - started;
    if (!outcome.succeeded && this.#promoted !== undefined) {
      const promoted = this.#promoted;
      started = this.#clock.now();
      const lease = await promoted.mutex.acquire({ ...(signal === undefined ? {} : { signal }), ...(promoted.timeoutMs === undefined ? {} : { timeoutMs: promoted.timeoutMs }) });
      if (lease.acquired) {
        try {
          outcome = await this.#tryUnder(promoted.retry, next, signal, () => stats.promotedLockTries++);
        } finally {
          await lease.release();
        }
      }
      stats.promotedTimeMs = this.#clock.now() - started;
    }
    return { ...outcome, stats: stats.freeze() };
  }

  /** Optimistic tries under `retry`: read, compute, write over the version read. */
  async #tryUnder(
    retry: RetryPolicy,
    next: (value: bigint) => bigint,
    signal: AbortSignal | undefined,
    counted: () => void,
  ): Promise<{ succeeded: boolean; preValue: bigint; postValue: bigint }> {
    const first = this.#clock.now();
    for (let attempt = 0; ; attempt++) {
      if (signal?.aborted === true) throw aborted(signal, 'DistributedAtomicLong');
      counted();
      const current = await this.#read(signal);
      const value = BigInt.asIntN(64, next(current.value));
      if (await this.#write(current, value, signal)) return { succeeded: true, preValue: current.value, postValue: value };
      const delay = retry.nextDelay(attempt, this.#clock.now() - first);
      if (delay === undefined) return { succeeded: false, preValue: current.value, postValue: current.value };
      await sleep(delay, this.#clock, signal);
    }
  }

  /** The value and its stat (no stat when the node is missing); retried through reconnects and session renewals. */
  async #read(signal: AbortSignal | undefined): Promise<Current> {
    for (;;) {
      await this.#client.waitConnected({ signal: signal });
      try {
        const { data, stat } = await this.#client.getData(this.path, sig(signal));
        return { value: longFromBytes(data, this.path), stat };
      } catch (err) {
        if (isCode(err, 'NONODE')) return { value: 0n, stat: undefined };
        if (signal?.aborted === true || !retryableOn(this.#client, err)) throw err;
      }
    }
  }

  /** Writes `value` over exactly what `current` saw: false when someone else wrote (or created) first. */
  async #write(current: Current, value: bigint, signal: AbortSignal | undefined): Promise<boolean> {
    if (current.stat === undefined) return this.#create(value, signal);
    try {
      await this.#client.setData(this.path, longToBytes(value), { version: current.stat.version, ...sig(signal) });
      return true;
    } catch (err) {
      if (isCode(err, 'BADVERSION', 'NONODE')) return false;
      throw err; // CONNECTIONLOSS and SESSIONEXPIRED included: the write may have happened, and must not be sent again
    }
  }

  async #create(value: bigint, signal: AbortSignal | undefined): Promise<boolean> {
    for (;;) {
      try {
        await this.#client.create(this.path, longToBytes(value), sig(signal));
        return true;
      } catch (err) {
        if (isCode(err, 'NODEEXISTS')) return false;
        if (!isCode(err, 'NONODE')) throw err;
        await ensureContainers(this.#client, parentPath(this.path), signal);
      }
    }
  }
}

/** `{signal}` when there is one (exactOptionalPropertyTypes refuses `signal: undefined`). */
function sig(signal: AbortSignal | undefined): { signal?: AbortSignal } {
  return signal === undefined ? {} : { signal };
}
