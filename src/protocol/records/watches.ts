/**
 * Watch management: checkWatches (17), removeWatches (18), addWatch (106) and the re-arming batches sent after a
 * reconnect, setWatches (101) and setWatches2 (105).
 */

import type { JuteReader, JuteWriter } from '../jute.js';

/** The body of a checkWatches request. */
export interface CheckWatchesRequest {
  path: string | null;
  /** WatcherType. */
  type: number;
}

/** The body of a removeWatches request. */
export interface RemoveWatchesRequest {
  path: string | null;
  /** WatcherType. */
  type: number;
}

/** The body of an addWatch request (persistent or persistent-recursive). */
export interface AddWatchRequest {
  path: string | null;
  /** AddWatchMode. */
  mode: number;
}

/** The body of setWatches: the watches to re-register after a reconnect, with the last zxid seen. */
export interface SetWatches {
  relativeZxid: bigint;
  dataWatches: string[] | null;
  existWatches: string[] | null;
  childWatches: string[] | null;
}

/** setWatches2: SetWatches plus persistent and persistent-recursive watches. */
export interface SetWatches2 extends SetWatches {
  persistentWatches: string[] | null;
  persistentRecursiveWatches: string[] | null;
}

export function encodeCheckWatchesRequest(w: JuteWriter, v: CheckWatchesRequest): void {
  w.writeString(v.path);
  w.writeInt(v.type);
}

export function decodeCheckWatchesRequest(r: JuteReader): CheckWatchesRequest {
  return { path: r.readString('CheckWatchesRequest.path'), type: r.readInt('CheckWatchesRequest.type') };
}

export function encodeRemoveWatchesRequest(w: JuteWriter, v: RemoveWatchesRequest): void {
  w.writeString(v.path);
  w.writeInt(v.type);
}

export function decodeRemoveWatchesRequest(r: JuteReader): RemoveWatchesRequest {
  return { path: r.readString('RemoveWatchesRequest.path'), type: r.readInt('RemoveWatchesRequest.type') };
}

export function encodeAddWatchRequest(w: JuteWriter, v: AddWatchRequest): void {
  w.writeString(v.path);
  w.writeInt(v.mode);
}

export function decodeAddWatchRequest(r: JuteReader): AddWatchRequest {
  return { path: r.readString('AddWatchRequest.path'), mode: r.readInt('AddWatchRequest.mode') };
}

export function encodeSetWatches(w: JuteWriter, v: SetWatches): void {
  w.writeLong(v.relativeZxid);
  w.writeStringVector(v.dataWatches);
  w.writeStringVector(v.existWatches);
  w.writeStringVector(v.childWatches);
}

export function decodeSetWatches(r: JuteReader): SetWatches {
  return {
    relativeZxid: r.readLong('SetWatches.relativeZxid'),
    dataWatches: r.readStringVector('SetWatches.dataWatches'),
    existWatches: r.readStringVector('SetWatches.existWatches'),
    childWatches: r.readStringVector('SetWatches.childWatches'),
  };
}

export function encodeSetWatches2(w: JuteWriter, v: SetWatches2): void {
  encodeSetWatches(w, v);
  w.writeStringVector(v.persistentWatches);
  w.writeStringVector(v.persistentRecursiveWatches);
}

export function decodeSetWatches2(r: JuteReader): SetWatches2 {
  return {
    relativeZxid: r.readLong('SetWatches2.relativeZxid'),
    dataWatches: r.readStringVector('SetWatches2.dataWatches'),
    existWatches: r.readStringVector('SetWatches2.existWatches'),
    childWatches: r.readStringVector('SetWatches2.childWatches'),
    persistentWatches: r.readStringVector('SetWatches2.persistentWatches'),
    persistentRecursiveWatches: r.readStringVector('SetWatches2.persistentRecursiveWatches'),
  };
}
