/**
 * A small pcap/pcapng writer for the capture tests: builds TCP conversations packet by packet (so a test can
 * reorder, repeat, overlap, drop or cut segments), wraps them in any link layer we read, and writes either file
 * format in either byte order. Test machinery only: nothing here is in src/.
 */

export interface Endpoint {
  /** Dotted IPv4 or IPv6 text (`::1`, `fd00::2`). */
  ip: string;
  port: number;
}

export interface TcpPacket {
  timeUs: number;
  src: Endpoint;
  dst: Endpoint;
  seq: number;
  ack: number;
  flags: number;
  payload: Uint8Array;
}

export const FIN = 1;
export const SYN = 2;
export const RST = 4;
export const PSH = 8;
export const ACK = 16;

/** Builds the packets of one TCP connection; sequence and ack numbers follow what was sent. */
export class TcpConversation {
  private readonly next = { c2s: 0, s2c: 0 };
  timeUs: number;

  constructor(
    readonly client: Endpoint,
    readonly server: Endpoint,
    opts: { isnClient?: number; isnServer?: number; startUs?: number } = {},
  ) {
    this.next.c2s = opts.isnClient ?? 0x10000000;
    this.next.s2c = opts.isnServer ?? 0xffffff00; // wraps around 2^32 after 255 bytes
    this.timeUs = opts.startUs ?? 1_700_000_000_000_000;
  }

  private packet(dir: 'c2s' | 's2c', flags: number, payload: Uint8Array, seq = this.next[dir]): TcpPacket {
    const other = dir === 'c2s' ? 's2c' : 'c2s';
    this.timeUs += 100;
    return {
      timeUs: this.timeUs,
      src: dir === 'c2s' ? this.client : this.server,
      dst: dir === 'c2s' ? this.server : this.client,
      seq,
      ack: this.next[other],
      flags,
      payload,
    };
  }

  handshake(): TcpPacket[] {
    const syn = this.packet('c2s', SYN, new Uint8Array(0));
    this.next.c2s = (this.next.c2s + 1) >>> 0;
    const synAck = this.packet('s2c', SYN | ACK, new Uint8Array(0));
    this.next.s2c = (this.next.s2c + 1) >>> 0;
    return [syn, synAck, this.packet('c2s', ACK, new Uint8Array(0))];
  }

  /** Sends bytes as segments of at most `mss` bytes. */
  send(dir: 'c2s' | 's2c', bytes: Uint8Array, mss = 1460): TcpPacket[] {
    const out: TcpPacket[] = [];
    for (let at = 0; at < bytes.length; at += mss) {
      const part = bytes.subarray(at, Math.min(bytes.length, at + mss));
      out.push(this.packet(dir, PSH | ACK, part));
      this.next[dir] = (this.next[dir] + part.length) >>> 0;
    }
    return out;
  }

  /** A segment carrying `bytes` at an explicit sequence number (retransmissions, overlaps); does not advance. */
  at(dir: 'c2s' | 's2c', seq: number, bytes: Uint8Array): TcpPacket {
    return this.packet(dir, PSH | ACK, bytes, seq >>> 0);
  }

  seqOf(dir: 'c2s' | 's2c'): number {
    return this.next[dir];
  }

  fin(dir: 'c2s' | 's2c'): TcpPacket {
    const p = this.packet(dir, FIN | ACK, new Uint8Array(0));
    this.next[dir] = (this.next[dir] + 1) >>> 0;
    return p;
  }

  rst(dir: 'c2s' | 's2c'): TcpPacket {
    return this.packet(dir, RST, new Uint8Array(0));
  }
}

function ipBytes(ip: string): Uint8Array {
  if (!ip.includes(':')) return new Uint8Array(ip.split('.').map(Number));
  const [head, tail] = ip.includes('::') ? ip.split('::') : [ip, undefined];
  const h = head === '' || head === undefined ? [] : head.split(':');
  const t = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups = [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t].map((g) => parseInt(g, 16));
  const out = new Uint8Array(16);
  groups.forEach((g, i) => {
    out[2 * i] = g >> 8;
    out[2 * i + 1] = g & 0xff;
  });
  return out;
}

/** The packet's IP datagram: IPv4 (with a 4-byte option, to exercise IHL) or IPv6 (with a hop-by-hop header). */
export function ipDatagram(p: TcpPacket, opts: { ipv4Options?: boolean; ipv6HopByHop?: boolean } = {}): Uint8Array {
  const tcpLen = 20 + 12; // with options: MSS-less NOP/NOP/timestamps, as Linux sends
  const tcp = new Uint8Array(tcpLen + p.payload.length);
  const tv = new DataView(tcp.buffer);
  tv.setUint16(0, p.src.port);
  tv.setUint16(2, p.dst.port);
  tv.setUint32(4, p.seq >>> 0);
  tv.setUint32(8, p.ack >>> 0);
  tcp[12] = (tcpLen / 4) << 4;
  tcp[13] = p.flags;
  tv.setUint16(14, 65535);
  tcp.set([1, 1, 8, 10, 0, 0, 0, 1, 0, 0, 0, 2], 20);
  tcp.set(p.payload, tcpLen);
  const src = ipBytes(p.src.ip);
  const dst = ipBytes(p.dst.ip);
  if (src.length === 4) {
    const ihl = opts.ipv4Options === true ? 24 : 20;
    const out = new Uint8Array(ihl + tcp.length);
    const v = new DataView(out.buffer);
    out[0] = 0x40 | (ihl / 4);
    v.setUint16(2, out.length);
    v.setUint16(6, 0x4000); // don't fragment
    out[8] = 64;
    out[9] = 6;
    out.set(src, 12);
    out.set(dst, 16);
    if (ihl === 24) out.set([1, 1, 1, 0], 20); // NOP NOP NOP EOL
    out.set(tcp, ihl);
    return out;
  }
  const ext = opts.ipv6HopByHop === true ? 8 : 0;
  const out = new Uint8Array(40 + ext + tcp.length);
  const v = new DataView(out.buffer);
  out[0] = 0x60;
  v.setUint16(4, ext + tcp.length);
  out[6] = ext > 0 ? 0 : 6;
  out[7] = 64;
  out.set(src, 8);
  out.set(dst, 24);
  if (ext > 0) out.set([6, 0, 1, 4, 0, 0, 0, 0], 40); // next TCP, length 0 (8 bytes), PadN
  out.set(tcp, 40 + ext);
  return out;
}

/** Link types the tests write (pcap LINKTYPE_ numbers). */
export const Link = { null: 0, ethernet: 1, rawDlt12: 12, rawDlt14: 14, raw: 101, sll: 113, sll2: 276 } as const;

/** Wraps an IP datagram in a link-layer header. `vlan` adds an 802.1Q tag to Ethernet. */
export function linkFrame(linkType: number, ip: Uint8Array, opts: { vlan?: boolean } = {}): Uint8Array {
  const v6 = ip[0]! >> 4 === 6;
  const etherType = v6 ? 0x86dd : 0x0800;
  const withHeader = (header: number[]): Uint8Array => {
    const out = new Uint8Array(header.length + ip.length);
    out.set(header);
    out.set(ip, header.length);
    return out;
  };
  switch (linkType) {
    case Link.ethernet: {
      const macs = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
      const tag = opts.vlan === true ? [0x81, 0x00, 0x00, 0x2a] : [];
      return withHeader([...macs, ...tag, etherType >> 8, etherType & 0xff]);
    }
    case Link.null:
      // The address family in the writer's (here little-endian) byte order: AF_INET 2, AF_INET6 30 (macOS).
      return withHeader(v6 ? [30, 0, 0, 0] : [2, 0, 0, 0]);
    case Link.raw:
    case Link.rawDlt12:
    case Link.rawDlt14:
      return ip;
    case Link.sll:
      return withHeader([0, 0, 3, 4, 0, 6, 0, 0, 0, 0, 0, 0, 0, 0, etherType >> 8, etherType & 0xff]);
    case Link.sll2:
      return withHeader([etherType >> 8, etherType & 0xff, 0, 0, 0, 0, 0, 1, 3, 4, 0, 6, 0, 0, 0, 0, 0, 0, 0, 0]);
    default:
      throw new Error(`the test writer has no link type ${linkType}`);
  }
}

export interface Captured {
  timeUs: number;
  data: Uint8Array;
  /** Original length when the capture cut the packet (default data.length). */
  origLen?: number;
}

/** Packets to captured link frames; `snaplen` cuts them as tcpdump -s does. */
export function capture(packets: TcpPacket[], linkType: number, opts: { snaplen?: number; vlan?: boolean; ipv4Options?: boolean; ipv6HopByHop?: boolean } = {}): Captured[] {
  return packets.map((p) => {
    const frame = linkFrame(linkType, ipDatagram(p, opts), opts);
    const snap = opts.snaplen ?? Infinity;
    return frame.length > snap ? { timeUs: p.timeUs, data: frame.subarray(0, snap), origLen: frame.length } : { timeUs: p.timeUs, data: frame };
  });
}

class Bytes {
  private parts: Uint8Array[] = [];
  constructor(private readonly little: boolean) {}
  u8(...v: number[]): this {
    this.parts.push(new Uint8Array(v));
    return this;
  }
  u16(v: number): this {
    const b = new Uint8Array(2);
    new DataView(b.buffer).setUint16(0, v, this.little);
    this.parts.push(b);
    return this;
  }
  u32(v: number): this {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setUint32(0, v >>> 0, this.little);
    this.parts.push(b);
    return this;
  }
  raw(b: Uint8Array): this {
    this.parts.push(b);
    return this;
  }
  pad4(): this {
    const len = this.length;
    if (len % 4 !== 0) this.parts.push(new Uint8Array(4 - (len % 4)));
    return this;
  }
  get length(): number {
    return this.parts.reduce((n, p) => n + p.length, 0);
  }
  bytes(): Uint8Array {
    const out = new Uint8Array(this.length);
    let at = 0;
    for (const p of this.parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  }
}

/** A classic pcap file. */
export function pcapFile(linkType: number, packets: Captured[], opts: { little?: boolean; nanos?: boolean; snaplen?: number } = {}): Uint8Array {
  const b = new Bytes(opts.little ?? true);
  b.u32(opts.nanos === true ? 0xa1b23c4d : 0xa1b2c3d4).u16(2).u16(4).u32(0).u32(0).u32(opts.snaplen ?? 262144).u32(linkType);
  for (const p of packets) {
    const sec = Math.floor(p.timeUs / 1e6);
    const us = p.timeUs - sec * 1e6;
    b.u32(sec).u32(opts.nanos === true ? us * 1000 : us).u32(p.data.length).u32(p.origLen ?? p.data.length).raw(p.data);
  }
  return b.bytes();
}

export interface PcapngInterface {
  linkType: number;
  /** if_tsresol exponent of ten (6 = µs, the default when absent; 9 = ns). */
  tsresol?: number;
  snaplen?: number;
}

export type PcapngItem =
  | { type: 'packet'; iface: number; packet: Captured }
  | { type: 'simple'; packet: Captured }
  | { type: 'unknown'; blockType: number; body: Uint8Array };

function block(little: boolean, type: number, body: Uint8Array): Uint8Array {
  const padded = new Bytes(little).raw(body).pad4().bytes();
  const length = 12 + padded.length;
  return new Bytes(little).u32(type).u32(length).raw(padded).u32(length).bytes();
}

/** A pcapng section: header, interfaces, then the items in order. */
export function pcapngSection(interfaces: PcapngInterface[], items: PcapngItem[], opts: { little?: boolean } = {}): Uint8Array {
  const little = opts.little ?? true;
  const blocks: Uint8Array[] = [];
  // SHB with a shb_userappl option, so option parsing is exercised.
  const app = new TextEncoder().encode('zkwire tests');
  blocks.push(
    block(little, 0x0a0d0d0a, new Bytes(little).u32(0x1a2b3c4d).u16(1).u16(0).u32(0xffffffff).u32(0xffffffff).u16(4).u16(app.length).raw(app).pad4().u16(0).u16(0).bytes()),
  );
  for (const i of interfaces) {
    const body = new Bytes(little).u16(i.linkType).u16(0).u32(i.snaplen ?? 262144);
    if (i.tsresol !== undefined) body.u16(9).u16(1).u8(i.tsresol).pad4().u16(0).u16(0);
    blocks.push(block(little, 1, body.bytes()));
  }
  for (const item of items) {
    if (item.type === 'unknown') {
      blocks.push(block(little, item.blockType, item.body));
      continue;
    }
    const p = item.packet;
    if (item.type === 'simple') {
      blocks.push(block(little, 3, new Bytes(little).u32(p.origLen ?? p.data.length).raw(p.data).bytes()));
      continue;
    }
    const res = interfaces[item.iface]?.tsresol ?? 6;
    const units = BigInt(p.timeUs) * 10n ** BigInt(res) / 1_000_000n;
    blocks.push(
      block(
        little,
        6,
        new Bytes(little)
          .u32(item.iface)
          .u32(Number(units >> 32n))
          .u32(Number(units & 0xffffffffn))
          .u32(p.data.length)
          .u32(p.origLen ?? p.data.length)
          .raw(p.data)
          .bytes(),
      ),
    );
  }
  return new Bytes(little).raw(concat(blocks)).bytes();
}

export function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
