/**
 * Connection-event damping, Curator's CircuitBreakingConnectionStateListener: on a flapping link a recipe (or an
 * application) that reacts to every SUSPENDED / RECONNECTED pair gives up and retakes leadership, or rebuilds
 * caches, in a storm. Damped, the first SUSPENDED (or LOST) is delivered at once and opens a circuit for the
 * RetryPolicy's first delay; while it is open, later events are only recorded (a LOST still goes through, once:
 * the session is gone and that cannot wait); when the delay ends with the link up (or nothing happened), the circuit
 * closes and the latest event is delivered, unless it is the one delivered last. With the link still down the
 * circuit stays open for the policy's next delay, and closes, delivering the latest, once the policy gives up.
 *
 * A RECONNECTED delivered at the close carries `newSession: true` when any RECONNECTED held back in the circuit
 * did, so a recipe never misses that its session was replaced.
 */

import type { ZooKeeperClient } from '../../client.js';
import type { StateChange } from '../../session/state.js';
import { clockOf, type Clock } from '../../session/clock.js';
import type { RetryPolicy } from '../../session/retry-policy.js';
import { onConnectionEvent, type RecipeConnectionEvent } from './connection.js';

/** How connection events are damped: the circuit's timing, and its clock (tests). */
export interface ConnectionDamping {
  /** The circuit stays open for `nextDelay(0, 0)`, then for each next delay while the link is down. */
  readonly retry: RetryPolicy;
  readonly clock?: Clock;
}

type Listener = (event: RecipeConnectionEvent, change: StateChange) => void;

/** Wraps `listener` in a circuit breaker (see the file comment); `close()` clears its timer. */
export function dampConnectionEvents(listener: Listener, damping: ConnectionDamping): { readonly listener: Listener; close(): void } {
  const clock = clockOf(damping.clock);
  let timer: unknown;
  let retries = 0;
  let openedAt = 0;
  let delivered: RecipeConnectionEvent | undefined;
  let latest: { event: RecipeConnectionEvent; change: StateChange } | undefined;
  let newSession = false;
  let lostSent = false;

  const deliver = (event: RecipeConnectionEvent, change: StateChange): void => {
    delivered = event;
    listener(event, change);
  };
  const arm = (delay: number | undefined): boolean => {
    if (delay === undefined) return false;
    timer = clock.setTimeout(check, Math.max(0, delay));
    return true;
  };
  const closeCircuit = (): void => {
    timer = undefined;
    const last = latest;
    const renewed = newSession;
    latest = undefined;
    newSession = false;
    lostSent = false;
    retries = 0;
    if (last !== undefined && last.event !== delivered) {
      deliver(last.event, last.event === 'RECONNECTED' && renewed && !last.change.newSession ? { ...last.change, newSession: true } : last.change);
    }
  };
  function check(): void {
    if (latest === undefined || latest.event === 'RECONNECTED') closeCircuit();
    else if (!arm(damping.retry.nextDelay(++retries, clock.now() - openedAt))) closeCircuit();
  }

  return {
    listener: (event, change) => {
      if (timer !== undefined) {
        if (event === 'RECONNECTED' && change.newSession) newSession = true;
        latest = { event, change };
        if (event === 'LOST' && !lostSent) {
          lostSent = true;
          deliver(event, change);
        }
        return;
      }
      if (event !== 'RECONNECTED') {
        openedAt = clock.now();
        lostSent = event === 'LOST';
        arm(damping.retry.nextDelay(0, 0));
      }
      deliver(event, change);
    },
    close: () => {
      if (timer !== undefined) clock.clearTimeout(timer);
      timer = undefined;
    },
  };
}

/**
 * Calls `listener` on `client`'s connection events (SUSPENDED, RECONNECTED, LOST, as recipes hear them) through a
 * circuit breaker: a flapping link's storm comes through as its first event and, once the link has settled, its
 * latest (see the file comment). Returns the unsubscribe function (which also clears the circuit's timer).
 */
export function onDampedConnectionEvent(client: ZooKeeperClient, listener: Listener, damping: ConnectionDamping): () => void {
  const damped = dampConnectionEvents(listener, damping);
  const unsubscribe = onConnectionEvent(client, damped.listener);
  return () => {
    unsubscribe();
    damped.close();
  };
}
