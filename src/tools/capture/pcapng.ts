/**
 * pcapng (what Wireshark and `tshark -F pcapng` write): blocks, each `type, length, body, length`. Read here:
 * Section Header (either byte order; a new section resets the interfaces), Interface Description (link type and
 * if_tsresol per interface), Enhanced, Simple and the obsolete Packet block. Every other block is skipped.
 */

import { CaptureFormatError } from './capture-error.js';
import { ChunkBuffer } from '../shared/chunk-buffer.js';
import type { CaptureFileReader, NoteSink, PacketSink } from './packet.js';

const SHB = 0x0a0d0d0a;
const IDB = 0x00000001;
const PB = 0x00000002;
const SPB = 0x00000003;
const EPB = 0x00000006;
const BYTE_ORDER_MAGIC = 0x1a2b3c4d;
const MAX_BLOCK = 64 * 1024 * 1024;
const IF_TSRESOL = 9;

interface Interface {
  linkType: number;
  snapLen: number;
  /** Microseconds per timestamp unit. */
  usPerUnit: number;
}

/** True when the first four bytes are a pcapng Section Header Block's type. */
export function isPcapngMagic(b: Uint8Array): boolean {
  return b.length >= 4 && b[0] === 0x0a && b[1] === 0x0d && b[2] === 0x0d && b[3] === 0x0a;
}

export class PcapngReader implements CaptureFileReader {
  readonly #onNote: NoteSink;
  readonly #onPacket: PacketSink;
  readonly #input = new ChunkBuffer();
  #little = false;
  #section = false;
  #interfaces: Interface[] = [];
  #warnedInterfaces = false;

  constructor(
    onPacket: PacketSink,
    onNote: NoteSink,
  ) {
    this.#onNote = onNote;
    this.#onPacket = onPacket;}

  push(bytes: Uint8Array): void {
    const input = this.#input;
    input.append(bytes);
    const { buf, view } = input;
    const end = buf.length;
    let pos = input.pos;
    while (end - pos >= 12) {
      const type = view.getUint32(pos, this.#little);
      if (type === SHB) {
        // The byte order is the section's own: read it before trusting the length.
        const bom = view.getUint32(pos + 8, false);
        if (bom === BYTE_ORDER_MAGIC) this.#little = false;
        else if (view.getUint32(pos + 8, true) === BYTE_ORDER_MAGIC) this.#little = true;
        else this.#fail('section header without a valid byte-order magic', pos);
      } else if (!this.#section) this.#fail(`not a pcapng file: the first block is of type 0x${type.toString(16)}`, pos);
      const length = view.getUint32(pos + 4, this.#little);
      if (length < 12 || length % 4 !== 0 || length > MAX_BLOCK) this.#fail(`corrupt pcapng block: length ${length}`, pos);
      if (end - pos < length) break;
      if (view.getUint32(pos + length - 4, this.#little) !== length) this.#fail('corrupt pcapng block: its two length fields differ', pos);
      this.#block(type, buf, view, pos, length);
      pos += length;
    }
    input.pos = pos;
  }

  end(): void {
    const left = this.#input.available;
    // Without a whole section header there is no capture at all, only its first bytes: corrupt, not cut short.
    if (!this.#section) throw new CaptureFormatError(`not a whole pcapng file: ${left} byte(s), the section header is incomplete`, undefined);
    if (left > 0) this.#onNote(`capture truncated at byte offset ${this.#input.offset}: the last block is incomplete (${left} byte(s) ignored)`);
  }

  #fail(message: string, pos: number): never {
    this.#input.pos = pos;
    throw new CaptureFormatError(message, this.#input.offset);
  }

  #block(type: number, buf: Uint8Array, view: DataView, pos: number, length: number): void {
    const little = this.#little;
    const bodyEnd = pos + length - 4;
    switch (type) {
      case SHB:
        if (length < 28) this.#fail('corrupt section header block', pos);
        this.#section = true;
        this.#interfaces = [];
        return;
      case IDB: {
        if (length < 20) this.#fail('corrupt interface description block', pos);
        const linkType = view.getUint16(pos + 8, little);
        const snapLen = view.getUint32(pos + 12, little);
        this.#interfaces.push({ linkType, snapLen: snapLen === 0 ? 0x7fffffff : snapLen, usPerUnit: this.#tsResolution(view, pos + 16, bodyEnd) });
        return;
      }
      case EPB: {
        if (length < 32) this.#fail('corrupt enhanced packet block', pos);
        const iface = this.#iface(view.getUint32(pos + 8, little));
        if (iface === undefined) return;
        const capLen = view.getUint32(pos + 20, little);
        if (28 + capLen > length - 4) this.#fail(`corrupt enhanced packet block: captured length ${capLen} exceeds the block`, pos);
        const origLen = view.getUint32(pos + 24, little);
        const time = this.#time(iface, view.getUint32(pos + 12, little), view.getUint32(pos + 16, little));
        this.#onPacket(iface.linkType, time, buf, view, pos + 28, capLen, Math.max(origLen, capLen));
        return;
      }
      case PB: {
        if (length < 32) this.#fail('corrupt packet block', pos);
        const iface = this.#iface(view.getUint16(pos + 8, little));
        if (iface === undefined) return;
        const capLen = view.getUint32(pos + 20, little);
        if (28 + capLen > length - 4) this.#fail(`corrupt packet block: captured length ${capLen} exceeds the block`, pos);
        const time = this.#time(iface, view.getUint32(pos + 12, little), view.getUint32(pos + 16, little));
        this.#onPacket(iface.linkType, time, buf, view, pos + 28, capLen, Math.max(view.getUint32(pos + 24, little), capLen));
        return;
      }
      case SPB: {
        if (length < 16) this.#fail('corrupt simple packet block', pos);
        const iface = this.#iface(0);
        if (iface === undefined) return;
        const origLen = view.getUint32(pos + 8, little);
        // No captured length field: the packet is the block's body, cut to the interface's snaplen.
        const capLen = Math.min(origLen, iface.snapLen, length - 16);
        this.#onPacket(iface.linkType, 0, buf, view, pos + 12, capLen, Math.max(origLen, capLen));
        return;
      }
      default:
        return; // name resolution, statistics, custom blocks…: nothing a decoder needs
    }
  }

  #iface(id: number): Interface | undefined {
    const iface = this.#interfaces[id];
    if (iface === undefined && !this.#warnedInterfaces) {
      this.#warnedInterfaces = true;
      this.#onNote(`packets on interface ${id}, which no interface description block declared: ignored`);
    }
    return iface;
  }

  #time(iface: Interface, high: number, low: number): number {
    return Math.floor(high * 4294967296 * iface.usPerUnit + low * iface.usPerUnit);
  }

  /** if_tsresol: 10^-v seconds, or 2^-v when the top bit is set; the default is microseconds. */
  #tsResolution(view: DataView, pos: number, end: number): number {
    while (pos + 4 <= end) {
      const code = view.getUint16(pos, this.#little);
      const len = view.getUint16(pos + 2, this.#little);
      if (code === 0) break;
      if (code === IF_TSRESOL && len >= 1) {
        const v = view.getUint8(pos + 4);
        const unitsPerSecond = (v & 0x80) !== 0 ? 2 ** (v & 0x7f) : 10 ** v;
        return 1e6 / unitsPerSecond;
      }
      pos += 4 + ((len + 3) & ~3);
    }
    return 1;
  }
}
