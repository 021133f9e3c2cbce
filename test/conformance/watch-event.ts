/** The watch event a connected session receives for a node, as the cases expect it. */

import type { WatchEvent } from '../../src/node.js';

export const event = (type: WatchEvent['type'], path: string): WatchEvent => ({ type, state: 'SyncConnected', path });
