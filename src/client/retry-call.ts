/**
 * Retries on every call (the client's and each call's `retry` option, in the one RetryPolicy vocabulary).
 *
 * Only a call that cannot be applied twice by being sent again is retried: a read, a write with a version (the
 * server refuses the second with BADVERSION), a create of a named node (NODEEXISTS), and any write the caller calls
 * idempotent. A sequential create is never retried: a second one would make a second node. The retry comes after a
 * CONNECTIONLOSS, SESSIONMOVED or REQUESTTIMEOUT, the errors that leave the session intact and the call's outcome
 * unknown; it waits the policy's delay, then for a connection, both cut short by the call's signal, so no call is
 * sent again past its deadline. After a lost reply the retry may meet its own first attempt's effect (NODEEXISTS,
 * BADVERSION, NONODE): `recover` (client/idempotent.ts, for idempotent writes) decides whether that is success.
 * The error a retried call ends with names the number of attempts.
 */

import { clientError, isCode, type ZooKeeperError } from '../errors.js';
import type { RequestSpec } from '../session/outgoing.js';
import { raceTimer } from '../session/race-timer.js';
import type { RetryPolicy } from '../session/retry-policy.js';
import type { SessionSeries } from './session-series.js';

/** After a lost reply, what a retried write's error means: a promise of success, or undefined (the error stands). */
export type Recover<T> = (err: ZooKeeperError) => Promise<T> | undefined;

/**
 * The opcodes of the reads (exists 3, getData 4, getACL 6, getChildren 8, sync 9, getChildren2 12, checkWatches 17,
 * multiRead 22, getEphemerals 103, getAllChildrenNumber 104, whoAmI 107) and of the creates (create 1, create2 15,
 * createContainer 19, createTTL 21), as numbers: OpCode's names would cost the client bundle their bytes.
 */
const READS = [3, 4, 6, 8, 9, 12, 17, 22, 103, 104, 107];
const CREATES = [1, 15, 19, 21];

/**
 * Whether sending the request again cannot apply it twice (or the caller says it does not matter): a read, a create
 * of a named node (not sequential: flag bit 2), a delete (2), setData (5) or setACL (7) with a version.
 */
export function mayRepeat(opcode: number, body: unknown, idempotent: boolean): boolean {
  const { flags, version } = body as { flags: number; version: number };
  return READS.includes(opcode) || (CREATES.includes(opcode) ? (flags & 2) === 0 : [2, 5, 7].includes(opcode) && (idempotent || version >= 0));
}

/** Sends `spec` (at once: call order stays wire order) and again under `policy` while its outcome is unknown. */
export async function retried<T>(sessions: SessionSeries, spec: RequestSpec<T>, policy: RetryPolicy, recover?: Recover<T>): Promise<T> {
  const { clock } = sessions.options;
  const { op, path, signal } = spec;
  let first: number | undefined;
  for (let attempt = 1; ; attempt++) {
    try {
      return await sessions.current.request(spec);
    } catch (e) {
      const err = e as ZooKeeperError;
      const recovered = attempt > 1 ? recover?.(err) : undefined;
      if (recovered !== undefined) return recovered;
      first ??= clock.now();
      const delay = isCode(err, 'CONNECTIONLOSS', 'SESSIONMOVED', 'REQUESTTIMEOUT') ? policy.nextDelay(attempt - 1, clock.now() - first) : undefined;
      if (delay === undefined && attempt < 2) throw err;
      try {
        if (delay === undefined) throw err;
        // The pause, cut short by the signal (the listener goes with the timer: a signal shared by many calls keeps none).
        if ((await raceTimer(undefined, clock, delay, signal)) === 'aborted') throw clientError('ABORTED', undefined, { cause: signal?.reason });
        await sessions.waitConnected(signal);
      } catch (end) {
        // The last error, saying how many attempts were made (the error it replaces is its cause).
        throw clientError((end as ZooKeeperError).code, `${attempt} attempts`, { op, path, cause: end });
      }
    }
  }
}
