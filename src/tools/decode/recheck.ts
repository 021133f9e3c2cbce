/**
 * The --check sink of `zkwire decode`: re-encodes every decoded frame and says where its bytes differ from the
 * captured ones, the other half of the codec's round trip (protocol/reencode.ts), on any capture kind.
 */

import { encodeDescribedFrame, hexEncode, JuteWriter } from '../../protocol/index.js';
import type { FrameEvent } from '../capture/index.js';

export class FrameRecheck {
  /** One writer for the whole capture: re-encoding is on the per-frame path. */
  readonly #writer = new JuteWriter(1024);

  /** What is wrong with the frame's re-encoding, or undefined when it reproduces the captured bytes. */
  check(e: FrameEvent): string | undefined {
    // A frame that did not decode is reported as such; a reply whose request is not in the capture has only its header.
    if (e.frame.error !== undefined || e.frame.unmatched === true) return undefined;
    const w = this.#writer.reset();
    try {
      encodeDescribedFrame(w, e.frame);
    } catch (err) {
      return `re-encoding failed: ${err instanceof Error ? err.message : String(err)}`;
    }
    const got = w.written();
    const original = e.bytes;
    const n = Math.min(got.length, original.length);
    let at = 0;
    while (at < n && got[at] === original[at]) at++;
    if (at === n && got.length === original.length) return undefined;
    const from = Math.max(0, at - 4);
    return (
      `re-encoded ${got.length} byte(s) differ from the original ${original.length} at offset ${at}: ` +
      `expected …${hexEncode(original, from, Math.min(original.length, at + 8))}, got …${hexEncode(got, from, Math.min(got.length, at + 8))}`
    );
  }
}
