/** Shared bits of the capture tests: golden conversations as TCP packets, and the events a capture yields. */

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hexDecode, toJsonValue, type JsonValue } from '../../../src/protocol/index.js';
import { readCaptureEvents, type CaptureEvent, type FrameEvent, type ReadCaptureOptions } from '../../../src/tools/capture/index.js';
import { TcpConversation, type Endpoint, type TcpPacket } from './pcap-writer.js';

/** Golden captures copied unchanged from the shared golden set, so these tests need nothing outside the repository. */
export const FIXTURE_DIR = join(import.meta.dirname, '../../fixtures/golden');

export interface GoldenFrame {
  seq: number;
  conn: number;
  dir: 'c2s' | 's2c';
  kind: string;
  xid?: number;
  op?: string;
  err?: number;
  decoded?: JsonValue;
  bytes: Uint8Array;
}

export function loadFixture(file: string): GoldenFrame[] {
  return readFileSync(join(FIXTURE_DIR, file), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => {
      const o = JSON.parse(l) as GoldenFrame & { hex: string };
      return { ...o, bytes: hexDecode(o.hex)! };
    });
}

export const CLIENT: Endpoint = { ip: '10.1.2.3', port: 40001 };
export const SERVER: Endpoint = { ip: '10.9.8.7', port: 2181 };

/** One golden connection sent over TCP: handshake, every frame in order (split at `mss`), FIN both ways. */
export function goldenConnection(
  frames: GoldenFrame[],
  opts: { client?: Endpoint; server?: Endpoint; mss?: number; handshake?: boolean; close?: boolean; startUs?: number } = {},
): { tcp: TcpConversation; packets: TcpPacket[]; perFrame: TcpPacket[][] } {
  const tcp = new TcpConversation(opts.client ?? CLIENT, opts.server ?? SERVER, opts.startUs === undefined ? {} : { startUs: opts.startUs });
  const packets: TcpPacket[] = opts.handshake === false ? [] : tcp.handshake();
  const perFrame = frames.map((f) => tcp.send(f.dir, f.bytes, opts.mss));
  packets.push(...perFrame.flat());
  if (opts.close !== false) packets.push(tcp.fin('c2s'), tcp.fin('s2c'));
  return { tcp, packets, perFrame };
}

export async function* chunked(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, Math.min(bytes.length, at + size));
}

export interface Collected {
  events: CaptureEvent[];
  notes: string[];
}

export async function collect(bytes: Uint8Array, opts: ReadCaptureOptions = {}, chunkSize = 65536): Promise<Collected> {
  const notes: string[] = [];
  const events: CaptureEvent[] = [];
  for await (const e of readCaptureEvents(chunked(bytes, chunkSize), { ...opts, onNote: (n) => notes.push(n) })) events.push(e);
  return { events, notes };
}

export function frameEvents(events: CaptureEvent[]): FrameEvent[] {
  return events.filter((e): e is FrameEvent => e.type === 'frame');
}

/** What a frame event says, in the golden file's terms. */
export function summary(e: FrameEvent): { dir: string; kind: string; xid?: number; op?: string; decoded?: JsonValue; error?: string } {
  const f = e.frame;
  const out: { dir: string; kind: string; xid?: number; op?: string; decoded?: JsonValue; error?: string } = { dir: e.dir, kind: f.kind };
  if (f.xid !== undefined) out.xid = f.xid;
  if (f.op !== undefined) out.op = f.op;
  if (f.decoded !== undefined) out.decoded = toJsonValue(f.decoded);
  if (f.error !== undefined) out.error = f.error;
  return out;
}

/** The golden frames in the same shape as `summary`. */
export function goldenSummary(frames: GoldenFrame[]): ReturnType<typeof summary>[] {
  return frames.map((g) => {
    const out: ReturnType<typeof summary> = { dir: g.dir, kind: g.kind };
    if (g.xid !== undefined) out.xid = g.xid;
    if (g.op !== undefined) out.op = g.op;
    if (g.decoded !== undefined) out.decoded = g.decoded;
    return out;
  });
}
