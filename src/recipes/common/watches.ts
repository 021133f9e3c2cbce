/**
 * A one-shot watch a recipe set with a read, with the way to take it back: what the lock loop, the semaphore and
 * revocation wait on.
 */

import type { ZooKeeperClient } from '../../client.js';
import type { WatchEvent } from '../../client/types.js';
import { isConnected, isSessionOver } from './connection.js';

export interface OneShotWatch {
  /** Resolves on the first event (session ends arrive as events too); never rejects. */
  readonly fired: Promise<WatchEvent>;
  /**
   * Takes the watch back (locally, and on the server when nothing else in this client watches the path). While
   * disconnected the removal is queued behind the reconnect (which re-arms the watch) and this resolves at once.
   */
  remove(): Promise<void>;
}

export function oneShotWatch(client: ZooKeeperClient, path: string, fired: Promise<WatchEvent>, type: 'data' | 'children'): OneShotWatch {
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
}
