/**
 * Hand-built ZooKeeper frames for transport tests: the transport under test carries bytes only, so the
 * tests speak the protocol themselves (ConnectRequest, exists, closeSession) and read replies back.
 */

import { JuteReader, JuteWriter } from '../../src/protocol/jute.js';
import { OpCode } from '../../src/protocol/opcodes.js';

export function connectRequestFrame(timeoutMs: number): Uint8Array {
  const w = new JuteWriter();
  const mark = w.beginFrame();
  w.writeInt(0); // protocolVersion
  w.writeLong(0n); // lastZxidSeen
  w.writeInt(timeoutMs);
  w.writeLong(0n); // sessionId: new session
  w.writeBuffer(new Uint8Array(16)); // passwd
  w.writeBool(false); // readOnly
  return w.endFrame(mark).toBytes();
}

export interface ConnectReply {
  protocolVersion: number;
  timeOut: number;
  sessionId: bigint;
  passwd: Uint8Array | null;
}

export function parseConnectResponse(payload: Uint8Array): ConnectReply {
  const r = new JuteReader(payload);
  return { protocolVersion: r.readInt(), timeOut: r.readInt(), sessionId: r.readLong(), passwd: r.readBuffer() };
}

export function existsFrame(xid: number, path: string): Uint8Array {
  const w = new JuteWriter();
  const mark = w.beginFrame();
  w.writeInt(xid).writeInt(OpCode.exists).writeString(path).writeBool(false);
  return w.endFrame(mark).toBytes();
}

export function closeSessionFrame(xid: number): Uint8Array {
  const w = new JuteWriter();
  const mark = w.beginFrame();
  w.writeInt(xid).writeInt(OpCode.closeSession);
  return w.endFrame(mark).toBytes();
}

export interface ReplyHeader {
  xid: number;
  zxid: bigint;
  err: number;
}

export function parseReplyHeader(payload: Uint8Array): ReplyHeader {
  const r = new JuteReader(payload);
  return { xid: r.readInt(), zxid: r.readLong(), err: r.readInt() };
}

/** Splits a received byte stream into frame payloads, whatever the chunking. */
export class FrameCollector {
  readonly frames: Uint8Array[] = [];
  #pending = new Uint8Array(0);
  #waiters: { count: number; resolve: () => void }[] = [];

  push(chunk: Uint8Array): void {
    const joined = new Uint8Array(this.#pending.length + chunk.length);
    joined.set(this.#pending);
    joined.set(chunk, this.#pending.length);
    let offset = 0;
    while (joined.length - offset >= 4) {
      const length = new DataView(joined.buffer, offset, 4).getInt32(0);
      if (joined.length - offset - 4 < length) break;
      this.frames.push(joined.slice(offset + 4, offset + 4 + length));
      offset += 4 + length;
    }
    this.#pending = joined.slice(offset);
    this.#waiters = this.#waiters.filter((w) => {
      if (this.frames.length < w.count) return true;
      w.resolve();
      return false;
    });
  }

  /** Resolves once `count` frames have arrived in total. */
  waitFor(count: number): Promise<Uint8Array[]> {
    if (this.frames.length >= count) return Promise.resolve(this.frames);
    return new Promise((resolve) => this.#waiters.push({ count, resolve: () => resolve(this.frames) }));
  }
}
