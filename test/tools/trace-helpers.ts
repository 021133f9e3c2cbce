/** Shared by the trace tests: a tracing proxy in front of a server, with every event and capture line kept. */

import { JsonLinesWriter } from '../../src/tools/capture/jsonl-writer.js';
import type { CaptureEvent } from '../../src/tools/capture/events.js';
import { startTraceProxy, type TraceProxy } from '../../src/tools/trace/index.js';
import { sharedServer } from '../harness/zookeeper.js';

export interface Traced {
  proxy: TraceProxy;
  events: CaptureEvent[];
  /** The --out lines, as the CLI would write them. */
  capture: string[];
}

export async function traceTo(upstream: { host: string; port: number }, maxFrameSize?: number): Promise<Traced> {
  const events: CaptureEvent[] = [];
  const capture: string[] = [];
  const writer = new JsonLinesWriter();
  const proxy = await startTraceProxy({
    listen: { host: '127.0.0.1', port: 0 },
    upstream,
    ...(maxFrameSize === undefined ? {} : { maxFrameSize }),
    onEvent: (e) => {
      events.push(e);
      const line = writer.line(e);
      if (line !== undefined) capture.push(line);
    },
  });
  return { proxy, events, capture };
}

/** A tracing proxy in front of the shared test server (its first host). */
export async function traceSharedServer(): Promise<Traced> {
  const first = (await sharedServer()).connectString.split(',')[0]!;
  const colon = first.lastIndexOf(':');
  return traceTo({ host: first.slice(0, colon), port: Number(first.slice(colon + 1)) });
}

export interface CaptureLine {
  seq: number;
  t: number;
  ts: string;
  conn: number;
  dir: 'c2s' | 's2c';
  len: number | null;
  hex: string;
  kind?: string;
}

export function parseCapture(lines: readonly string[]): CaptureLine[] {
  return lines.map((l) => JSON.parse(l) as CaptureLine);
}

/** All bytes of one direction of one connection, as the capture has them. */
export function capturedHex(lines: readonly string[], conn: number, dir: 'c2s' | 's2c'): string {
  return parseCapture(lines)
    .filter((l) => l.conn === conn && l.dir === dir)
    .map((l) => l.hex)
    .join('');
}

export function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

/** Resolves once `pred` holds, polling; fails with `what` after the timeout. */
export async function eventually(pred: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!pred()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
