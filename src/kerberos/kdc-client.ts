/**
 * Talking to a KDC over TCP (RFC 4120 section 7.2.2: each message preceded by its length, 4 bytes big-endian),
 * through the client's Transport, so it runs wherever the client does. One connection per request, as kinit does;
 * each KDC of the realm is tried in turn, each within `timeoutMs`, so a KDC that does not answer costs a bounded time.
 */

import { concatBytes } from '../protocol/index.js';
import type { Endpoint, Transport } from '../transport/types.js';
import { kerberosError } from './errors.js';

/** Sends a request to the realm's KDC and resolves with its reply (a KDC-REP or KRB-ERROR, still encoded). */
export type KdcCall = (request: Uint8Array) => Promise<Uint8Array>;

/** The most a KDC reply may take: tickets with large authorization data stay far below it. */
const MAX_REPLY = 1 << 20;

/** "host", "host:port" or "[v6]:port" as krb5.conf writes a KDC; the port defaults to 88. */
export function parseKdcAddress(text: string): Endpoint {
  const t = text.trim();
  const v6 = /^\[([^\]]+)\](?::(\d+))?$/.exec(t);
  if (v6 !== null) return { host: v6[1]!, port: v6[2] === undefined ? 88 : Number(v6[2]) };
  const m = /^([^:\s]+)(?::(\d+))?$/.exec(t);
  if (m === null) throw kerberosError('BAD_CONFIG', `"${text}" is not a KDC address (host or host:port)`);
  const port = m[2] === undefined ? 88 : Number(m[2]);
  if (!(port > 0 && port < 65536)) throw kerberosError('BAD_CONFIG', `"${text}" has no valid port`);
  return { host: m[1]!, port };
}

/** A KdcCall over `transport` to the KDCs in order, each attempt bounded by `timeoutMs`. */
export function kdcCaller(transport: Transport, kdcs: readonly Endpoint[], timeoutMs: number): KdcCall {
  return async (request) => {
    const failures: string[] = [];
    let timedOut = false;
    for (const kdc of kdcs) {
      try {
        return await exchangeOnce(transport, kdc, request, timeoutMs);
      } catch (e) {
        timedOut ||= (e as { timedOut?: boolean }).timedOut === true;
        failures.push(`${kdc.host}:${kdc.port}: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    throw kerberosError(timedOut ? 'KDC_TIMEOUT' : 'KDC_UNREACHABLE', `no KDC answered (${failures.join('; ') || 'no KDC configured'})`);
  };
}

function exchangeOnce(transport: Transport, kdc: Endpoint, request: Uint8Array, timeoutMs: number): Promise<Uint8Array> {
  return new Promise<Uint8Array>((resolve, reject) => {
    const abort = new AbortController();
    const chunks: Uint8Array[] = [];
    let received = 0;
    let settled = false;
    let stream: { close(): void } | undefined;
    const finish = (error: Error | undefined, reply?: Uint8Array): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      stream?.close();
      if (!abort.signal.aborted) abort.abort();
      if (error !== undefined) reject(error);
      else resolve(reply!);
    };
    const timer = setTimeout(() => finish(Object.assign(new Error(`no answer within ${timeoutMs} ms`), { timedOut: true })), timeoutMs);
    const onData = (chunk: Uint8Array): void => {
      chunks.push(chunk);
      received += chunk.length;
      if (received < 4) return;
      const all = chunks.length === 1 ? chunks[0]! : concatBytes(chunks);
      chunks.length = 0;
      chunks.push(all);
      const length = new DataView(all.buffer, all.byteOffset, 4).getUint32(0);
      if (length > MAX_REPLY) finish(new Error(`a reply of ${length} bytes is larger than the ${MAX_REPLY} we accept`));
      else if (received >= 4 + length) finish(undefined, all.slice(4, 4 + length));
    };
    transport
      .connect(kdc, { onData, onClose: (error) => finish(error ?? new Error('the KDC closed the connection before answering')) }, { signal: abort.signal })
      .then((s) => {
        stream = s;
        if (settled) {
          s.close();
          return;
        }
        const framed = new Uint8Array(4 + request.length);
        new DataView(framed.buffer).setUint32(0, request.length);
        framed.set(request, 4);
        s.write(framed);
      }, (e: unknown) => finish(e instanceof Error ? e : new Error(String(e))));
  });
}
