/**
 * Frame tracing for the `onFrame` option: every frame sent or received, as bytes, timestamped, with the session
 * id in hex. Costs nothing when no onFrame is given: the session only calls in here then. The trace does not
 * decode the frames: `describeFrames` (describe-frames.ts) wraps a listener to get them decoded, so the frame
 * describer is in an application's bundle only when the application imports it.
 */

import { hexId, OpCode, Xid } from '../protocol/index.js';

/** One frame the session sent or received, as the `onFrame` option reports it. */
export interface FrameTrace {
  readonly dir: 'c2s' | 's2c';
  /** Clock time (ms) when the frame was written or read. */
  readonly at: number;
  /** 1-based number of the TCP connection within this session object. */
  readonly connection: number;
  /** The session id as `0x…` (`0x0` before the first handshake). */
  readonly sessionId: string;
  /** The whole frame including its 4-byte length prefix (a copy; an AuthPacket's credential blanked). */
  readonly bytes: Uint8Array;
}

/** The `onFrame` callback (wrap it in `describeFrames` to get each frame decoded). */
export type FrameListener = (trace: FrameTrace) => void;

/** The session id as ZooKeeper prints it: one format for the client, traces and the CLI (hexId). */
export const sessionIdHex: (id: bigint) => string = hexId;

export class Tracer {
  #connection = 0;
  readonly #listener: FrameListener;
  readonly #now: () => number;

  constructor(listener: FrameListener, now: () => number) {
    this.#listener = listener;
    this.#now = now;
  }

  newConnection(): void {
    this.#connection++;
  }

  /** A frame we wrote (`bytes` includes the length prefix); an AuthPacket's credential is blanked in the copy. */
  sent(bytes: Uint8Array, sessionId: bigint): void {
    const copy = bytes.slice();
    redactAuthPacket(copy);
    this.#emit('c2s', copy, sessionId);
  }

  /** A frame we read (`payload` excludes the length prefix). */
  received(payload: Uint8Array, sessionId: bigint): void {
    const bytes = new Uint8Array(payload.length + 4);
    new DataView(bytes.buffer).setInt32(0, payload.length);
    bytes.set(payload, 4);
    this.#emit('s2c', bytes, sessionId);
  }

  #emit(dir: 'c2s' | 's2c', bytes: Uint8Array, sessionId: bigint): void {
    try {
      this.#listener({ dir, at: this.#now(), connection: this.#connection, sessionId: sessionIdHex(sessionId), bytes });
    } catch {
      // Tracing is for looking, never for breaking the session.
    }
  }
}

/** What a traced credential byte becomes: `*`, so the decoded record shows `****` of the same length. */
const REDACTED = 0x2a;

/**
 * Overwrites the credential of an AuthPacket frame (xid -4, opcode auth) in place. Traces end up in files and
 * bug reports, so the password must not be in the bytes nor in the record decoded from them; its length and the
 * scheme stay, which is what a reader of the trace needs. The frame written to the server is a different buffer.
 * Layout: length, xid, opcode, then AuthPacket {int type, ustring scheme, buffer auth}.
 */
export function redactAuthPacket(frame: Uint8Array): void {
  if (frame.length < 24) return;
  const view = new DataView(frame.buffer, frame.byteOffset, frame.byteLength);
  if (view.getInt32(4) !== Xid.auth || view.getInt32(8) !== OpCode.auth) return;
  const schemeLength = Math.max(0, view.getInt32(16));
  const at = 20 + schemeLength;
  if (at + 4 > frame.length) return;
  const authLength = view.getInt32(at);
  if (authLength <= 0) return;
  frame.fill(REDACTED, at + 4, Math.min(frame.length, at + 4 + authLength));
}
