/**
 * `describeFrames`: the `onFrame` trace with every frame decoded by the protocol's ConversationDecoder (the same
 * describer `zkwire decode` and the tracing proxy use). A separate import, so an application that traces nothing,
 * or only counts bytes, does not carry the describer in its bundle.
 */

import { ConversationDecoder, type DescribedFrame } from '../protocol/index.js';
import type { FrameListener, FrameTrace } from './trace.js';

/** A traced frame with its decoding: kind, op, xid, the decoded records and a one-line summary. */
export interface DescribedFrameTrace extends FrameTrace {
  readonly frame: DescribedFrame;
}

/**
 * Wraps `listener` into an `onFrame` listener that decodes each frame first. The decoder follows each TCP
 * connection of the session (a reply is decoded by the request it answers), so give every client its own
 * `describeFrames(…)`; one listener may still be wrapped once per client.
 */
export function describeFrames(listener: (trace: DescribedFrameTrace) => void): FrameListener {
  let decoder = new ConversationDecoder();
  let connection = 0;
  return (trace) => {
    if (trace.connection !== connection) {
      decoder = new ConversationDecoder();
      connection = trace.connection;
    }
    listener({ ...trace, frame: decoder.decode(trace.dir, trace.bytes) });
  };
}
