/**
 * The LockPort over the public ZooKeeperClient API. Only public methods are used (create, getChildren,
 * getData, exists, delete, multi, removeWatches, waitConnected, state and its changes), so the recipes work with
 * any client object, in any runtime.
 */

import type { ZooKeeperClient } from '../../client.js';
import { isCode } from '../../errors.js';
import { isConnected, isSessionOver, sessionEndCode } from '../common/connection.js';
import { systemClock, type Clock } from '../../session/clock.js';
import type { LockPort, PortConnectionEvent, PortWatch, PortWriteOp } from './port.js';

/** `{signal}` when there is one (exactOptionalPropertyTypes refuses `signal: undefined`). */
function sig(signal: AbortSignal | undefined): { signal?: AbortSignal } {
  return signal === undefined ? {} : { signal };
}

export function clientPort(client: ZooKeeperClient, clock: Clock = systemClock): LockPort {
  const watchOf = (path: string, fired: Promise<{ type: string; state: string }>, type: 'data' | 'children'): PortWatch => {
    let settled = false;
    void fired.then(() => {
      settled = true;
    });
    return {
      fired,
      async remove() {
        if (settled || isSessionOver(client)) return;
        // NOWATCHER: it fired meanwhile; anything else: the session is going and the watch with it.
        const removed = client.removeWatches(path, type).catch(() => undefined);
        // While disconnected the local watcher stays registered and the reconnect re-arms it on the server, so
        // the removal is queued behind the reconnect (it goes out right after the session's setWatches) instead
        // of being skipped; the caller does not wait for the link to come back.
        if (isConnected(client)) await removed;
      },
    };
  };

  return {
    clock,
    sessionId: () => client.sessionId,
    isConnected: () => isConnected(client),
    isSessionLost: () => isSessionOver(client),
    sessionEndCode: () => sessionEndCode(client),

    waitConnected(signal) {
      return client.waitConnected({ signal });
    },

    onConnectionEvent(listener) {
      return client.onStateChange((change) => {
        const event = change.event;
        if (event === 'SUSPENDED' || event === 'RECONNECTED' || event === 'LOST') listener(event as PortConnectionEvent);
      });
    },

    createSequentialAndList(path, parent, data, signal) {
      // Both calls queue synchronously, so they leave in the same write and are answered in this order.
      const created = client.create(path, data, { mode: 'ephemeral-sequential', stat: true, ...sig(signal) });
      const children = client.getChildren(parent, sig(signal));
      return {
        created: created.then((c) => ({ path: c.path, stamp: c.stat })),
        children,
      };
    },

    async ensureContainers(path, signal) {
      // Every missing ancestor and the lock directory itself become containers, as Curator's
      // creatingParentContainersIfNeeded makes them, so the server removes them once the lock is idle. All creates
      // queue at once (FIFO puts parents first) and travel together: one round trip.
      const parts = path.split('/').slice(1);
      const creates = parts.map((_, i) =>
        client.create('/' + parts.slice(0, i + 1).join('/'), null, { mode: 'container', ...sig(signal) }).then(
          () => undefined,
          (err: unknown) => {
            if (isCode(err, 'NODEEXISTS')) return;
            throw err;
          },
        ),
      );
      const failed = (await Promise.allSettled(creates)).find((r) => r.status === 'rejected');
      if (failed !== undefined) throw (failed as PromiseRejectedResult).reason;
    },

    getChildren(path, signal) {
      return client.getChildren(path, sig(signal));
    },

    async getChildrenWatch(path, signal) {
      const { children, watch } = await client.getChildren(path, { watch: true, ...sig(signal) });
      return { children, watch: watchOf(path, watch, 'children') };
    },

    async getDataWatch(path, signal) {
      const { data, watch } = await client.getData(path, { watch: true, ...sig(signal) });
      return { data, watch: watchOf(path, watch, 'data') };
    },

    async stamp(path, signal) {
      const stat = await client.exists(path, sig(signal));
      return stat ?? undefined;
    },

    delete(path) {
      return client.delete(path);
    },

    checkOp(path): PortWriteOp {
      return { kind: 'check', path, version: -1 };
    },

    multi(ops) {
      return client.multi(ops);
    },
  };
}
