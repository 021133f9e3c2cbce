/**
 * ZooKeeper frames for transport tests, built and read with the codec (src/protocol): the transport under
 * test carries bytes only, so the tests speak the protocol themselves (ConnectRequest, exists,
 * closeSession) and read the replies back.
 */

import {
  FrameDecoder,
  JuteReader,
  JuteWriter,
  OpCode,
  decodeConnectResponse,
  decodeReplyHeader,
  encodeConnectRequestFrame,
  encodeRequestFrame,
  type ConnectResponse,
  type ReplyHeader,
} from '../../src/protocol/index.js';

export function connectRequestFrame(timeoutMs: number): Uint8Array {
  const w = new JuteWriter();
  encodeConnectRequestFrame(w, {
    protocolVersion: 0,
    lastZxidSeen: 0n,
    timeOut: timeoutMs,
    sessionId: 0n,
    passwd: new Uint8Array(16),
    readOnly: false,
  });
  return w.toBytes();
}

export function parseConnectResponse(payload: Uint8Array): ConnectResponse {
  return decodeConnectResponse(new JuteReader(payload));
}

export function existsFrame(xid: number, path: string): Uint8Array {
  const w = new JuteWriter();
  encodeRequestFrame(w, { xid, type: OpCode.exists }, { path, watch: false });
  return w.toBytes();
}

export function closeSessionFrame(xid: number): Uint8Array {
  const w = new JuteWriter();
  encodeRequestFrame(w, { xid, type: OpCode.closeSession });
  return w.toBytes();
}

export function parseReplyHeader(payload: Uint8Array): ReplyHeader {
  return decodeReplyHeader(new JuteReader(payload));
}

/** Splits a received byte stream into frame payloads, whatever the chunking, and lets tests wait for a count. */
export class FrameCollector {
  readonly frames: Uint8Array[] = [];
  readonly #decoder = new FrameDecoder();
  #waiters: { count: number; resolve: () => void }[] = [];

  push(chunk: Uint8Array): void {
    this.#decoder.push(chunk);
    for (let result = this.#decoder.next(); result.kind !== 'need-more'; result = this.#decoder.next()) {
      if (result.kind === 'error') throw new Error(`undecodable stream: ${result.error.message}`);
      // A copy: the decoder may hand out a view of the transport's chunk.
      this.frames.push(result.payload.slice());
    }
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
