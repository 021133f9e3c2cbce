/**
 * Wraps a client so that every promise any of its methods returns is tracked: the workers' own calls and the
 * requests the lock recipes make inside (they only use the public client API, so they call through the wrapper).
 * One-shot watch promises that come back with a result are tracked too, for settling only: every one of them must
 * settle by the time the client is closed.
 */

import type { ZooKeeperClient } from '../../src/node.js';
import type { OpTracker } from './op-tracker.js';

/** Methods whose promises are not ZooKeeper requests and get their own bounds (or none). */
const UNBOUNDED = new Set<string | symbol>(['close', Symbol.asyncDispose]);

/**
 * Whether the call sends its request again after a lost reply: a protected create (the recipes' creates), a
 * guaranteed delete, any call with a retry policy. Each attempt has the one-request bound (TrackOptions.perAttempt).
 */
function sendsAgain(prop: string | symbol, args: readonly unknown[]): boolean {
  const options = args.at(-1) as { protected?: unknown; guaranteed?: unknown; retry?: unknown } | null | undefined;
  if (typeof options !== 'object' || options === null) return false;
  return (prop === 'create' && options.protected !== undefined) || (prop === 'delete' && options.guaranteed === true) || options.retry !== undefined;
}

export function trackedClient(
  client: ZooKeeperClient,
  tracker: OpTracker,
  session: string,
  /** How long one request may take before the watchdog calls it hung. */
  requestBoundMs: number,
): ZooKeeperClient {
  return new Proxy(client, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      const method = value as (...args: unknown[]) => unknown;
      return (...args: unknown[]): unknown => {
        const result = method.apply(target, args);
        if (!(result instanceof Promise)) return result;
        const name = `client.${String(prop)}`;
        const tracked = tracker.track(session, name, result, UNBOUNDED.has(prop) ? {} : { boundMs: requestBoundMs, perAttempt: sendsAgain(prop, args) });
        tracked.then(
          (value: unknown) => {
            const watch = (value as { watch?: unknown } | null | undefined)?.watch;
            if (watch instanceof Promise) tracker.track(session, 'watch', watch, { count: false });
          },
          () => undefined,
        );
        return tracked;
      };
    },
  });
}
