/**
 * The seed corpus: real captured frames from the golden files (test/fixtures/golden, one JSON line per frame), grouped
 * by connection so conversation-level targets can replay a real exchange with some frames mutated.
 */

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hexDecode } from '../../../src/protocol/index.js';
import { GOLDEN_DIR } from '../../fixtures/golden-dir.js';

export interface CorpusFrame {
  readonly file: string;
  readonly conn: number;
  readonly dir: 'c2s' | 's2c';
  readonly kind: string;
  /** The opcode of the request (for replies: of the request they answer), when the capture gives one. */
  readonly opcode: number | undefined;
  /** The whole frame, length prefix included (raw text for four-letter-word lines). */
  readonly bytes: Uint8Array;
}

export interface Corpus {
  readonly frames: readonly CorpusFrame[];
  /** Frames of one TCP connection in wire order, both directions. */
  readonly conversations: readonly (readonly CorpusFrame[])[];
  /** Just the bytes, for splicing. */
  readonly donors: readonly Uint8Array[];
}

export const DEFAULT_GOLDEN_DIR = GOLDEN_DIR;

export function loadCorpus(dir: string = DEFAULT_GOLDEN_DIR): Corpus {
  if (!existsSync(dir)) throw new Error(`golden frames not found in ${dir}`);
  const frames: CorpusFrame[] = [];
  const byConn = new Map<string, CorpusFrame[]>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.jsonl')).sort()) {
    for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      const o = JSON.parse(line) as { conn: number; dir: 'c2s' | 's2c'; kind: string; opcode?: number; hex: string };
      const bytes = hexDecode(o.hex);
      if (bytes === null) continue;
      const f: CorpusFrame = { file, conn: o.conn, dir: o.dir, kind: o.kind, opcode: o.opcode, bytes };
      frames.push(f);
      const key = `${file}#${o.conn}`;
      let list = byConn.get(key);
      if (list === undefined) byConn.set(key, (list = []));
      list.push(f);
    }
  }
  if (frames.length === 0) throw new Error(`no golden frames in ${dir}`);
  return { frames, conversations: [...byConn.values()], donors: frames.map((f) => f.bytes) };
}
