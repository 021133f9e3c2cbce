/**
 * Seeded fuzzing of a live session against a hostile fake server (issue 6 item 2): the real ZooKeeperClient over
 * an in-memory transport on virtual time, the server lying on handshakes and replies (truncated frames, wrong
 * xids, lying lengths, frames just over the limit, unknown error codes, notifications for unknown paths, garbage
 * after a valid handshake, timeOut 0). Only typed errors and reconnects: no crash, no hang, nothing left behind.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCorpus } from '../../src/tools/fuzz/corpus.js';
import { inputRng, runFuzz } from '../../src/tools/fuzz/engine.js';
import { runSessionScenario, sessionTarget } from '../../src/tools/fuzz/session-target.js';

const corpus = loadCorpus();
/**
 * Server acts that trip a known, reported bug, left out here so this set keeps guarding everything else while the
 * fix is pending (the bug's own test in hostile-server.test.ts fails meanwhile). Empty now: every bug the fuzzer
 * found so far is fixed.
 */
const KNOWN_BUG_ACTS: string[] = [];
const crashes: string[] = [];
const onUncaught = (e: unknown): void => void crashes.push(`uncaught: ${String(e)}`);
const onUnhandled = (e: unknown): void => void crashes.push(`unhandled rejection: ${String(e)}`);

beforeAll(() => {
  process.on('uncaughtException', onUncaught);
  process.on('unhandledRejection', onUnhandled);
});
afterAll(() => {
  process.off('uncaughtException', onUncaught);
  process.off('unhandledRejection', onUnhandled);
});

describe('session fuzzing against a hostile server (fixed seeds)', () => {
  for (const seed of [1, 2, 3, 4]) {
    it(`seed ${seed}: typed errors and reconnects only, every call settles, nothing left after close`, async () => {
      const [report] = await runFuzz({ seed, corpus, targets: [sessionTarget({ exclude: KNOWN_BUG_ACTS })], inputs: 100 });
      expect(report!.failures).toEqual([]);
      expect(crashes).toEqual([]);
    });
  }

  it('the scenarios reach the lies they are meant to test (reconnects, successes and typed failures all happen)', async () => {
    const outcomes: Record<string, number> = {};
    let connections = 0;
    for (let i = 0; i < 60; i++) {
      const r = await runSessionScenario(inputRng(5, 'session', i), corpus, { exclude: KNOWN_BUG_ACTS });
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
