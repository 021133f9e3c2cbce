/** The watch event a connected session receives for a node, as the cases expect it. */

import { expect } from 'vitest';
import type { WatchEvent } from '../../src/node.js';

/**
 * Matches the event whatever else it carries: ZooKeeper 3.9 adds the zxid of the change that fired it, which the
 * in-memory server does not reproduce (docs/testing.md) and test/client/watch-event-zxid.test.ts asserts per release.
 */
export const event = (type: WatchEvent['type'], path: string): WatchEvent => expect.objectContaining({ type, state: 'SyncConnected', path }) as WatchEvent;
