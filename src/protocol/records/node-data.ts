/**
 * Single-node operations: delete (2), exists (3), getData (4), setData (5), sync (9) and check (13), with the
 * replies that carry a body.
 */

import type { JuteReader, JuteWriter } from '../jute.js';
import { decodeStat, encodeStat, type Stat } from './stat.js';

/** The body of a delete request. */
export interface DeleteRequest {
  path: string | null;
  version: number;
}

/** The body of an exists request. */
export interface ExistsRequest {
  path: string | null;
  watch: boolean;
}

/** The body of an exists reply. */
export interface ExistsResponse {
  stat: Stat;
}

/** The body of a getData request. */
export interface GetDataRequest {
  path: string | null;
  watch: boolean;
}

/** The body of a getData reply. */
export interface GetDataResponse {
  data: Uint8Array | null;
  stat: Stat;
}

/** The body of a setData request. */
export interface SetDataRequest {
  path: string | null;
  data: Uint8Array | null;
  version: number;
}

/** The body of a setData reply. */
export interface SetDataResponse {
  stat: Stat;
}

/** The body of a sync request. */
export interface SyncRequest {
  path: string | null;
}

/** The body of a sync reply. */
export interface SyncResponse {
  path: string | null;
}

/** The body of a check op (a version check inside a multi). */
export interface CheckVersionRequest {
  path: string | null;
  version: number;
}

export function encodeDeleteRequest(w: JuteWriter, v: DeleteRequest): void {
  w.writeString(v.path);
  w.writeInt(v.version);
}

export function decodeDeleteRequest(r: JuteReader): DeleteRequest {
  return { path: r.readString('DeleteRequest.path'), version: r.readInt('DeleteRequest.version') };
}

export function encodeExistsRequest(w: JuteWriter, v: ExistsRequest): void {
  w.writeString(v.path);
  w.writeBool(v.watch);
}

export function decodeExistsRequest(r: JuteReader): ExistsRequest {
  return { path: r.readString('ExistsRequest.path'), watch: r.readBool('ExistsRequest.watch') };
}

export function encodeExistsResponse(w: JuteWriter, v: ExistsResponse): void {
  encodeStat(w, v.stat);
}

export function decodeExistsResponse(r: JuteReader): ExistsResponse {
  return { stat: decodeStat(r) };
}

export function encodeGetDataRequest(w: JuteWriter, v: GetDataRequest): void {
  w.writeString(v.path);
  w.writeBool(v.watch);
}

export function decodeGetDataRequest(r: JuteReader): GetDataRequest {
  return { path: r.readString('GetDataRequest.path'), watch: r.readBool('GetDataRequest.watch') };
}

export function encodeGetDataResponse(w: JuteWriter, v: GetDataResponse): void {
  w.writeBuffer(v.data);
  encodeStat(w, v.stat);
}

export function decodeGetDataResponse(r: JuteReader): GetDataResponse {
  return { data: r.readBuffer('GetDataResponse.data'), stat: decodeStat(r) };
}

export function encodeSetDataRequest(w: JuteWriter, v: SetDataRequest): void {
  w.writeString(v.path);
  w.writeBuffer(v.data);
  w.writeInt(v.version);
}

export function decodeSetDataRequest(r: JuteReader): SetDataRequest {
  return {
    path: r.readString('SetDataRequest.path'),
    data: r.readBuffer('SetDataRequest.data'),
    version: r.readInt('SetDataRequest.version'),
  };
}

export function encodeSetDataResponse(w: JuteWriter, v: SetDataResponse): void {
  encodeStat(w, v.stat);
}

export function decodeSetDataResponse(r: JuteReader): SetDataResponse {
  return { stat: decodeStat(r) };
}

export function encodeSyncRequest(w: JuteWriter, v: SyncRequest): void {
  w.writeString(v.path);
}

export function decodeSyncRequest(r: JuteReader): SyncRequest {
  return { path: r.readString('SyncRequest.path') };
}

export function encodeSyncResponse(w: JuteWriter, v: SyncResponse): void {
  w.writeString(v.path);
}

export function decodeSyncResponse(r: JuteReader): SyncResponse {
  return { path: r.readString('SyncResponse.path') };
}

export function encodeCheckVersionRequest(w: JuteWriter, v: CheckVersionRequest): void {
  w.writeString(v.path);
  w.writeInt(v.version);
}

export function decodeCheckVersionRequest(r: JuteReader): CheckVersionRequest {
  return { path: r.readString('CheckVersionRequest.path'), version: r.readInt('CheckVersionRequest.version') };
}
