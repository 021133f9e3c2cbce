/**
 * Seeded fuzzing of a live session against a hostile fake server: the real ZooKeeperClient over
 * an in-memory transport on virtual time, the server lying on handshakes and replies (truncated frames, wrong
 * xids, lying lengths, frames just over the limit, unknown error codes, notifications for unknown paths, garbage
 * after a valid handshake, timeOut 0). Only typed errors and reconnects: no crash, no hang, nothing left behind.
 */

import { describe, expect, it } from 'vitest';
import { loadCorpus } from './engine/corpus.js';
import { inputRng, runFuzz } from './engine/engine.js';
import { runSessionScenario, sessionTarget } from './engine/session-target.js';
import { trapCrashes } from './crash-trap.js';

const corpus = loadCorpus();
const crashes = trapCrashes();

describe('session fuzzing against a hostile server (fixed seeds)', () => {
  for (const seed of [1, 2, 3, 4]) {
    it(`seed ${seed}: typed errors and reconnects only, every call settles, nothing left after close`, async () => {
      const [report] = await runFuzz({ seed, corpus, targets: [sessionTarget()], inputs: 100 });
      expect(report!.failures).toEqual([]);
      expect(crashes).toEqual([]);
    });
  }

  it('the scenarios reach the lies they are meant to test (reconnects, successes and typed failures all happen)', async () => {
    const outcomes: Record<string, number> = {};
    let connections = 0;
    for (let i = 0; i < 60; i++) {
      const r = await runSessionScenario(inputRng(5, 'session', i), corpus);
      connections += r.connections;
      for (const [k, v] of Object.entries(r.outcomes)) outcomes[k] = (outcomes[k] ?? 0) + v;
    }
    // Many more connections than scenarios: the client really did drop lying servers and reconnect.
    expect(connections).toBeGreaterThan(120);
    expect(outcomes['ok'] ?? 0).toBeGreaterThan(0);
    expect(outcomes['CONNECTIONLOSS'] ?? 0).toBeGreaterThan(0);
    expect(Object.keys(outcomes).length).toBeGreaterThan(5);
  });
});
