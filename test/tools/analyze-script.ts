/**
 * A small script language for synthetic capture events: sessions that connect, send requests and get replies,
 * with DescribedFrames shaped exactly as the ConversationDecoder produces them. For the cases real traffic
 * rarely shows (two lock holders at once, expiry, lost watches); real traffic is tested against a real server.
 */

import { OpCode, opName, type DescribedFrame } from '../../src/protocol/index.js';
import type { CaptureConnection, CaptureEvent } from '../../src/tools/capture/events.js';

export class Script {
  readonly events: CaptureEvent[] = [];
  private nowUs = 1_700_000_000_000_000;
  private nextConn = 1;

  /** Advances the clock. */
  wait(ms: number): this {
    this.nowUs += ms * 1000;
    return this;
  }

  /** A new connection; `resume` reconnects an existing session (a non-zero id in the connect request). */
  connect(sessionId: bigint, opts: { resume?: boolean; timeoutMs?: number } = {}): Conn {
    const conn: CaptureConnection = { id: String(this.nextConn), client: `10.0.0.${this.nextConn}:5000${this.nextConn}`, server: '10.0.0.100:2181' };
    this.nextConn++;
    const c = new Conn(this, conn, sessionId);
    this.push({ type: 'open', conn, timeUs: this.nowUs, midStream: false });
    const timeOut = opts.timeoutMs ?? 10_000;
    c.frame('c2s', { kind: 'connect-request', decoded: { protocolVersion: 0, lastZxidSeen: 0n, timeOut, sessionId: opts.resume === true ? sessionId : 0n, passwd: new Uint8Array(16) }, summary: 'connect' });
    this.wait(1);
    c.frame('s2c', { kind: 'connect-response', decoded: { protocolVersion: 0, timeOut, sessionId, passwd: new Uint8Array(16) }, summary: 'connected' });
    return c;
  }

  /** The server's transaction counter: every reply carries the next one. */
  nextZxid(): bigint {
    return BigInt(++this.zxid);
  }

  private zxid = 0;

  push(e: CaptureEvent): void {
    this.events.push(e);
  }

  get time(): number {
    return this.nowUs;
  }
}

export class Conn {
  /** The last xid used (set it to skip xids sent by hand). */
  xid = 0;

  constructor(
    private readonly script: Script,
    readonly conn: CaptureConnection,
    readonly sessionId: bigint,
  ) {}

  frame(dir: 'c2s' | 's2c', frame: DescribedFrame): void {
    this.script.push({ type: 'frame', conn: this.conn, timeUs: this.script.time, dir, frame, size: 64, bytes: new Uint8Array(0), sessionId: undefined, latencyMs: undefined });
  }

  /** A request and, 1 ms later, its reply (`err` 0 unless given). */
  call(opcode: number, body: Record<string, unknown> | undefined, reply: { err?: number; body?: unknown; latencyMs?: number; zxid?: bigint } = {}): void {
    const xid = opcode === OpCode.ping ? -2 : ++this.xid;
    const op = opName(opcode);
    const path = typeof body?.['path'] === 'string' ? (body['path'] as string) : undefined;
    const req: DescribedFrame = { kind: 'request', xid, opcode, op, decoded: { header: { xid, type: opcode }, ...(body === undefined ? {} : { body }) }, summary: op };
    if (path !== undefined) req.path = path;
    this.frame('c2s', req);
    this.script.wait(reply.latencyMs ?? 1);
    const err = reply.err ?? 0;
    const zxid = reply.zxid ?? this.script.nextZxid();
    const rep: DescribedFrame = { kind: 'reply', xid, opcode, op, zxid, err, decoded: { header: { xid, zxid, err }, ...(reply.body === undefined ? {} : { body: reply.body }) }, summary: op };
    if (path !== undefined) rep.path = path;
    this.frame('s2c', rep);
  }

  createSeq(path: string, seq: number, flags = 3): string {
    const actual = `${path}${String(seq).padStart(10, '0')}`;
    this.call(OpCode.create, { path, data: null, acl: [], flags }, { body: { path: actual } });
    return actual;
  }

  /** A getChildren reply; `zxid` makes it a listing the server made earlier than the replies before it. */
  list(dir: string, children: string[], watch = false, zxid?: bigint): void {
    this.call(OpCode.getChildren, { path: dir, watch }, { body: { children }, ...(zxid === undefined ? {} : { zxid }) });
  }

  watchData(path: string): void {
    this.call(OpCode.getData, { path, watch: true }, { body: { data: null, stat: {} } });
  }

  delete(path: string): void {
    this.call(OpCode.delete, { path, version: -1 });
  }

  closeSession(): void {
    this.call(OpCode.closeSession, undefined);
  }

  notify(type: number, path: string): void {
    this.frame('s2c', { kind: 'notification', xid: -1, zxid: -1n, err: 0, decoded: { header: { xid: -1, zxid: -1n, err: 0 }, body: { type, state: 3, path } }, path, summary: 'event' });
  }

  close(reason: 'fin' | 'rst' | 'capture-end' = 'fin'): void {
    this.script.push({ type: 'close', conn: this.conn, timeUs: this.script.time, reason });
  }
}
