/**
 * Re-encoding a DescribedFrame back to wire bytes: the other half of the round trip that `zkwire decode --check`
 * and the golden tests use to prove the codec loses nothing.
 */

import { JuteEncodeError } from './encode-error.js';
import type { JuteWriter } from './jute.js';
import type { DecodedReply, DecodedRequest, DescribedFrame, FourLetterText } from './conversation.js';
import { encodeRequestBody, encodeResponseBody } from './ops.js';
import { encodeConnectRequest, encodeConnectResponse, type ConnectRequest, type ConnectResponse } from './records/connect.js';
import { encodeReplyHeader, encodeRequestHeader } from './records/headers.js';
import { encodeWatcherEvent, type WatcherEvent } from './records/watcher-event.js';
import { utf8Encode } from './utf8.js';

/** Appends the bytes `frame` was decoded from (length prefix included; raw text for four-letter words). */
export function encodeDescribedFrame(w: JuteWriter, frame: DescribedFrame): void {
  if (frame.decoded === undefined) throw new JuteEncodeError(`a ${frame.kind} frame without a decoded value cannot be re-encoded`);
  if (frame.kind === '4lw-command' || frame.kind === '4lw-response') {
    w.writeBytes(utf8Encode((frame.decoded as FourLetterText).text));
    return;
  }
  const mark = w.beginFrame();
  switch (frame.kind) {
    case 'connect-request':
      encodeConnectRequest(w, frame.decoded as ConnectRequest);
      break;
    case 'connect-response':
      encodeConnectResponse(w, frame.decoded as ConnectResponse);
      break;
    case 'request': {
      const d = frame.decoded as DecodedRequest;
      encodeRequestHeader(w, d.header);
      encodeRequestBody(d.header.type, w, d.body);
      break;
    }
    case 'reply': {
      const d = frame.decoded as DecodedReply;
      encodeReplyHeader(w, d.header);
      if (d.body !== undefined) {
        if (frame.opcode === undefined) throw new JuteEncodeError('a reply body needs the opcode of its request');
        encodeResponseBody(frame.opcode, w, d.body);
      }
      break;
    }
    case 'notification': {
      const d = frame.decoded as DecodedReply;
      encodeReplyHeader(w, d.header);
      encodeWatcherEvent(w, d.body as WatcherEvent);
      break;
    }
  }
  if (frame.trailing !== undefined) w.writeBytes(frame.trailing);
  w.endFrame(mark);
}
