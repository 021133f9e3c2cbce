/**
 * From a captured packet to its TCP segment: the link layer (Ethernet with 802.1Q/802.1ad tags, Linux cooked v1
 * and v2, raw IP, BSD null/loopback), IPv4 (options; fragments are noted and skipped) or IPv6 (extension headers
 * skipped), then TCP with its options. The segment is written into one reused object: no allocation per packet
 * beyond the connection key.
 */

import type { NoteSink } from './packet.js';

/** pcap LINKTYPE_ values (https://www.tcpdump.org/linktypes.html). */
export const LinkType = {
  null: 0,
  ethernet: 1,
  /** DLT_RAW as most systems number it; LINKTYPE_RAW (101) is what files should carry. */
  rawDlt12: 12,
  rawDlt14: 14,
  raw: 101,
  loop: 108,
  linuxSll: 113,
  ipv4: 228,
  ipv6: 229,
  linuxSll2: 276,
} as const;

export const TcpFlag = { fin: 1, syn: 2, rst: 4, ack: 16 } as const;

/** One TCP segment, valid until the next packet is parsed. */
export interface TcpSegment {
  /** The addresses for connection lookup: IPv4 as a uint32 (no string per packet), IPv6 as compact text. */
  srcIp: number | string;
  dstIp: number | string;
  srcPort: number;
  dstPort: number;
  seq: number;
  ack: number;
  flags: number;
  /** The captured payload: `buf[payloadStart, payloadStart + payloadLen)`. */
  buf: Uint8Array;
  payloadStart: number;
  payloadLen: number;
  /** Payload bytes the IP header announces but the capture cut off (snaplen). */
  missingTail: number;
  /** The raw address bytes' location, to format them only when a connection is new. */
  addrOffset: number;
  ipv6: boolean;
}

/** Formats the segment's source or destination as `ip:port` (IPv6 in brackets). */
export function formatEndpoint(seg: TcpSegment, which: 'src' | 'dst'): string {
  const b = seg.buf;
  const port = which === 'src' ? seg.srcPort : seg.dstPort;
  if (!seg.ipv6) {
    const o = seg.addrOffset + (which === 'src' ? 0 : 4);
    return `${b[o]}.${b[o + 1]}.${b[o + 2]}.${b[o + 3]}:${port}`;
  }
  const o = seg.addrOffset + (which === 'src' ? 0 : 16);
  const groups: number[] = [];
  for (let i = 0; i < 8; i++) groups.push((b[o + 2 * i]! << 8) | b[o + 2 * i + 1]!);
  return `[${ipv6Text(groups)}]:${port}`;
}

/** RFC 5952 text: lowercase hex, the longest run of two or more zero groups as `::`. */
function ipv6Text(g: number[]): string {
  let bestAt = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    if (g[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && g[j] === 0) j++;
    if (j - i > bestLen) {
      bestAt = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = g.map((x) => x.toString(16));
  if (bestAt < 0) return hex.join(':');
  return `${hex.slice(0, bestAt).join(':')}::${hex.slice(bestAt + bestLen).join(':')}`;
}

export class PacketDecoder {
  readonly #onNote: NoteSink;
  readonly seg: TcpSegment = {
    srcIp: 0,
    dstIp: 0,
    srcPort: 0,
    dstPort: 0,
    seq: 0,
    ack: 0,
    flags: 0,
    buf: new Uint8Array(0),
    payloadStart: 0,
    payloadLen: 0,
    missingTail: 0,
    addrOffset: 0,
    ipv6: false,
  };
  readonly #noted = new Set<string>();

  constructor(onNote: NoteSink) {
    this.#onNote = onNote;}

  /** Parses one packet; returns the segment, or undefined for anything that is not a whole-enough TCP segment. */
  decode(linkType: number, buf: Uint8Array, view: DataView, offset: number, capLen: number): TcpSegment | undefined {
    const end = offset + capLen;
    let p = offset;
    let etherType = -1;
    switch (linkType) {
      case LinkType.ethernet: {
        if (capLen < 14) return undefined;
        etherType = view.getUint16(p + 12);
        p += 14;
        while ((etherType === 0x8100 || etherType === 0x88a8) && p + 4 <= end) {
          etherType = view.getUint16(p + 2);
          p += 4;
        }
        break;
      }
      case LinkType.linuxSll:
        if (capLen < 16) return undefined;
        etherType = view.getUint16(p + 14);
        p += 16;
        break;
      case LinkType.linuxSll2:
        if (capLen < 20) return undefined;
        etherType = view.getUint16(p);
        p += 20;
        break;
      case LinkType.null:
      case LinkType.loop:
        // A 4-byte address family, in the writer's byte order for null: the IP version nibble says as much.
        p += 4;
        break;
      case LinkType.raw:
      case LinkType.rawDlt12:
      case LinkType.rawDlt14:
      case LinkType.ipv4:
      case LinkType.ipv6:
        break;
      default:
        this.#noteOnce(`link:${linkType}`, `link type ${linkType} is not supported: its packets are ignored`);
        return undefined;
    }
    if (p >= end) return undefined;
    if (etherType === -1) {
      const version = buf[p]! >> 4;
      etherType = version === 4 ? 0x0800 : version === 6 ? 0x86dd : 0;
    }
    if (etherType === 0x0800) return this.#ipv4(buf, view, p, end);
    if (etherType === 0x86dd) return this.#ipv6(buf, view, p, end);
    return undefined;
  }

  #ipv4(buf: Uint8Array, view: DataView, p: number, end: number): TcpSegment | undefined {
    if (end - p < 20 || buf[p]! >> 4 !== 4) return undefined;
    const ihl = (buf[p]! & 0x0f) * 4;
    const total = view.getUint16(p + 2);
    if (buf[p + 9] !== 6 || ihl < 20 || total < ihl) return undefined;
    const frag = view.getUint16(p + 6);
    if ((frag & 0x3fff) !== 0) {
      this.#noteOnce('frag4', 'IPv4 fragments are not reassembled: fragmented TCP segments are ignored (a gap follows)');
      return undefined;
    }
    const s = this.seg;
    s.ipv6 = false;
    s.addrOffset = p + 12;
    const src = view.getUint32(p + 12);
    const dst = view.getUint32(p + 16);
    return this.#tcp(buf, view, p + ihl, p + total, end, src, dst);
  }

  #ipv6(buf: Uint8Array, view: DataView, p: number, end: number): TcpSegment | undefined {
    if (end - p < 40 || buf[p]! >> 4 !== 6) return undefined;
    const payloadLen = view.getUint16(p + 4);
    let next = buf[p + 6]!;
    const s = this.seg;
    s.ipv6 = true;
    s.addrOffset = p + 8;
    const ipEnd = p + 40 + payloadLen;
    let q = p + 40;
    while (next !== 6) {
      if (q + 8 > end) return undefined;
      if (next === 0 || next === 43 || next === 60) {
        next = buf[q]!;
        q += (buf[q + 1]! + 1) * 8;
      } else if (next === 51) {
        next = buf[q]!;
        q += (buf[q + 1]! + 2) * 4;
      } else if (next === 44) {
        this.#noteOnce('frag6', 'IPv6 fragments are not reassembled: fragmented TCP segments are ignored (a gap follows)');
        return undefined;
      } else return undefined;
    }
    const src = `${view.getUint32(p + 8)}.${view.getUint32(p + 12)}.${view.getUint32(p + 16)}.${view.getUint32(p + 20)}`;
    const dst = `${view.getUint32(p + 24)}.${view.getUint32(p + 28)}.${view.getUint32(p + 32)}.${view.getUint32(p + 36)}`;
    return this.#tcp(buf, view, q, ipEnd, end, src, dst);
  }

  #tcp(buf: Uint8Array, view: DataView, p: number, ipEnd: number, end: number, src: number | string, dst: number | string): TcpSegment | undefined {
    if (end - p < 20) return undefined;
    const headerLen = (buf[p + 12]! >> 4) * 4;
    if (headerLen < 20 || p + headerLen > end) return undefined;
    const s = this.seg;
    s.srcPort = view.getUint16(p);
    s.dstPort = view.getUint16(p + 2);
    s.seq = view.getUint32(p + 4);
    s.ack = view.getUint32(p + 8);
    s.flags = buf[p + 13]!;
    s.srcIp = src;
    s.dstIp = dst;
    s.buf = buf;
    const start = p + headerLen;
    const announced = Math.max(0, ipEnd - start);
    const captured = Math.max(0, Math.min(announced, end - start));
    s.payloadStart = start;
    s.payloadLen = captured;
    s.missingTail = announced - captured;
    return s;
  }

  #noteOnce(key: string, message: string): void {
    if (this.#noted.has(key)) return;
    this.#noted.add(key);
    this.#onNote(message);
  }
}
