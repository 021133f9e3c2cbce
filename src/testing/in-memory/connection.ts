/**
 * One client connection of the in-memory server: cuts the byte stream into frames (a length prefix below 0 or
 * above jute.maxbuffer closes the connection, as the real server's "Len error" does), answers the handshake, then
 * each request in order. What the real 3.8 server does with bad input, measured with raw sockets
 * (test/testing/in-memory-bad-frames.test.ts runs the same bytes against both):
 * - a first frame that is not a ConnectRequest, or a client that has seen a later zxid than the server: closed,
 *   no answer;
 * - a resume with an unknown or expired session or a wrong password: a ConnectResponse with timeout 0 (the client
 *   reads it as expiry), then closed;
 * - a request header that does not decode: closed; an unknown opcode: UNIMPLEMENTED (zxid -1), then closed;
 * - a request record that does not decode: MARSHALLINGERROR, and the connection stays.
 */

import { FrameDecoder } from '../../protocol/frame.js';
import { JuteDecodeError, JuteReader, JuteWriter } from '../../protocol/jute.js';
import { ErrorCode } from '../../protocol/error-codes.js';
import { KeeperState, OpCode, Xid } from '../../protocol/opcodes.js';
import { encodeConnectResponseFrame, encodeNotificationFrame, encodeReplyFrame } from '../../protocol/ops.js';
import { decodeAuthPacket } from '../../protocol/records/auth.js';
import { decodeConnectRequest, type ConnectRequest, type ConnectResponse } from '../../protocol/records/connect.js';
import { decodeRequestHeader } from '../../protocol/records/headers.js';
import type { Id } from '../../protocol/records/acl.js';
import { CLIENT_ADDRESS, digestIdentity } from './acl.js';
import type { ServerCore, SessionConnection } from './core.js';
import { isRequestOp, processRequest } from './request-processor.js';
import type { Session } from './sessions.js';
import type { Watcher } from './watch-manager.js';

/** The server's end of a client's byte stream. */
export interface ClientLink {
  /** Bytes for the client (delivered later, in order). */
  send(bytes: Uint8Array): void;
  /** Ends the stream after what was sent; the client sees the connection drop. */
  close(): void;
}

export class ServerConnection implements Watcher, SessionConnection {
  readonly #core: ServerCore;
  readonly #link: ClientLink;
  readonly #frames: FrameDecoder;
  readonly #writer = new JuteWriter(256);
  readonly #identities: Id[] = [{ scheme: 'ip', id: CLIENT_ADDRESS }];
  #superUser = false;
  #session: Session | undefined;
  #closed = false;

  constructor(core: ServerCore, link: ClientLink, private readonly onClosed: (c: ServerConnection) => void) {
    this.#core = core;
    this.#link = link;
    this.#frames = new FrameDecoder({ maxFrameSize: core.settings.maxBufferBytes });
  }

  get sessionId(): bigint | undefined {
    return this.#session?.id;
  }

  /** Bytes from the client. */
  receive(chunk: Uint8Array): void {
    if (this.#closed) return;
    this.#frames.push(chunk);
    while (!this.#closed) {
      const next = this.#frames.next();
      if (next.kind === 'need-more') return;
      if (next.kind === 'error') return this.close();
      if (this.#session === undefined) this.#handshake(next.payload);
      else this.#request(next.payload);
    }
  }

  /** A watch fired: a notification frame (xid -1, zxid -1 as 3.8 sends it). */
  notify(type: number, path: string): void {
    if (this.#closed) return;
    this.#send((w) => encodeNotificationFrame(w, { xid: Xid.notification, zxid: -1n, err: 0 }, { type, state: KeeperState.SyncConnected, path }));
  }

  /** Closes the connection; its watches go, its session stays (until it expires or is resumed). */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#core.watches.removeWatcher(this);
    if (this.#session !== undefined && this.#core.connectionOf(this.#session.id) === this) this.#core.attach(this.#session.id, undefined);
    this.#link.close();
    this.onClosed(this);
  }

  #send(encode: (w: JuteWriter) => void): void {
    encode(this.#writer.reset());
    this.#link.send(this.#writer.toBytes());
  }

  #handshake(payload: Uint8Array): void {
    let req: ConnectRequest;
    try {
      const r = new JuteReader(payload);
      req = decodeConnectRequest(r);
      if (r.remaining > 0) throw new JuteDecodeError('corrupt', 'bytes after the ConnectRequest', r.offset);
    } catch {
      return this.close();
    }
    const core = this.#core;
    // ZooKeeperServer.processConnectRequest: a client ahead of this server must find another one.
    if (req.lastZxidSeen > core.lastZxid) return this.close();
    const { minSessionTimeoutMs: min, maxSessionTimeoutMs: max } = core.settings;
    const timeOut = Math.min(Math.max(req.timeOut, min), max);
    let session: Session | undefined;
    if (req.sessionId === 0n) {
      core.nextZxid(); // createSession is a transaction
      session = core.sessions.create(timeOut);
    } else {
      session = core.sessions.get(req.sessionId);
      if (session !== undefined && !samePassword(session.password, req.passwd)) session = undefined;
    }
    const readOnly = req.readOnly === undefined ? {} : { readOnly: false };
    if (session === undefined) {
      const refused: ConnectResponse = { protocolVersion: 0, timeOut: 0, sessionId: 0n, passwd: new Uint8Array(16), ...readOnly };
      this.#send((w) => encodeConnectResponseFrame(w, refused));
      return this.close();
    }
    // The session moves here: its old connection is closed, as the real server does on a resume.
    core.connectionOf(session.id)?.close();
    session.timeoutMs = timeOut;
    core.sessions.touch(session);
    this.#session = session;
    core.attach(session.id, this);
    const accepted: ConnectResponse = { protocolVersion: 0, timeOut, sessionId: session.id, passwd: session.password, ...readOnly };
    this.#send((w) => encodeConnectResponseFrame(w, accepted));
  }

  #request(payload: Uint8Array): void {
    const core = this.#core;
    const session = this.#session!;
    const r = new JuteReader(payload);
    let header;
    try {
      header = decodeRequestHeader(r);
    } catch {
      return this.close();
    }
    core.sessions.touch(session);
    const { xid, type } = header;
    const reply = (zxid: bigint, err: number, body?: unknown): void =>
      this.#send((w) => encodeReplyFrame(w, { xid, zxid, err }, type, err === 0 ? body : undefined));
    switch (type) {
      case OpCode.ping:
        return reply(core.lastZxid, 0);
      case OpCode.auth:
        return this.#auth(r, reply);
      case OpCode.closeSession: {
        const zxid = core.nextZxid();
        core.endSession(session, zxid);
        reply(zxid, 0);
        return this.close();
      }
      default:
        if (!isRequestOp(type)) {
          // UnimplementedRequestProcessor: the error, then the connection goes.
          reply(-1n, ErrorCode.UNIMPLEMENTED);
          return this.close();
        }
    }
    const result = processRequest(
      core,
      { tree: core.tree, watches: core.watches, sessionId: session.id, identities: this.#identities, superUser: this.#superUser, watcher: this, behaviour: core.behaviour },
      type,
      r,
    );
    reply(result.zxid, result.err, result.body);
  }

  /** auth (xid -4): digest adds an identity; any other scheme is AUTHFAILED and the connection goes. */
  #auth(r: JuteReader, reply: (zxid: bigint, err: number) => void): void {
    let scheme: string | null = null;
    let auth: Uint8Array | null = null;
    try {
      ({ scheme, auth } = decodeAuthPacket(r));
    } catch {
      return this.close();
    }
    if (scheme !== 'digest' || auth === null) {
      reply(0n, ErrorCode.AUTHFAILED);
      return this.close();
    }
    const id = digestIdentity(auth);
    if (!this.#identities.some((i) => i.scheme === id.scheme && i.id === id.id)) this.#identities.push(id);
    if (this.#core.settings.superDigest === id.id) this.#superUser = true;
    reply(0n, 0);
  }
}

function samePassword(a: Uint8Array, b: Uint8Array | null): boolean {
  return b !== null && a.length === b.length && a.every((v, i) => v === b[i]);
}
