/**
 * Writes the synthetic packet capture bench/decode.ts measures: a pcap (Ethernet, IPv4, TCP with Linux's timestamp
 * option) of many interleaved ZooKeeper sessions with a realistic op mix — getData/exists/getChildren reads with
 * replies from tens of bytes to several KB (split into MSS-sized segments), creates, setData, deletes, pings,
 * notifications — plus the pure ACKs loopback traffic carries. Streams to disk; never holds the file in memory.
 */

import { closeSync, openSync, writeSync } from 'node:fs';
import { JuteWriter } from '../src/protocol/index.js';

const MSS = 1448;
const FLUSH = 4 * 1024 * 1024;

class PcapOut {
  private buf = new Uint8Array(FLUSH + 128 * 1024);
  private view = new DataView(this.buf.buffer);
  private at = 0;
  written = 0;

  constructor(private readonly fd: number) {
    this.u32(0xa1b2c3d4).u16(2).u16(4).u32(0).u32(0).u32(262144).u32(1);
  }
  private u32(v: number): this {
    this.view.setUint32(this.at, v >>> 0, true);
    this.at += 4;
    return this;
  }
  private u16(v: number): this {
    this.view.setUint16(this.at, v, true);
    this.at += 2;
    return this;
  }

  /** One Ethernet/IPv4/TCP packet. */
  packet(timeUs: number, src: number, sport: number, dst: number, dport: number, seq: number, ack: number, flags: number, payload: Uint8Array): void {
    const len = 14 + 20 + 32 + payload.length;
    const sec = Math.floor(timeUs / 1e6);
    this.u32(sec).u32(timeUs - sec * 1e6).u32(len).u32(len);
    const v = this.view;
    const p = this.at;
    this.buf.fill(0, p, p + 14);
    v.setUint16(p + 12, 0x0800);
    const ip = p + 14;
    v.setUint8(ip, 0x45);
    v.setUint8(ip + 1, 0);
    v.setUint16(ip + 2, 20 + 32 + payload.length);
    v.setUint32(ip + 4, 0x4000);
    v.setUint8(ip + 8, 64);
    v.setUint8(ip + 9, 6);
    v.setUint16(ip + 10, 0);
    v.setUint32(ip + 12, src);
    v.setUint32(ip + 16, dst);
    const t = ip + 20;
    v.setUint16(t, sport);
    v.setUint16(t + 2, dport);
    v.setUint32(t + 4, seq >>> 0);
    v.setUint32(t + 8, ack >>> 0);
    v.setUint8(t + 12, 8 << 4);
    v.setUint8(t + 13, flags);
    v.setUint32(t + 14, 65535 << 16);
    v.setUint32(t + 18, 0);
    this.buf.set([1, 1, 8, 10, 0, 0, 0, 1, 0, 0, 0, 2], t + 20);
    this.buf.set(payload, t + 32);
    this.at = t + 32 + payload.length;
    this.written += 16 + len;
    if (this.at >= FLUSH) this.flush();
  }

  flush(): void {
    writeSync(this.fd, this.buf, 0, this.at);
    this.at = 0;
  }
}

const PSH_ACK = 0x18;
const ACK = 0x10;
const SYN = 0x02;

interface Session {
  port: number;
  seqC: number;
  seqS: number;
  xid: number;
  zxid: bigint;
}

const w = new JuteWriter(64 * 1024);
const STAT = new Uint8Array(68);

function frame(build: (w: JuteWriter) => void): Uint8Array {
  w.reset();
  w.writeInt(0);
  build(w);
  const out = w.written().slice();
  new DataView(out.buffer).setUint32(0, out.length - 4);
  return out;
}

function data(n: number): Uint8Array {
  const d = new Uint8Array(n);
  for (let i = 0; i < n; i++) d[i] = 97 + (i % 26);
  return d;
}
const PAYLOADS = [data(16), data(120), data(900), data(4000)];

/** Writes at least `targetBytes` of capture to `file`; returns bytes and frames written. */
export function writeBenchCapture(file: string, targetBytes: number, sessions = 24): { bytes: number; frames: number } {
  const fd = openSync(file, 'w');
  const out = new PcapOut(fd);
  const client = 0x7f000001;
  const server = 0x7f000001;
  const list: Session[] = [];
  let time = 1_700_000_000_000_000;
  let frames = 0;
  const send = (s: Session, c2s: boolean, bytes: Uint8Array): void => {
    for (let at = 0; at < bytes.length; at += MSS) {
      const part = bytes.subarray(at, Math.min(bytes.length, at + MSS));
      time += 7;
      if (c2s) {
        out.packet(time, client, s.port, server, 2181, s.seqC, s.seqS, PSH_ACK, part);
        s.seqC = (s.seqC + part.length) >>> 0;
      } else {
        out.packet(time, server, 2181, client, s.port, s.seqS, s.seqC, PSH_ACK, part);
        s.seqS = (s.seqS + part.length) >>> 0;
      }
    }
    // The receiver's pure ACK, as loopback shows it.
    time += 3;
    if (c2s) out.packet(time, server, 2181, client, s.port, s.seqS, s.seqC, ACK, new Uint8Array(0));
    else out.packet(time, client, s.port, server, 2181, s.seqC, s.seqS, ACK, new Uint8Array(0));
    frames++;
  };
  for (let i = 0; i < sessions; i++) {
    const s: Session = { port: 40000 + i, seqC: 1000 * i, seqS: 0xffff0000 + i, xid: 1, zxid: 0x100000000n };
    out.packet(time, client, s.port, server, 2181, s.seqC, 0, SYN, new Uint8Array(0));
    s.seqC++;
    out.packet(time, server, 2181, client, s.port, s.seqS, s.seqC, SYN | ACK, new Uint8Array(0));
    s.seqS++;
    send(s, true, frame((w) => w.writeInt(0).writeLong(0n).writeInt(30000).writeLong(0n).writeBuffer(new Uint8Array(16)).writeBool(false)));
    send(s, false, frame((w) => w.writeInt(0).writeInt(30000).writeLong(0x1000000000000n + BigInt(i)).writeBuffer(new Uint8Array(16)).writeBool(false)));
    list.push(s);
  }
  let step = 0;
  while (out.written < targetBytes) {
    const s = list[step % list.length]!;
    const kind = (step * 7919) % 100;
    const path = `/app/service-${step % 50}/node-${step % 1000}`;
    const xid = s.xid++;
    s.zxid++;
    const reply = (body: (w: JuteWriter) => void): Uint8Array => frame((w) => (w.writeInt(xid).writeLong(s.zxid).writeInt(0), body(w)));
    if (kind < 45) {
      send(s, true, frame((w) => w.writeInt(xid).writeInt(4).writeString(path).writeBool(kind % 3 === 0)));
      send(s, false, reply((w) => w.writeBuffer(PAYLOADS[kind % 4]!).writeBytes(STAT)));
    } else if (kind < 60) {
      send(s, true, frame((w) => w.writeInt(xid).writeInt(3).writeString(path).writeBool(true)));
      send(s, false, reply((w) => w.writeBytes(STAT)));
    } else if (kind < 70) {
      send(s, true, frame((w) => w.writeInt(xid).writeInt(8).writeString(path).writeBool(false)));
      send(s, false, reply((w) => w.writeStringVector(Array.from({ length: 20 }, (_, i) => `child-${i}`))));
    } else if (kind < 80) {
      send(s, true, frame((w) => w.writeInt(xid).writeInt(5).writeString(path).writeBuffer(PAYLOADS[1]!).writeInt(-1)));
      send(s, false, reply((w) => w.writeBytes(STAT)));
    } else if (kind < 88) {
      send(s, true, frame((w) => w.writeInt(xid).writeInt(1).writeString(`${path}-lock-`).writeBuffer(PAYLOADS[0]!).writeInt(1).writeInt(31).writeString('world').writeString('anyone').writeInt(3)));
      send(s, false, reply((w) => w.writeString(`${path}-lock-${String(step).padStart(10, '0')}`)));
    } else if (kind < 92) {
      send(s, true, frame((w) => w.writeInt(xid).writeInt(2).writeString(path).writeInt(-1)));
      send(s, false, reply(() => undefined));
      send(s, false, frame((w) => w.writeInt(-1).writeLong(-1n).writeInt(0).writeInt(2).writeInt(3).writeString(path)));
    } else {
      s.xid--;
      send(s, true, frame((w) => w.writeInt(-2).writeInt(11)));
      send(s, false, frame((w) => w.writeInt(-2).writeLong(s.zxid).writeInt(0)));
    }
    step++;
  }
  out.flush();
  closeSync(fd);
  return { bytes: out.written + 24, frames };
}
