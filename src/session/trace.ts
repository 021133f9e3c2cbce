/**
 * Frame tracing for the `onFrame` option: every frame sent or received, decoded by the protocol's
 * ConversationDecoder (the same describer `zkwire decode` and the tracing proxy use), timestamped, with
 * the session id in hex. Costs nothing when no onFrame is given: the session only calls in here then.
 */

import { ConversationDecoder, type DescribedFrame } from '../protocol/index.js';

export interface FrameTrace {
  readonly dir: 'c2s' | 's2c';
  /** Clock time (ms) when the frame was written or read. */
  readonly at: number;
  /** 1-based number of the TCP connection within this session object. */
  readonly connection: number;
  /** The session id as `0x…` (`0x0` before the first handshake). */
  readonly sessionId: string;
  /** The whole frame including its 4-byte length prefix (a copy). */
  readonly bytes: Uint8Array;
  readonly frame: DescribedFrame;
}

export type FrameListener = (trace: FrameTrace) => void;

export function sessionIdHex(id: bigint): string {
  return `0x${BigInt.asUintN(64, id).toString(16)}`;
}

export class Tracer {
  private conversation = new ConversationDecoder();
  private connection = 0;

  constructor(
    private readonly listener: FrameListener,
    private readonly now: () => number,
  ) {}

  newConnection(): void {
    this.conversation = new ConversationDecoder();
    this.connection++;
  }

  /** A frame we wrote (`bytes` includes the length prefix). */
  sent(bytes: Uint8Array, sessionId: bigint): void {
    this.emit('c2s', bytes.slice(), sessionId);
  }

  /** A frame we read (`payload` excludes the length prefix). */
  received(payload: Uint8Array, sessionId: bigint): void {
    const bytes = new Uint8Array(payload.length + 4);
    new DataView(bytes.buffer).setInt32(0, payload.length);
    bytes.set(payload, 4);
    this.emit('s2c', bytes, sessionId);
  }

  private emit(dir: 'c2s' | 's2c', bytes: Uint8Array, sessionId: bigint): void {
    try {
      const frame = this.conversation.decode(dir, bytes);
      this.listener({ dir, at: this.now(), connection: this.connection, sessionId: sessionIdHex(sessionId), bytes, frame });
    } catch {
      // Tracing is for looking, never for breaking the session.
    }
  }
}
