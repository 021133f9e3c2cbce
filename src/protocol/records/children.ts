/**
 * Listing operations: getChildren (8), getChildren2 (12), getEphemerals (103) and getAllChildrenNumber (104).
 */

import type { JuteReader, JuteWriter } from '../jute.js';
import { decodeStat, encodeStat, type Stat } from './stat.js';

/** The body of a getChildren request. */
export interface GetChildrenRequest {
  path: string | null;
  watch: boolean;
}

/** The body of a getChildren reply. */
export interface GetChildrenResponse {
  children: string[] | null;
}

/** The body of a getChildren2 request (children and the parent's stat). */
export interface GetChildren2Request {
  path: string | null;
  watch: boolean;
}

/** The body of a getChildren2 reply. */
export interface GetChildren2Response {
  children: string[] | null;
  stat: Stat;
}

/** The body of a getEphemerals request. */
export interface GetEphemeralsRequest {
  prefixPath: string | null;
}

/** The body of a getEphemerals reply. */
export interface GetEphemeralsResponse {
  ephemerals: string[] | null;
}

/** The body of a getAllChildrenNumber request. */
export interface GetAllChildrenNumberRequest {
  path: string | null;
}

/** The body of a getAllChildrenNumber reply. */
export interface GetAllChildrenNumberResponse {
  totalNumber: number;
}

export function encodeGetChildrenRequest(w: JuteWriter, v: GetChildrenRequest): void {
  w.writeString(v.path);
  w.writeBool(v.watch);
}

export function decodeGetChildrenRequest(r: JuteReader): GetChildrenRequest {
  return { path: r.readString('GetChildrenRequest.path'), watch: r.readBool('GetChildrenRequest.watch') };
}

export function encodeGetChildrenResponse(w: JuteWriter, v: GetChildrenResponse): void {
  w.writeStringVector(v.children);
}

export function decodeGetChildrenResponse(r: JuteReader): GetChildrenResponse {
  return { children: r.readStringVector('GetChildrenResponse.children') };
}

export function encodeGetChildren2Request(w: JuteWriter, v: GetChildren2Request): void {
  w.writeString(v.path);
  w.writeBool(v.watch);
}

export function decodeGetChildren2Request(r: JuteReader): GetChildren2Request {
  return { path: r.readString('GetChildren2Request.path'), watch: r.readBool('GetChildren2Request.watch') };
}

export function encodeGetChildren2Response(w: JuteWriter, v: GetChildren2Response): void {
  w.writeStringVector(v.children);
  encodeStat(w, v.stat);
}

export function decodeGetChildren2Response(r: JuteReader): GetChildren2Response {
  return { children: r.readStringVector('GetChildren2Response.children'), stat: decodeStat(r) };
}

export function encodeGetEphemeralsRequest(w: JuteWriter, v: GetEphemeralsRequest): void {
  w.writeString(v.prefixPath);
}

export function decodeGetEphemeralsRequest(r: JuteReader): GetEphemeralsRequest {
  return { prefixPath: r.readString('GetEphemeralsRequest.prefixPath') };
}

export function encodeGetEphemeralsResponse(w: JuteWriter, v: GetEphemeralsResponse): void {
  w.writeStringVector(v.ephemerals);
}

export function decodeGetEphemeralsResponse(r: JuteReader): GetEphemeralsResponse {
  return { ephemerals: r.readStringVector('GetEphemeralsResponse.ephemerals') };
}

export function encodeGetAllChildrenNumberRequest(w: JuteWriter, v: GetAllChildrenNumberRequest): void {
  w.writeString(v.path);
}

export function decodeGetAllChildrenNumberRequest(r: JuteReader): GetAllChildrenNumberRequest {
  return { path: r.readString('GetAllChildrenNumberRequest.path') };
}

export function encodeGetAllChildrenNumberResponse(w: JuteWriter, v: GetAllChildrenNumberResponse): void {
  w.writeInt(v.totalNumber);
}

export function decodeGetAllChildrenNumberResponse(r: JuteReader): GetAllChildrenNumberResponse {
  return { totalNumber: r.readInt('GetAllChildrenNumberResponse.totalNumber') };
}
