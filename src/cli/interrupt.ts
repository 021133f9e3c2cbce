/**
 * How every long-running command (lock, watch, trace, bench, demo) reacts to SIGINT, SIGTERM and SIGHUP, the same
 * way for all three: the first signal aborts `signal` so the command stops, prints its partial report, releases
 * what it holds, closes its sessions and removes what it created; each of those steps runs through `step()`,
 * which says on stderr what it is waiting for and gives up after a bound, so the whole wind-down is bounded too.
 * A second signal exits at once. The exit status is 128 + the signal's number (130 INT, 143 TERM, 129 HUP), the
 * shell convention for "ended by that signal".
 */

import { constants } from 'node:os';
import { ZooKeeperError } from '../errors.js';
import { systemClock } from '../node.js';
import type { CliIo } from './types.js';

/** The signals a long-running command winds down on, all alike. */
export const INTERRUPT_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
/** One of INTERRUPT_SIGNALS. */
export type InterruptSignal = (typeof INTERRUPT_SIGNALS)[number];

/** Longest a single clean-up step is waited for after an interrupt, by default. */
export const STEP_LIMIT_MS = 5000;
/** Longest the whole wind-down may take before the process exits anyway. */
export const WIND_DOWN_LIMIT_MS = 20_000;

/** How a clean-up step ended: done (with its value), failed (with its error), or not within its bound. */
export type StepOutcome<T> = { done: true; value: T } | { done: false; error: unknown } | { done: false; timedOut: true };

/** A command's hold on the interrupt signals: see onInterrupt. */
export interface Interrupt extends Disposable {
  /** Aborted by the first signal; its reason is an ABORTED ZooKeeperError naming the signal. */
  readonly signal: AbortSignal;
  /** The signal received, if any. */
  readonly received: InterruptSignal | undefined;
  /** 128 + the signal's number once a signal came, else undefined. */
  readonly exitCode: number | undefined;
  /**
   * Waits for one clean-up step. After an interrupt it says on stderr what it waits for, and stops waiting after
   * `limitMs`: the outcome then is `{done: false, timedOut: true}` and the caller must not claim the step happened.
   */
  step<T>(what: string, work: Promise<T>, limitMs?: number): Promise<StepOutcome<T>>;
}

/** 128 + the signal's number: 130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP. */
export function signalExitCode(sig: InterruptSignal): number {
  return 128 + constants.signals[sig];
}

/**
 * Waits for one clean-up step of `command`: plainly before an interrupt; after one, saying on stderr what it waits
 * for and giving up after `limitMs`. `waiting` hears what is waited for (undefined once done).
 */
async function boundedStep<T>(
  command: string,
  io: Pick<CliIo, 'err'>,
  interrupted: boolean,
  what: string,
  work: Promise<T>,
  limitMs: number,
  waiting: (what: string | undefined) => void = () => {},
): Promise<StepOutcome<T>> {
  if (!interrupted) {
    try {
      return { done: true, value: await work };
    } catch (error) {
      return { done: false, error };
    }
  }
  waiting(what);
  io.err(`zkwire ${command}: waiting for ${what} (at most ${limitMs} ms)\n`);
  let timer: unknown;
  const limit = new Promise<StepOutcome<T>>((resolve) => {
    timer = systemClock.setTimeout(() => resolve({ done: false, timedOut: true }), limitMs);
  });
  try {
    return await Promise.race([
      work.then(
        (value): StepOutcome<T> => ({ done: true, value }),
        (error: unknown): StepOutcome<T> => ({ done: false, error }),
      ),
      limit,
    ]);
  } finally {
    systemClock.clearTimeout(timer);
    waiting(undefined);
  }
}

/**
 * Takes SIGINT, SIGTERM and SIGHUP for `command` until disposed (`using`). `exit` is how a second signal or the
 * overall bound ends the process (process.exit unless a test passes its own).
 */
export function onInterrupt(command: string, io: Pick<CliIo, 'err'>, exit: (code: number) => void = (c) => process.exit(c)): Interrupt {
  const controller = new AbortController();
  let received: InterruptSignal | undefined;
  let waitingFor: string | undefined;
  let bound: unknown;
  const handler = (sig: InterruptSignal): void => {
    if (received !== undefined) {
      io.err(`zkwire ${command}: ${sig} again: exiting now${waitingFor === undefined ? '' : ` without waiting for ${waitingFor}`}\n`);
      exit(signalExitCode(received));
      return;
    }
    received = sig;
    io.err(`zkwire ${command}: ${sig}: stopping and cleaning up (send it again to exit at once)\n`);
    bound = systemClock.setTimeout(() => {
      io.err(`zkwire ${command}: gave up after ${WIND_DOWN_LIMIT_MS} ms${waitingFor === undefined ? '' : ` waiting for ${waitingFor}`}\n`);
      exit(signalExitCode(sig));
    }, WIND_DOWN_LIMIT_MS);
    controller.abort(new ZooKeeperError('ABORTED', `interrupted by ${sig}`));
  };
  for (const sig of INTERRUPT_SIGNALS) process.on(sig, handler);
  return {
    signal: controller.signal,
    get received() {
      return received;
    },
    get exitCode() {
      return received === undefined ? undefined : signalExitCode(received);
    },
    step<T>(what: string, work: Promise<T>, limitMs = STEP_LIMIT_MS): Promise<StepOutcome<T>> {
      return boundedStep(command, io, received !== undefined, what, work, limitMs, (w) => (waitingFor = w));
    },
    [Symbol.dispose]() {
      for (const sig of INTERRUPT_SIGNALS) process.off(sig, handler);
      if (bound !== undefined) systemClock.clearTimeout(bound);
    },
  };
}

/**
 * The interrupt of a command run inside `zkwire shell`: the shell's Ctrl-C for this command (`io.session.signal`)
 * counts as SIGINT and the process's signals are left to the shell; from the CLI, onInterrupt.
 */
export function commandInterrupt(command: string, io: Pick<CliIo, 'err' | 'session'>): Interrupt {
  const shared = io.session;
  if (shared === undefined) return onInterrupt(command, io);
  const signal = shared.signal;
  return {
    signal,
    get received() {
      return signal.aborted ? 'SIGINT' : undefined;
    },
    get exitCode() {
      return signal.aborted ? signalExitCode('SIGINT') : undefined;
    },
    step<T>(what: string, work: Promise<T>, limitMs = STEP_LIMIT_MS): Promise<StepOutcome<T>> {
      return boundedStep(command, io, signal.aborted, what, work, limitMs);
    },
    [Symbol.dispose]() {},
  };
}
