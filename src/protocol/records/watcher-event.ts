/** WatcherEvent: the body of a notification frame (xid -1). */

import type { JuteReader, JuteWriter } from '../jute.js';

/** The body of a notification: event type, keeper state and path. */
export interface WatcherEvent {
  type: number;
  state: number;
  path: string | null;
}

/** Writes a WatcherEvent. */
export function encodeWatcherEvent(w: JuteWriter, v: WatcherEvent): void {
  w.writeInt(v.type);
  w.writeInt(v.state);
  w.writeString(v.path);
}

/** Reads a WatcherEvent. */
export function decodeWatcherEvent(r: JuteReader): WatcherEvent {
  return { type: r.readInt('WatcherEvent.type'), state: r.readInt('WatcherEvent.state'), path: r.readString('WatcherEvent.path') };
}
