/**
 * `collectStats(client)`: the client's figures (calls, failures and latency per operation, errors by code, bytes,
 * reconnects, renewals, watches) counted from the moment it is called. A separate import rather than a method of
 * the client, so that an application that never asks for them ships none of the counting (bench:size): the client
 * itself keeps only the tap it tells of each call (observe.ts), and this attaches to it.
 */

import { clientContext, type ZooKeeperClient } from '../client.js';
import { callStats, type ClientStats } from './call-stats.js';

/** What `collectStats` returns: the figures counted since it was made, until `stop()` (or `using` disposes it). */
export interface StatsCollector extends Disposable {
  /** The figures so far (after `stop()`, those at the stop). */
  snapshot(): ClientStats;
  /** Stops counting; `snapshot()` then keeps giving the figures at the stop. */
  stop(): void;
}

/**
 * Starts counting the calls of `client` and its connection changes, across session renewals. A view of a client
 * (usingNamespace) shares its client's session, so a collector made on a view counts every call of that client and
 * of all its views. With the client's `observe: false` nothing is counted but the watches held. Several collectors
 * may count at once, each from its own start.
 */
export function collectStats(client: ZooKeeperClient): StatsCollector {
  const { sessions } = clientContext(client, 'collectStats');
  const counts = callStats();
  const { taps } = sessions.options;
  const renewals = sessions.renewals;
  taps?.add(counts.record);
  const unsubscribe = taps
    ? sessions.subscribe((change) => {
        if (change.event === 'RECONNECTED' && !change.newSession) counts.reconnected();
      })
    : () => undefined;
  let last: ClientStats | undefined;
  const snapshot = (): ClientStats => last ?? counts.snapshot(sessions.renewals - renewals, sessions.current.watches.size);
  const stop = (): void => {
    if (last) return;
    last = snapshot();
    taps?.delete(counts.record);
    unsubscribe();
  };
  return { snapshot, stop, [Symbol.dispose]: stop };
}
