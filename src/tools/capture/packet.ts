/**
 * What the pcap and pcapng readers hand to the packet decoder: one captured packet at a time, as offsets into the
 * reader's current buffer (no copy, no object per packet). The buffer stays valid only during the call.
 */

/** Receives each captured packet. `origLen` > `capLen` when the capture cut the packet (snaplen). */
export type PacketSink = (linkType: number, timeUs: number, buf: Uint8Array, view: DataView, offset: number, capLen: number, origLen: number) => void;

/** Notes about the input that are not errors (a truncated file, ignored fragments, an unknown link type). */
export type NoteSink = (message: string) => void;

/** A push parser over a capture file's bytes, chunk by chunk. */
export interface CaptureFileReader {
  /** Parses what `bytes` completes; `bytes` must not be modified afterwards. Throws CaptureFormatError. */
  push(bytes: Uint8Array): void;
  /**
   * The input ended: reports an incomplete last record as a note (a capture cut short); throws CaptureFormatError
   * when not even the file header was there.
   */
  end(): void;
}
