/** Loads the golden captures in test/fixtures/golden (see its README) for the codec tests. */

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hexDecode } from '../../src/protocol/index.js';
import { GOLDEN_DIR } from '../fixtures/golden-dir.js';

export { GOLDEN_DIR };

export interface GoldenLine {
  file: string;
  seq: number;
  conn: number;
  dir: 'c2s' | 's2c';
  len: number | null;
  hex: string;
  kind: string;
  xid?: number;
  opcode?: number;
  op?: string;
  decoded?: unknown;
  decode_error?: string;
  bytes: Uint8Array;
}

export function goldenFiles(): string[] {
  return readdirSync(GOLDEN_DIR)
    .filter((f) => f.endsWith('.jsonl'))
    .sort();
}

export function loadGolden(file: string): GoldenLine[] {
  return readFileSync(join(GOLDEN_DIR, file), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => {
      const o = JSON.parse(l) as Omit<GoldenLine, 'file' | 'bytes'>;
      const bytes = hexDecode(o.hex);
      if (bytes === null) throw new Error(`bad hex in ${file} seq ${o.seq}`);
      return { ...o, file, bytes };
    });
}

const FRAMED = new Set(['connect-request', 'connect-response', 'request', 'reply', 'notification']);

/** The lines the README says must decode and re-encode exactly. */
export function isRoundTripFrame(g: GoldenLine): boolean {
  return FRAMED.has(g.kind) && g.decode_error === undefined;
}

export function allGolden(): GoldenLine[] {
  return goldenFiles().flatMap(loadGolden);
}
