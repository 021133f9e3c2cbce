/**
 * What the launcher started, to be stopped when the process ends: JVMs (and other child processes) and scratch
 * directories.
 *
 * 'exit' handlers do not run when a signal ends the process unless someone listens for the signal (Ctrl-C on the
 * CLI, a test runner ending its workers with SIGTERM), so a registry that holds something listens for SIGTERM,
 * SIGINT and SIGHUP too, cleans up, and re-raises the signal when nobody else handles it, so the process still dies
 * the way it was asked to. A program that handles Ctrl-C itself (trace prints a summary) keeps control: then the
 * registry only cleans up. Only a SIGKILL of this process can leave a server behind. Nothing is ever killed by
 * name: only the processes registered here, by their handle.
 *
 * The process listeners are installed when the first thing is registered and removed when the registry is empty
 * again, so any number of registries (one per module instance, as a test runner that loads modules per file makes)
 * leave no listeners behind once their servers are stopped.
 */

import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';

const SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;

/** Options of a {@link CleanupRegistry}. */
export interface CleanupOptions {
  /**
   * When another listener handles the signal (a CLI command winding down on Ctrl-C), leave the servers running
   * and clean up at 'exit' instead: the command still has sessions to close and nodes to delete on them, and a
   * server killed under it makes every one of those steps wait for a reconnect that never comes. Default false.
   */
  deferToSignalHandlers?: boolean;
}

/** A set of child processes and directories that are killed and removed when this process exits or is interrupted. */
export class CleanupRegistry {
  readonly #children = new Set<ChildProcess>();
  readonly #dirs = new Set<string>();
  readonly #defer: boolean;
  #installed = false;
  readonly #onExit = (): void => this.cleanUpNow();
  readonly #onSignal = (signal: NodeJS.Signals): void => {
    if (this.#defer && process.listenerCount(signal) > 1) return;
    this.cleanUpNow();
    // With no other listener left for it, the re-raised signal takes its default action and ends the process.
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  };

  constructor(options: CleanupOptions = {}) {
    this.#defer = options.deferToSignalHandlers ?? false;
  }

  /** Kills `child` with SIGKILL at exit unless it has exited before. */
  trackChild(child: ChildProcess): void {
    this.#children.add(child);
    this.#update();
    child.once('exit', () => {
      this.#children.delete(child);
      this.#update();
    });
  }

  /** Removes `dir` (recursively) at exit unless untrackDir was called first. */
  trackDir(dir: string): void {
    this.#dirs.add(dir);
    this.#update();
  }

  /** Forgets `dir` (it was removed, or is no longer to be removed at exit). */
  untrackDir(dir: string): void {
    this.#dirs.delete(dir);
    this.#update();
  }

  /** SIGKILLs every registered child and removes every registered directory, now. */
  cleanUpNow(): void {
    for (const child of this.#children) {
      try {
        child.kill('SIGKILL');
      } catch {
        // already gone
      }
    }
    this.#children.clear();
    // Best effort: a JVM killed a moment ago may still be closing files; a leftover dir in tmp is harmless.
    for (const dir of this.#dirs) {
      try {
        fs.rmSync(dir, { recursive: true, force: true, maxRetries: 2 });
      } catch {
        // nothing more to do while exiting
      }
    }
    this.#dirs.clear();
    this.#update();
  }

  #update(): void {
    const needed = this.#children.size > 0 || this.#dirs.size > 0;
    if (needed === this.#installed) return;
    this.#installed = needed;
    if (needed) {
      process.on('exit', this.#onExit);
      for (const signal of SIGNALS) process.on(signal, this.#onSignal);
    } else {
      process.off('exit', this.#onExit);
      for (const signal of SIGNALS) process.off(signal, this.#onSignal);
    }
  }
}

/** The registry the launcher uses when it is given none. */
export const defaultCleanup = new CleanupRegistry();

/**
 * The registry of the CLI's throwaway servers: a command interrupted by a signal winds down against servers that
 * still run (see CleanupOptions); they go when it is done, or at exit.
 */
export const cliCleanup = new CleanupRegistry({ deferToSignalHandlers: true });
