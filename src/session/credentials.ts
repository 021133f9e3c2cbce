/**
 * The session's credentials: every auth the application gave (in options or through addAuth), re-sent
 * first on each new connection, and the addAuth callers still waiting for the server's first answer.
 * A credential the server refuses with an error other than AUTHFAILED is forgotten (not re-sent);
 * AUTHFAILED itself ends the session, which is the session's business, not this list's.
 */

import { clientError, withContext, type ZooKeeperError } from '../errors.js';
import type { QueueItem } from './batch.js';
import { AuthRecord } from './outgoing.js';

export class Credentials {
  // ES private: inspecting the session shows no list of credentials (the records hide their bytes too).
  readonly #records: AuthRecord[] = [];
  /** The authInfo credentials (given up front) the server has not answered yet. */
  readonly #unconfirmed = new Set<AuthRecord>();

  constructor(initial: readonly { readonly scheme: string; readonly auth: Uint8Array }[] = []) {
    for (const a of initial) {
      const record = new AuthRecord(a.scheme, a.auth);
      this.#records.push(record);
      this.#unconfirmed.add(record);
    }
  }

  /**
   * True once the server has answered every authInfo credential (on whichever connection): until then the
   * session does not call itself connected, so connect() cannot resolve on a session about to fail AUTHFAILED.
   */
  get confirmed(): boolean {
    return this.#unconfirmed.size === 0;
  }

  /** Adds a credential whose caller waits for the server's answer to it. */
  add(scheme: string, auth: Uint8Array, waiter: AuthRecord['waiters'][number]): AuthRecord {
    const record = new AuthRecord(scheme, auth);
    record.waiters.push(waiter);
    this.#records.push(record);
    return record;
  }

  /**
   * Every credential held (given up front or added, and not refused), in order: what a new session of the same
   * client starts with.
   */
  list(): { readonly scheme: string; readonly auth: Uint8Array }[] {
    return this.#records.map((r) => ({ scheme: r.scheme, auth: r.auth }));
  }

  /** One auth packet per credential, in the order they were given: what a new connection sends first. */
  packets(): QueueItem[] {
    return this.#records.map((auth) => ({ auth }));
  }

  /** The server answered a record's packet with `err` (not AUTHFAILED): settles its waiters. */
  answered(record: AuthRecord | undefined, err: number): void {
    if (record === undefined) return;
    this.#unconfirmed.delete(record);
    if (err === 0) settle(record);
    else this.reject(record, clientError('AUTHFAILED', `auth reply error ${err}`, { op: 'addAuth' }));
  }

  /** Forgets a credential and rejects its waiters. */
  reject(record: AuthRecord, err: ZooKeeperError): void {
    this.#unconfirmed.delete(record);
    const i = this.#records.indexOf(record);
    if (i >= 0) this.#records.splice(i, 1);
    settle(record, err);
  }

  /**
   * The connection these records' packets were written on died before their replies: their waiting callers get
   * `err` (CONNECTIONLOSS), the records stay and are re-sent on the next connection.
   */
  lost(records: readonly AuthRecord[], err: ZooKeeperError): void {
    for (const record of records) settle(record, withContext(err, 'addAuth'));
  }

  /**
   * Every waiting addAuth caller gets `err`: the session's terminal error, or CONNECTIONLOSS when no server could be
   * reached (the records stay, and go out on the next connection).
   */
  rejectWaiters(err: ZooKeeperError): void {
    for (const record of this.#records) settle(record, withContext(err, 'addAuth'));
  }
}

/** Resolves (no `err`) or rejects every caller waiting on `record`, each once: the list is emptied first. */
function settle(record: AuthRecord, err?: ZooKeeperError): void {
  const waiters = record.waiters;
  record.waiters = [];
  for (const w of waiters) {
    if (err === undefined) w.resolve();
    else w.reject(err);
  }
}
