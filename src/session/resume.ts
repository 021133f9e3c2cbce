/**
 * What a (re)established connection sends before anything the application queued: the credentials
 * first, then the watches to re-arm (setWatches / setWatches2 in batches), as the Java client does.
 * The server replays, relative to the last zxid we saw, any event missed while we were away.
 */

import { OpCode } from '../protocol/index.js';
import type { QueueItem } from './batch.js';
import type { Credentials } from './credentials.js';
import { internalRequest } from './outgoing.js';
import { setWatchesBatches, type SetWatchesBatch, type WatchRegistry } from './watches.js';

export function resumePackets(credentials: Credentials, watches: WatchRegistry, lastZxid: bigint): QueueItem[] {
  const first = credentials.packets();
  if (watches.size > 0) {
    for (const batch of setWatchesBatches(watches.lists())) first.push(internalRequest(batch.opcode, setWatchesBody(batch, lastZxid)));
  }
  return first;
}

/** setWatches carries three lists; setWatches2 adds the persistent ones. */
function setWatchesBody(batch: SetWatchesBatch, relativeZxid: bigint): unknown {
  const l = batch.lists;
  const classic = { relativeZxid, dataWatches: l.data, existWatches: l.exist, childWatches: l.child };
  if (batch.opcode === OpCode.setWatches) return classic;
  return { ...classic, persistentWatches: l.persistent, persistentRecursiveWatches: l.persistentRecursive };
}
