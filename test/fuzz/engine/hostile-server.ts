/**
 * A hostile ZooKeeper server for fuzzing the session, written with the codec's own encoders. It speaks enough
 * of the protocol to get a client going (handshake, a plausible reply to every request, pings, auth), and on
 * each connection and each request it may lie instead: truncated or over-limit frames, lying length prefixes,
 * wrong xids, unknown error codes, notifications for paths nobody watches, garbage after the handshake, a
 * ConnectResponse with timeOut 0, silence, or a reset. It also checks the client's side of the contract:
 * every frame the client writes must decode.
 *
 * Transport-agnostic: a link is anything with send/close, so the same server runs over the in-memory transport
 * (fast, virtual time) and over node:net (the real socket path).
 */

import {
  DEFAULT_MAX_FRAME_SIZE,
  decodeConnectRequest,
  decodeRequestBody,
  decodeRequestHeader,
  detectFourLetterWord,
  encodeConnectResponseFrame,
  encodeNotificationFrame,
  encodeReplyFrame,
  ErrorCode,
  FrameDecoder,
  JuteReader,
  JuteWriter,
  OpCode,
  Xid,
} from '../../../src/protocol/index.js';
import { cannedReplyBody } from './canned-replies.js';
import { mutate, fixPrefix } from './mutate.js';
import type { Prng } from '../../harness/prng.js';

export interface ServerLink {
  send(bytes: Uint8Array): void;
  close(): void;
}

export type HandshakeAct =
  | 'ok'
  | 'timeout-zero'
  | 'timeout-negative'
  | 'timeout-tiny'
  | 'timeout-huge'
  | 'truncated'
  | 'garbage'
  | 'silent'
  | 'mutated'
  | 'trailing-garbage'
  | 'over-limit'
  | 'negative-length'
  | 'close';

export type ReplyAct =
  | 'ok'
  | 'error-code'
  | 'unknown-error-code'
  | 'wrong-xid'
  | 'reserved-xid'
  | 'ping-xid'
  | 'auth-xid'
  | 'truncated-body'
  | 'truncated-frame'
  | 'lying-length'
  | 'over-limit'
  | 'just-under-limit'
  | 'notification'
  | 'mutated'
  | 'garbage'
  | 'silent'
  | 'close'
  | 'duplicate'
  | 'one-byte-chunks';

const HANDSHAKE_ACTS: readonly HandshakeAct[] = [
  'timeout-zero', 'timeout-negative', 'timeout-tiny', 'timeout-huge', 'truncated', 'garbage', 'silent', 'mutated',
  'trailing-garbage', 'over-limit', 'negative-length', 'close',
];
const REPLY_ACTS: readonly ReplyAct[] = [
  'error-code', 'unknown-error-code', 'wrong-xid', 'reserved-xid', 'ping-xid', 'auth-xid', 'truncated-body', 'truncated-frame', 'lying-length',
  'over-limit', 'just-under-limit', 'notification', 'mutated', 'garbage', 'silent', 'close', 'duplicate', 'one-byte-chunks',
];
const KNOWN_ERRORS = Object.values(ErrorCode).filter((e) => e !== 0);
const UNKNOWN_ERRORS = [1, 2, -9, -99, -131, -200, 12345, -0x80000000, 0x7fffffff];

export interface HostileServerOptions {
  /** The client's frame limit: over-limit frames are this plus one. */
  readonly clientMaxFrameSize?: number;
  /** Chance that a connection's handshake is honest (default 0.75). */
  readonly honestHandshake?: number;
  /** Per-connection chance of lying on each reply is picked from these (default 0, 0.1, 0.3, 1). */
  readonly lieRates?: readonly number[];
  /** Golden frames to splice into mutated replies. */
  readonly donors?: readonly Uint8Array[];
  /** Acts never to use (to look past a known bug while it is being fixed: `--exclude timeout-tiny`). */
  readonly exclude?: readonly string[];
  /** A scripted server for targeted tests: fixed acts instead of random ones (pings then always answered). */
  readonly plan?: ServerPlan;
}

export interface ServerPlan {
  /** The handshake of connection `conn` (1-based); default 'ok'. */
  handshake?(conn: number): HandshakeAct;
  /** The act for a request; default 'ok'. */
  reply?(conn: number, xid: number, opcode: number): ReplyAct;
  /** timeOut granted by an 'ok' handshake, instead of the one requested. */
  readonly timeOut?: number;
  /** How auth packets are answered; default 'ok'. */
  readonly auth?: 'ok' | 'silent' | 'failed';
}

export class HostileServer {
  /** What the server did, in order (the failure report shows the tail). */
  readonly log: string[] = [];
  /** Contract breaches by the client seen from the server side (undecodable client frames). */
  readonly clientViolations: string[] = [];
  connections = 0;
  private readonly maxFrame: number;
  private readonly honest: number;
  private readonly lieRates: readonly number[];
  private readonly donors: readonly Uint8Array[];
  private nextSession = 0x100n;
  private readonly handshakeActs: readonly HandshakeAct[];
  private readonly replyActs: readonly ReplyAct[];
  private readonly plan: ServerPlan | undefined;

  constructor(
    private readonly rng: Prng,
    options: HostileServerOptions = {},
  ) {
    this.maxFrame = options.clientMaxFrameSize ?? DEFAULT_MAX_FRAME_SIZE;
    this.honest = options.honestHandshake ?? 0.75;
    this.lieRates = options.lieRates ?? [0, 0.1, 0.3, 1];
    this.donors = options.donors ?? [];
    this.plan = options.plan;
    const exclude = new Set(options.exclude ?? []);
    this.handshakeActs = HANDSHAKE_ACTS.filter((a) => !exclude.has(a));
    this.replyActs = REPLY_ACTS.filter((a) => !exclude.has(a));
  }

  /** Whether to refuse the next TCP connect outright. */
  refuses(): boolean {
    if (this.plan !== undefined) return false;
    const refuse = this.rng.chance(0.05);
    if (refuse) this.log.push('refuse connect');
    return refuse;
  }

  accept(link: ServerLink): (chunk: Uint8Array) => void {
    const id = ++this.connections;
    const handshake: HandshakeAct =
      this.plan !== undefined
        ? (this.plan.handshake?.(id) ?? 'ok')
        : this.rng.chance(this.honest) || this.handshakeActs.length === 0 ? 'ok' : this.rng.pick(this.handshakeActs);
    const lieRate = this.plan !== undefined ? 0 : this.rng.pick(this.lieRates);
    this.log.push(`conn ${id}: handshake ${handshake}, lie rate ${lieRate}`);
    const frames = new FrameDecoder({ maxFrameSize: DEFAULT_MAX_FRAME_SIZE });
    let seenConnect = false;
    let connected = false;
    let dead = false;
    let zxid = 0x100n;
    const w = new JuteWriter();
    const send = (bytes: Uint8Array): void => {
      if (!dead) link.send(bytes);
    };
    const close = (): void => {
      if (dead) return;
      dead = true;
      link.close();
    };

    const answerConnect = (payload: Uint8Array): void => {
      let req;
      try {
        req = decodeConnectRequest(new JuteReader(payload));
      } catch (e) {
        this.clientViolations.push(`undecodable ConnectRequest: ${String(e)}`);
        close();
        return;
      }
      const sessionId = req.sessionId === 0n ? this.nextSession++ : req.sessionId;
      const passwd = new Uint8Array(16).fill(7);
      const base = { protocolVersion: 0, timeOut: req.timeOut, sessionId, passwd, readOnly: false };
      const frame = (timeOut: number): Uint8Array => {
        encodeConnectResponseFrame(w.reset(), { ...base, timeOut });
        return w.toBytes();
      };
      switch (handshake) {
        case 'ok':
          send(frame(this.plan?.timeOut ?? req.timeOut));
          connected = true;
          return;
        case 'timeout-zero':
          return send(frame(0));
        case 'timeout-negative':
          return send(frame(-1));
        case 'timeout-tiny':
          send(frame(this.rng.range(1, 3)));
          connected = true;
          return;
        case 'timeout-huge':
          send(frame(0x7fffffff));
          connected = true;
          return;
        case 'truncated': {
          const f = frame(req.timeOut);
          send(f.subarray(0, this.rng.int(f.length)));
          return this.rng.chance(0.5) ? close() : undefined;
        }
        case 'garbage':
          return send(this.rng.bytes(this.rng.range(1, 64)));
        case 'silent':
          return;
        case 'mutated': {
          const m = mutate(this.rng, frame(req.timeOut), this.donors, true).bytes;
          send(this.rng.chance(0.5) ? fixPrefix(m) : m);
          connected = true;
          return;
        }
        case 'trailing-garbage': {
          const f = frame(req.timeOut);
          const g = this.rng.bytes(this.rng.range(1, 40));
          const both = new Uint8Array(f.length + g.length);
          both.set(f);
          both.set(g, f.length);
          send(both);
          connected = true;
          return;
        }
        case 'over-limit':
          return send(lengthOnly(this.maxFrame + 1, this.rng.bytes(16)));
        case 'negative-length':
          return send(lengthOnly(this.rng.pick([-1, -2, -0x80000000]), this.rng.bytes(8)));
        case 'close':
          return close();
      }
    };

    const answer = (payload: Uint8Array): void => {
      const r = new JuteReader(payload);
      let header;
      let body: unknown;
      try {
        header = decodeRequestHeader(r);
        body = decodeRequestBody(header.type, r);
      } catch (e) {
        this.clientViolations.push(`undecodable request: ${String(e)}`);
        close();
        return;
      }
      const { xid, type } = header;
      if (type === OpCode.ping || xid === Xid.ping) {
        if (this.plan !== undefined || !this.rng.chance(lieRate / 4)) {
          encodeReplyFrame(w.reset(), { xid: Xid.ping, zxid, err: 0 }, OpCode.ping);
          send(w.toBytes());
          return;
        }
      }
      if (type === OpCode.auth) {
        if (this.plan?.auth === 'silent') return;
        const err =
          this.plan?.auth === 'failed'
            ? ErrorCode.AUTHFAILED
            : this.rng.chance(lieRate)
              ? this.rng.pick([ErrorCode.AUTHFAILED, -99, 0])
              : 0;
        this.log.push(`auth reply err ${err}`);
        encodeReplyFrame(w.reset(), { xid: Xid.auth, zxid, err }, OpCode.auth);
        send(w.toBytes());
        if (err === ErrorCode.AUTHFAILED) close();
        return;
      }
      zxid++;
      const honest = (): Uint8Array => {
        encodeReplyFrame(w.reset(), { xid, zxid, err: 0 }, type, cannedReplyBody(type, body));
        return w.toBytes();
      };
      if (type === OpCode.closeSession) {
        send(honest());
        close();
        return;
      }
      const act: ReplyAct =
        this.plan !== undefined
          ? (this.plan.reply?.(id, xid, type) ?? 'ok')
          : this.rng.chance(lieRate) && this.replyActs.length > 0
            ? this.rng.pick(this.replyActs)
            : 'ok';
      if (act !== 'ok') this.log.push(`conn ${id}: xid ${xid} op ${type}: ${act}`);
      this.reply(act, { xid, type, zxid, honest, send, close, w });
    };

    return (chunk: Uint8Array): void => {
      if (dead) return;
      // A four-letter word on a fresh connection is legal (a client asking srvr/envi/isro on a side connection):
      // answered as a read-only server that will not tell its version would, then closed.
      if (!seenConnect && detectFourLetterWord(chunk) !== undefined) {
        send(new TextEncoder().encode(detectFourLetterWord(chunk) === 'isro' ? 'ro' : ''));
        close();
        return;
      }
      frames.push(chunk);
      for (;;) {
        const next = frames.next();
        if (next.kind === 'need-more') return;
        if (next.kind === 'error') {
          this.clientViolations.push(`client sent a broken frame: ${next.error.message}`);
          close();
          return;
        }
        if (!seenConnect) {
          seenConnect = true;
          answerConnect(next.payload);
        } else if (connected) {
          answer(next.payload);
        }
        if (dead) return;
      }
    };
  }

  private reply(
    act: ReplyAct,
    c: {
      xid: number;
      type: number;
      zxid: bigint;
      honest: () => Uint8Array;
      send: (b: Uint8Array) => void;
      close: () => void;
      w: JuteWriter;
    },
  ): void {
    const { rng } = this;
    const header = (xid: number, err: number): Uint8Array => {
      encodeReplyFrame(c.w.reset(), { xid, zxid: c.zxid, err }, c.type);
      return c.w.toBytes();
    };
    switch (act) {
      case 'ok':
        return c.send(c.honest());
      case 'error-code':
        return c.send(header(c.xid, rng.pick(KNOWN_ERRORS)));
      case 'unknown-error-code':
        return c.send(header(c.xid, rng.pick(UNKNOWN_ERRORS)));
      case 'wrong-xid':
        return c.send(header(rng.pick([c.xid + 1, c.xid - 1, rng.u32() | 0, 0]), 0));
      case 'reserved-xid':
        return c.send(header(rng.pick([Xid.setWatches, -3, -5, -0x80000000]), 0));
      case 'ping-xid':
        // The reply dressed as a ping reply: the request's own reply never comes.
        return c.send(header(Xid.ping, 0));
      case 'auth-xid':
        return c.send(header(Xid.auth, 0));
      case 'truncated-body': {
        // An honest length prefix around a body cut short: the record decoder must say "short".
        const f = c.honest();
        return c.send(fixPrefix(f.subarray(0, rng.range(4, f.length))));
      }
      case 'truncated-frame': {
        const f = c.honest();
        c.send(f.subarray(0, rng.int(f.length)));
        return rng.chance(0.5) ? c.close() : undefined;
      }
      case 'lying-length': {
        const f = c.honest().slice();
        const len = f.length - 4 + rng.pick([-8, -4, -1, 1, 4, 100, 0x10000]);
        new DataView(f.buffer).setInt32(0, Math.max(0, len));
        return c.send(f);
      }
      case 'over-limit':
        return c.send(lengthOnly(this.maxFrame + 1, rng.bytes(rng.range(0, 64))));
      case 'just-under-limit': {
        // A legal length whose bytes never all arrive: the client may buffer it but no more.
        return c.send(lengthOnly(this.maxFrame, rng.bytes(rng.range(0, 256))));
      }
      case 'notification': {
        const n = rng.range(1, 3);
        for (let i = 0; i < n; i++) {
          const path = rng.pick([null, '/', '/unknown', `/x/${rng.u32()}`, '', 'relative', '/a\u0000b']);
          encodeNotificationFrame(
            c.w.reset(),
            { xid: Xid.notification, zxid: rng.chance(0.5) ? -1n : c.zxid, err: rng.pick([0, 0, -101, 7]) },
            { type: rng.pick([1, 2, 3, 4, 5, 6, 7, -1, 0, 99, -0x80000000]), state: rng.pick([3, -112, 0, 4, 99]), path },
          );
          c.send(c.w.toBytes());
        }
        return c.send(c.honest());
      }
      case 'mutated': {
        const m = mutate(rng, c.honest(), this.donors, true).bytes;
        return c.send(rng.chance(0.6) ? fixPrefix(m) : m);
      }
      case 'garbage':
        return c.send(rng.bytes(rng.range(1, 128)));
      case 'silent':
        return;
      case 'close':
        return c.close();
      case 'duplicate': {
        const f = c.honest();
        c.send(f);
        return c.send(f);
      }
      case 'one-byte-chunks': {
        const f = c.honest();
        for (let i = 0; i < f.length; i++) c.send(f.subarray(i, i + 1));
        return;
      }
    }
  }
}

function lengthOnly(length: number, tail: Uint8Array): Uint8Array {
  const out = new Uint8Array(4 + tail.length);
  new DataView(out.buffer).setInt32(0, length | 0);
  out.set(tail, 4);
  return out;
}
