/**
 * ZooKeeper frames written byte by byte with a DataView, for harness tests and fault-injection tests that must not
 * depend on src/protocol (the codec under test). Layouts as in ZooKeeper's zookeeper.jute:
 * int32 length prefix, then the ConnectRequest/Response or a RequestHeader/ReplyHeader and the body.
 */
class HandWriter {
  private bytes = new Uint8Array(256);
  private view = new DataView(this.bytes.buffer);
  private at = 4; // room for the length prefix

  int(v: number): this {
    this.room(4).view.setInt32(this.at, v);
    this.at += 4;
    return this;
  }

  long(v: bigint): this {
    this.room(8).view.setBigInt64(this.at, v);
    this.at += 8;
    return this;
  }

  bool(v: boolean): this {
    this.room(1).view.setUint8(this.at, v ? 1 : 0);
    this.at += 1;
    return this;
  }

  /** Jute buffer/ustring: int length, then the bytes (ASCII strings only here). */
  buffer(v: Uint8Array): this {
    this.int(v.length).room(v.length).bytes.set(v, this.at);
    this.at += v.length;
    return this;
  }

  string(v: string): this {
    return this.buffer(Uint8Array.from(v, (c) => c.charCodeAt(0)));
  }

  /** The whole frame: 4-byte big-endian payload length, then the payload. */
  frame(): Uint8Array {
    this.view.setInt32(0, this.at - 4);
    return this.bytes.slice(0, this.at);
  }

  private room(n: number): this {
    if (this.at + n > this.bytes.length) {
      const grown = new Uint8Array((this.at + n) * 2);
      grown.set(this.bytes);
      this.bytes = grown;
      this.view = new DataView(grown.buffer);
    }
    return this;
  }
}

/** New-session ConnectRequest with the readOnly byte: a 45-byte payload, 49 bytes on the wire. */
export function connectRequestFrame(timeOutMs = 30_000): Uint8Array {
  return new HandWriter().int(0).long(0n).int(timeOutMs).long(0n).buffer(new Uint8Array(16)).bool(false).frame();
}

export interface HandConnectResponse {
  payloadLength: number;
  protocolVersion: number;
  timeOut: number;
  sessionId: bigint;
}

export function readConnectResponse(frame: Uint8Array): HandConnectResponse {
  const view = new DataView(frame.buffer, frame.byteOffset, frame.byteLength);
  return {
    payloadLength: view.getInt32(0),
    protocolVersion: view.getInt32(4),
    timeOut: view.getInt32(8),
    sessionId: view.getBigInt64(12),
  };
}

export const OP_CREATE = 1;
export const OP_EXISTS = 3;
export const OP_PING = 11;

/** Ping: header only, xid -2. */
export function pingFrame(): Uint8Array {
  return new HandWriter().int(-2).int(OP_PING).frame();
}

export function existsFrame(xid: number, path: string): Uint8Array {
  return new HandWriter().int(xid).int(OP_EXISTS).string(path).bool(false).frame();
}

/** Persistent create with world:anyone ALL, no data. */
export function createFrame(xid: number, path: string): Uint8Array {
  return new HandWriter()
    .int(xid)
    .int(OP_CREATE)
    .string(path)
    .buffer(new Uint8Array(0))
    .int(1) // one ACL
    .int(31) // Perms.ALL
    .string('world')
    .string('anyone')
    .int(0) // flags: persistent
    .frame();
}

/** ReplyHeader fields of a reply frame (prefix included). */
export function readReplyHeader(frame: Uint8Array): { xid: number; zxid: bigint; err: number } {
  const view = new DataView(frame.buffer, frame.byteOffset, frame.byteLength);
  return { xid: view.getInt32(4), zxid: view.getBigInt64(8), err: view.getInt32(16) };
}
