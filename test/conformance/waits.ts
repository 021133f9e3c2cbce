/** Waiting on client state and on watch events without sleeping, for the conformance cases. */

import type { ZooKeeperClient } from '../../src/node.js';
import type { SessionState } from '../../src/session/state.js';

/** Resolves once the client's state satisfies `accept` (at once if it does already). */
export function untilState(client: ZooKeeperClient, accept: (state: SessionState) => boolean): Promise<void> {
  if (accept(client.state)) return Promise.resolve();
  return new Promise((resolve) => {
    const off = client.onStateChange((change) => {
      if (accept(change.to)) {
        off();
        resolve();
      }
    });
  });
}

/** Records the order in which promises settle, by label: `order` as they happened. */
export class SettleOrder {
  readonly order: string[] = [];

  track<T>(label: string, promise: Promise<T>): Promise<T> {
    void promise.then(
      () => this.order.push(label),
      () => this.order.push(label),
    );
    return promise;
  }
}
