/**
 * The classic pcap format (libpcap's savefile, what `tcpdump -w` writes): a 24-byte file header, then one 16-byte
 * record header per packet. Both byte orders, microsecond (a1b2c3d4) and nanosecond (a1b23c4d) timestamps.
 */

import { CaptureFormatError } from './capture-error.js';
import { ChunkBuffer } from '../shared/chunk-buffer.js';
import type { CaptureFileReader, NoteSink, PacketSink } from './packet.js';

const FILE_HEADER = 24;
const RECORD_HEADER = 16;
/** Far beyond any real snaplen (262144): a bigger captured length means the file is corrupt, not a big packet. */
const MAX_RECORD = 16 * 1024 * 1024;

/** True when the first four bytes are a pcap magic number, in either byte order and either precision. */
export function isPcapMagic(b: Uint8Array): boolean {
  if (b.length < 4) return false;
  const be = ((b[0]! << 24) | (b[1]! << 16) | (b[2]! << 8) | b[3]!) >>> 0;
  const le = ((b[3]! << 24) | (b[2]! << 16) | (b[1]! << 8) | b[0]!) >>> 0;
  return be === 0xa1b2c3d4 || be === 0xa1b23c4d || le === 0xa1b2c3d4 || le === 0xa1b23c4d;
}

export class PcapReader implements CaptureFileReader {
  readonly #onNote: NoteSink;
  readonly #onPacket: PacketSink;
  readonly #input = new ChunkBuffer();
  #header = false;
  #little = false;
  /** Microseconds per unit of the fractional timestamp field (1 for µs files, 0.001 for ns files). */
  #fracScale = 1;
  #linkType = 0;

  constructor(
    onPacket: PacketSink,
    onNote: NoteSink,
  ) {
    this.#onNote = onNote;
    this.#onPacket = onPacket;}

  push(bytes: Uint8Array): void {
    const input = this.#input;
    input.append(bytes);
    if (!this.#header) {
      if (input.available < FILE_HEADER) return;
      this.#readFileHeader();
    }
    const { buf, view } = input;
    const little = this.#little;
    let pos = input.pos;
    const end = buf.length;
    while (end - pos >= RECORD_HEADER) {
      const capLen = view.getUint32(pos + 8, little);
      if (capLen > MAX_RECORD) {
        input.pos = pos;
        throw new CaptureFormatError(`corrupt pcap record: captured length ${capLen} is impossible`, input.offset);
      }
      if (end - pos < RECORD_HEADER + capLen) break;
      const sec = view.getUint32(pos, little);
      const frac = view.getUint32(pos + 4, little);
      const origLen = view.getUint32(pos + 12, little);
      this.#onPacket(this.#linkType, sec * 1e6 + Math.floor(frac * this.#fracScale), buf, view, pos + RECORD_HEADER, capLen, Math.max(origLen, capLen));
      pos += RECORD_HEADER + capLen;
    }
    input.pos = pos;
  }

  end(): void {
    const left = this.#input.available;
    // Without the file header there is no capture at all, only its first bytes: corrupt, not cut short.
    if (!this.#header) throw new CaptureFormatError(`not a whole pcap file: ${left} byte(s), shorter than the 24-byte file header`, undefined);
    if (left > 0) {
      this.#onNote(`capture truncated at byte offset ${this.#input.offset}: the last packet record is incomplete (${left} byte(s) ignored)`);
    }
  }

  #readFileHeader(): void {
    const { view, pos } = this.#input;
    const magicBe = view.getUint32(pos, false);
    const magicLe = view.getUint32(pos, true);
    if (magicBe === 0xa1b2c3d4 || magicBe === 0xa1b23c4d) this.#little = false;
    else if (magicLe === 0xa1b2c3d4 || magicLe === 0xa1b23c4d) this.#little = true;
    else throw new CaptureFormatError(`not a pcap file: magic ${view.getUint32(pos, false).toString(16).padStart(8, '0')}`, this.#input.offset);
    const magic = this.#little ? magicLe : magicBe;
    this.#fracScale = magic === 0xa1b23c4d ? 0.001 : 1;
    const major = view.getUint16(pos + 4, this.#little);
    if (major !== 2) throw new CaptureFormatError(`unsupported pcap version ${major}`, this.#input.offset + 4);
    // The upper bits of the link-type field may carry FCS information (pcap-savefile(5)); the type is the low 16.
    this.#linkType = view.getUint32(pos + 20, this.#little) & 0xffff;
    this.#input.pos = pos + FILE_HEADER;
    this.#header = true;
  }
}
