/**
 * A four-letter word on a side connection through the session's own transport (so it works on every runtime the
 * session does): send the four bytes, read text until the server closes. The session uses it to learn a server's
 * version (`srvr`, `envi`) and, in read-only mode, to look for a read-write server (`isro`), never on the session's
 * connection: a 4lw on a connection is all that connection can carry. `zkwire 4lw` and the test harness use the
 * same exchange from Node (testing/local-server/four-letter-client.ts), so there is one four-letter-word client.
 */

import { concatBytes } from '../protocol/bytes.js';
import { utf8Decode } from '../protocol/utf8.js';
import type { Endpoint, Transport } from '../transport/types.js';
import { Timer, type Clock } from './clock.js';

/** The answer of a four-letter word, or why there is none. */
export type FourLetterResult = { readonly text: string } | { readonly error: Error };

/** The answer text, or undefined when the server could not be reached or did not answer in time. */
export async function fourLetterOver(
  transport: Transport,
  endpoint: Endpoint,
  word: string,
  clock: Clock,
  timeoutMs: number,
  /** The session ended: give up at once, leaving no socket or timer behind. */
  signal?: AbortSignal,
): Promise<string | undefined> {
  const r = await fourLetterExchange(transport, endpoint, word, clock, timeoutMs, signal);
  return 'text' in r ? r.text : undefined;
}

/**
 * The one four-letter-word exchange (the session's probes and `zkwire 4lw` both use it): the answer text, or the
 * error that stopped it (the connect failure, a reset, the deadline, the signal). Never rejects.
 */
export function fourLetterExchange(
  transport: Transport,
  endpoint: Endpoint,
  word: string,
  clock: Clock,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<FourLetterResult> {
  return new Promise((resolve) => {
    const abort = new AbortController();
    const chunks: Uint8Array[] = [];
    let done = false;
    let stream: { close(): void } | undefined;
    const finish = (r: FourLetterResult): void => {
      if (done) return;
      done = true;
      timer.cancel();
      signal?.removeEventListener('abort', onAbort);
      abort.abort();
      stream?.close();
      resolve(r);
    };
    // One deadline for the whole exchange: a server that accepts but never answers (or never closes) must not hang us.
    const timer = new Timer(clock, () => finish({ error: new Error(`${word} to ${endpoint.host}:${endpoint.port}: no complete answer within ${timeoutMs} ms`) }));
    const onAbort = (): void => finish({ error: new Error(`${word} to ${endpoint.host}:${endpoint.port}: aborted`) });
    if (signal?.aborted === true) {
      onAbort();
      return;
    }
    signal?.addEventListener('abort', onAbort, { once: true });
    timer.arm(timeoutMs);
    const handlers = {
      onData: (chunk: Uint8Array) => void chunks.push(chunk),
      // The server closes after its answer: that close is the only end-of-answer marker the protocol has.
      onClose: (error?: Error) => finish(error === undefined ? { text: decodeText(chunks) } : { error }),
    };
    transport.connect(endpoint, handlers, { signal: abort.signal }).then(
      (s) => {
        stream = s;
        if (done) s.close();
        else s.write(new Uint8Array([...word].map((c) => c.charCodeAt(0))));
      },
      (error: unknown) => finish({ error: error instanceof Error ? error : new Error(String(error)) }),
    );
  });
}

/** The answer as text: UTF-8 (`conf` and `envi` print paths, which may be any Unicode). */
function decodeText(chunks: readonly Uint8Array[]): string {
  return utf8Decode(concatBytes(chunks));
}
