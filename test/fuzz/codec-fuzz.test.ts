/**
 * Seeded fuzzing of the codec: mutated golden frames and random bytes through the frame decoder,
 * the conversation decoder, every exported decodeX and the four-letter-word parsers. A fixed seed set keeps
 * `npm test` reproducible; `node .build/bench/fuzz.js --seconds 300 --seed N` runs the same targets for longer.
 */

import { describe, expect, it } from 'vitest';
import { CODEC_TARGETS, decoderNames } from './engine/codec-targets.js';
import { loadCorpus } from './engine/corpus.js';
import { replayInput, runFuzz, type FuzzTarget } from './engine/engine.js';
import * as protocol from '../../src/protocol/index.js';

const corpus = loadCorpus();
const SEEDS = [1, 2, 3];
const INPUTS: Record<string, number> = { 'frame-decoder': 600, conversation: 150, decoders: 3000, 'four-letter': 300 };

describe('codec fuzzing (fixed seeds)', () => {
  for (const target of CODEC_TARGETS) {
    it(`${target.name}: only typed results and errors, bounded buffers`, async () => {
      for (const seed of SEEDS) {
        const [report] = await runFuzz({ seed, corpus, targets: [target], inputs: INPUTS[target.name] ?? 500 });
        expect(report!.failures).toEqual([]);
        expect(report!.inputs).toBe(INPUTS[target.name] ?? 500);
      }
    });
  }

  it('exercises every decodeX the protocol exports', () => {
    const exported = Object.keys(protocol).filter((n) => n.startsWith('decode') && typeof (protocol as Record<string, unknown>)[n] === 'function');
    const fuzzed = new Set(decoderNames());
    // decodeRequestBody/decodeResponseBody take an opcode first; the target runs them for every opcode.
    const missing = exported.filter((n) => !fuzzed.has(n) && !fuzzed.has(`${n}(${protocol.OpCode.create})`));
    expect(missing).toEqual([]);
    expect(exported.length).toBeGreaterThan(40);
  });

  it('catches a decoder that leaks a RangeError (the harness itself can fail)', async () => {
    const leaky: FuzzTarget = {
      name: 'leaky',
      run(rng) {
        const bytes = rng.bytes(8);
        // A decoder without bounds checks: DataView throws RangeError past the end.
        new DataView(bytes.buffer).getInt32(rng.int(16));
      },
    };
    const failures = [];
    for (let i = 0; i < 50; i++) {
      const f = await replayInput(leaky, corpus, 1, i);
      if (f !== undefined) failures.push(f);
    }
    expect(failures.length).toBeGreaterThan(0);
    expect(failures[0]!.message).toMatch(/RangeError/);
  });

  it('replays one input exactly from (seed, target, index)', async () => {
    const seen: string[] = [];
    const recorder: FuzzTarget = { name: 'recorder', run: (rng) => void seen.push(rng.u32().toString(16)) };
    await replayInput(recorder, corpus, 7, 42);
    await replayInput(recorder, corpus, 7, 42);
    await replayInput(recorder, corpus, 7, 43);
    expect(seen[0]).toBe(seen[1]);
    expect(seen[2]).not.toBe(seen[0]);
  });
});
