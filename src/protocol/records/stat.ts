/** Stat: the metadata of a znode, returned by most read and write replies (68 bytes on the wire). */

import type { JuteReader, JuteWriter } from '../jute.js';

/** A znode's metadata: zxids, times, versions, ephemeral owner, data length and child count. */
export interface Stat {
  czxid: bigint;
  mzxid: bigint;
  ctime: bigint;
  mtime: bigint;
  version: number;
  cversion: number;
  aversion: number;
  ephemeralOwner: bigint;
  dataLength: number;
  numChildren: number;
  pzxid: bigint;
}

/** The encoded size of a Stat, for callers that size buffers. */
export const STAT_SIZE = 68;

export function encodeStat(w: JuteWriter, s: Stat): void {
  w.writeLong(s.czxid);
  w.writeLong(s.mzxid);
  w.writeLong(s.ctime);
  w.writeLong(s.mtime);
  w.writeInt(s.version);
  w.writeInt(s.cversion);
  w.writeInt(s.aversion);
  w.writeLong(s.ephemeralOwner);
  w.writeInt(s.dataLength);
  w.writeInt(s.numChildren);
  w.writeLong(s.pzxid);
}

export function decodeStat(r: JuteReader): Stat {
  return {
    czxid: r.readLong('Stat.czxid'),
    mzxid: r.readLong('Stat.mzxid'),
    ctime: r.readLong('Stat.ctime'),
    mtime: r.readLong('Stat.mtime'),
    version: r.readInt('Stat.version'),
    cversion: r.readInt('Stat.cversion'),
    aversion: r.readInt('Stat.aversion'),
    ephemeralOwner: r.readLong('Stat.ephemeralOwner'),
    dataLength: r.readInt('Stat.dataLength'),
    numChildren: r.readInt('Stat.numChildren'),
    pzxid: r.readLong('Stat.pzxid'),
  };
}
