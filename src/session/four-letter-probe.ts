/**
 * A four-letter word on a side connection through the session's own transport (so it works on every runtime the
 * session does): send the four bytes, read text until the server closes. The session uses it to learn a server's
 * version (`srvr`, `envi`) and, in read-only mode, to look for a read-write server (`isro`), never on the session's
 * connection: a 4lw on a connection is all that connection can carry.
 */

import type { Endpoint, Transport } from '../transport/types.js';
import { Timer, type Clock } from './clock.js';

/** The answer text, or undefined when the server could not be reached or did not answer in time. */
export function fourLetterOver(
  transport: Transport,
  endpoint: Endpoint,
  word: string,
  clock: Clock,
  timeoutMs: number,
  /** The session ended: give up at once, leaving no socket or timer behind. */
  signal?: AbortSignal,
): Promise<string | undefined> {
  return new Promise((resolve) => {
    const abort = new AbortController();
    const chunks: Uint8Array[] = [];
    let done = false;
    let stream: { close(): void } | undefined;
    const finish = (text: string | undefined): void => {
      if (done) return;
      done = true;
      timer.cancel();
      signal?.removeEventListener('abort', onAbort);
      abort.abort();
      stream?.close();
      resolve(text);
    };
    const timer = new Timer(clock, () => finish(undefined));
    const onAbort = (): void => finish(undefined);
    if (signal?.aborted === true) {
      finish(undefined);
      return;
    }
    signal?.addEventListener('abort', onAbort, { once: true });
    timer.arm(timeoutMs);
    const handlers = {
      onData: (chunk: Uint8Array) => void chunks.push(chunk),
      // The server closes after its answer: that close is the only end-of-answer marker the protocol has.
      onClose: (error?: Error) => finish(error === undefined ? decodeAscii(chunks) : undefined),
    };
    transport.connect(endpoint, handlers, { signal: abort.signal }).then(
      (s) => {
        stream = s;
        if (done) s.close();
        else s.write(new Uint8Array([...word].map((c) => c.charCodeAt(0))));
      },
      () => finish(undefined),
    );
  });
}

function decodeAscii(chunks: readonly Uint8Array[]): string {
  let s = '';
  for (const c of chunks) for (const b of c) s += String.fromCharCode(b);
  return s;
}
