/**
 * The fuzz loop: runs each target for a number of inputs or a time budget, one PRNG per input seeded from
 * (run seed, target name, input index), so any failure replays alone with `replayInput`. Counts inputs per
 * target and collects violations (and anything else a target throws) instead of stopping at the first.
 */

import type { Corpus } from './corpus.js';
import { mixSeed, Prng } from '../../harness/prng.js';
import { describeThrown, FuzzViolation } from './violation.js';

export interface FuzzTarget {
  readonly name: string;
  run(rng: Prng, corpus: Corpus): void | Promise<void>;
}

export interface FuzzFailure {
  readonly target: string;
  readonly seed: number;
  readonly index: number;
  readonly message: string;
  readonly input?: string;
}

export interface TargetReport {
  readonly target: string;
  readonly inputs: number;
  readonly failures: readonly FuzzFailure[];
  readonly ms: number;
}

export interface FuzzRunOptions {
  readonly seed: number;
  readonly corpus: Corpus;
  readonly targets: readonly FuzzTarget[];
  /** Inputs per target (default 1000 unless `seconds` is given). */
  readonly inputs?: number;
  /** Wall-clock budget per target, in seconds; with `inputs` too, whichever ends first. */
  readonly seconds?: number;
  /** Stop a target after this many failures (default 5): one bug tends to fail every input like it. */
  readonly maxFailures?: number;
  /** Called now and then with the running totals. */
  readonly onProgress?: (report: TargetReport) => void;
}

function nameHash(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** The PRNG for one input: the same (seed, target, index) always gives the same input. */
export function inputRng(seed: number, target: string, index: number): Prng {
  return new Prng(mixSeed(seed, nameHash(target), index));
}

/** Runs one input of one target; resolves to the failure, or undefined if the contract held. */
export async function replayInput(target: FuzzTarget, corpus: Corpus, seed: number, index: number): Promise<FuzzFailure | undefined> {
  try {
    await target.run(inputRng(seed, target.name, index), corpus);
    return undefined;
  } catch (e) {
    const base = { target: target.name, seed, index };
    if (e instanceof FuzzViolation) return { ...base, message: e.message, ...(e.input === undefined ? {} : { input: e.input }) };
    // Anything else escaping a target is a bug in the target or something it did not expect: report it too.
    return { ...base, message: `target threw ${describeThrown(e)}` };
  }
}

export async function runFuzz(options: FuzzRunOptions): Promise<TargetReport[]> {
  const reports: TargetReport[] = [];
  const maxFailures = options.maxFailures ?? 5;
  const limit = options.inputs ?? (options.seconds === undefined ? 1000 : Number.POSITIVE_INFINITY);
  for (const target of options.targets) {
    const started = Date.now();
    const deadline = options.seconds === undefined ? Number.POSITIVE_INFINITY : started + options.seconds * 1000;
    const failures: FuzzFailure[] = [];
    let inputs = 0;
    let lastProgress = started;
    while (inputs < limit && failures.length < maxFailures) {
      // Checking the clock every input would cost more than a codec input itself.
      if (inputs % 64 === 0 && Date.now() >= deadline) break;
      const failure = await replayInput(target, options.corpus, options.seed, inputs);
      inputs++;
      if (failure !== undefined) failures.push(failure);
      if (options.onProgress !== undefined && inputs % 256 === 0 && Date.now() - lastProgress > 5000) {
        lastProgress = Date.now();
        options.onProgress({ target: target.name, inputs, failures, ms: lastProgress - started });
      }
    }
    reports.push({ target: target.name, inputs, failures, ms: Date.now() - started });
  }
  return reports;
}
