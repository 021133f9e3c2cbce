/**
 * Transport checks that run on any runtime (no node:* imports): used where vitest cannot run, e.g. the
 * Deno transport inside `deno run` (deno-probe.ts). Each check talks to a real ZooKeeper and returns
 * `true` or a sentence saying what went wrong, so the caller can print one JSON object of results.
 */

import type { ByteStream, Endpoint, Transport } from '../../src/transport/types.js';
import {
  FrameCollector,
  closeSessionFrame,
  connectRequestFrame,
  existsFrame,
  parseConnectResponse,
  parseReplyHeader,
} from './zk-frames.js';

export type CheckResults = Record<string, true | string>;

export interface Opened {
  stream: ByteStream;
  frames: FrameCollector;
  closes: (Error | undefined)[];
  closed: Promise<Error | undefined>;
}

/** Opens a stream on `transport`, collecting its frames and every onClose call. */
export async function openStream(
  transport: Transport,
  endpoint: Endpoint,
  signal: AbortSignal = new AbortController().signal,
): Promise<Opened> {
  const frames = new FrameCollector();
  const closes: (Error | undefined)[] = [];
  let onClosed!: (err: Error | undefined) => void;
  const closed = new Promise<Error | undefined>((resolve) => (onClosed = resolve));
  const stream = await transport.connect(
    endpoint,
    {
      onData: (chunk) => frames.push(chunk),
      onClose: (err) => {
        closes.push(err);
        onClosed(err);
      },
    },
    { signal },
  );
  return { stream, frames, closes, closed };
}

/** Resolves with the first `count` frames, or fails as soon as the stream ends before they came. */
export function framesOrEnd(s: Opened, count: number): Promise<Uint8Array[]> {
  const ended = s.closed.then((err) => {
    throw new Error(`stream ended after ${s.frames.frames.length} of ${count} frames: ${String(err)}`);
  });
  return Promise.race([s.frames.waitFor(count), ended]);
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

async function handshakeAndPeerEnd(transport: Transport, endpoint: Endpoint): Promise<true | string> {
  const s = await openStream(transport, endpoint);
  s.stream.write(connectRequestFrame(10_000));
  const [payload] = await framesOrEnd(s, 1);
  const reply = parseConnectResponse(payload!);
  if (reply.timeOut <= 0 || reply.sessionId === 0n || reply.passwd?.length !== 16) {
    return `bad ConnectResponse ${JSON.stringify({ ...reply, sessionId: String(reply.sessionId) })}`;
  }
  s.stream.write(closeSessionFrame(1));
  const frames = await s.frames.waitFor(2);
  const header = parseReplyHeader(frames[1]!);
  if (header.xid !== 1 || header.err !== 0) return `closeSession reply ${JSON.stringify({ ...header, zxid: String(header.zxid) })}`;
  const err = await s.closed;
  await settle();
  if (err !== undefined) return `peer end reported an error: ${err.message}`;
  if (s.closes.length !== 1) return `onClose called ${s.closes.length} times`;
  return true;
}

async function writeOrder(transport: Transport, endpoint: Endpoint): Promise<true | string> {
  const s = await openStream(transport, endpoint);
  s.stream.write(connectRequestFrame(10_000));
  await framesOrEnd(s, 1);
  const count = 300;
  for (let xid = 1; xid <= count; xid++) {
    const frame = existsFrame(xid, xid % 2 === 0 ? '/' : '/zookeeper');
    for (let at = 0; at < frame.length; ) {
      const size = 1 + ((xid + at) % 7);
      s.stream.write(frame.subarray(at, at + size));
      at += size;
    }
  }
  const frames = await framesOrEnd(s, 1 + count);
  const xids = frames.slice(1).map((f) => parseReplyHeader(f).xid);
  s.stream.close();
  await s.closed;
  const wrong = xids.findIndex((xid, i) => xid !== i + 1);
  return wrong < 0 ? true : `reply ${wrong} has xid ${xids[wrong]}`;
}

async function closeOnce(transport: Transport, endpoint: Endpoint): Promise<true | string> {
  const s = await openStream(transport, endpoint);
  s.stream.write(connectRequestFrame(10_000));
  await framesOrEnd(s, 1);
  s.stream.close();
  s.stream.close();
  s.stream.write(existsFrame(1, '/'));
  const err = await s.closed;
  await settle();
  if (err !== undefined) return `close() reported an error: ${err.message}`;
  if (s.closes.length !== 1) return `onClose called ${s.closes.length} times`;
  if (s.frames.frames.length !== 1) return `${s.frames.frames.length - 1} frames delivered after close()`;
  return true;
}

async function abortedSignal(transport: Transport, endpoint: Endpoint): Promise<true | string> {
  try {
    await openStream(transport, endpoint, AbortSignal.abort());
    return 'connect with an aborted signal resolved';
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    return code === 'ABORTED' ? true : `rejected with ${String(err)} (code ${String(code)})`;
  }
}

async function refused(transport: Transport, host: string, closedPort: number): Promise<true | string> {
  try {
    const s = await openStream(transport, { host, port: closedPort });
    s.stream.close();
    return `connect to closed port ${closedPort} resolved`;
  } catch {
    return true;
  }
}

/** Runs every check; a check that throws is reported as failed with its error, never aborts the rest. */
export async function runStreamChecks(transport: Transport, endpoint: Endpoint, closedPort: number): Promise<CheckResults> {
  const checks: [string, () => Promise<true | string>][] = [
    ['handshake and peer end', () => handshakeAndPeerEnd(transport, endpoint)],
    ['write order', () => writeOrder(transport, endpoint)],
    ['close once', () => closeOnce(transport, endpoint)],
    ['aborted signal', () => abortedSignal(transport, endpoint)],
    ['refused', () => refused(transport, endpoint.host, closedPort)],
  ];
  const results: CheckResults = {};
  for (const [name, check] of checks) {
    try {
      results[name] = await check();
    } catch (err) {
      results[name] = `threw ${err instanceof Error ? err.message : String(err)}`;
    }
  }
  return results;
}
