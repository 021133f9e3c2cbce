/**
 * Every JVM the launcher starts dies with this process, and its scratch directory goes with it.
 *
 * 'exit' handlers do not run when a signal ends the process unless someone listens for the signal (Ctrl-C on the
 * CLI, vitest ending its fork workers with SIGTERM), so we listen for SIGTERM/SIGINT/SIGHUP too, clean up, and
 * re-raise the signal when nobody else handles it, so the process still dies the way it was asked to. A command
 * that handles Ctrl-C itself (trace prints a summary) keeps control: then we only clean up. Only a SIGKILL of this
 * process can leave a server behind.
 *
 * Handlers are installed lazily, on the first server, and once per process: the registry lives on globalThis because
 * vitest evaluates this module once per test file in the same process.
 */

import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';

interface Registry {
  children: Set<ChildProcess>;
  dirs: Set<string>;
}

const KEY = Symbol.for('zkwire.local-server.exit-cleanup');
const SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;

function registry(): Registry {
  const holder = globalThis as typeof globalThis & { [KEY]?: Registry };
  let reg = holder[KEY];
  if (reg === undefined) {
    const created: Registry = { children: new Set(), dirs: new Set() };
    reg = created;
    holder[KEY] = created;
    process.on('exit', () => cleanUpNow(created));
    for (const signal of SIGNALS) {
      process.once(signal, () => {
        cleanUpNow(created);
        // Our listener is gone (once); with no other listener the re-raised signal takes its default action.
        if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
      });
    }
  }
  return reg;
}

function cleanUpNow(reg: Registry): void {
  for (const child of reg.children) {
    try {
      child.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
  reg.children.clear();
  // Best effort: a JVM killed a moment ago may still be closing files; a leftover dir in tmp is harmless.
  for (const dir of reg.dirs) {
    try {
      fs.rmSync(dir, { recursive: true, force: true, maxRetries: 2 });
    } catch {
      // nothing more to do while exiting
    }
  }
  reg.dirs.clear();
}

export function trackChild(child: ChildProcess): void {
  const reg = registry();
  reg.children.add(child);
  child.once('exit', () => reg.children.delete(child));
}

export function trackDir(dir: string): void {
  registry().dirs.add(dir);
}

export function untrackDir(dir: string): void {
  registry().dirs.delete(dir);
}
