import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';

/**
 * Every JVM the harness starts dies with the test process, and its scratch directory goes with it.
 *
 * Vitest ends its fork workers with SIGTERM, which skips 'exit' handlers unless someone listens for the signal, so we
 * listen for SIGTERM/SIGINT/SIGHUP too, clean up, and re-raise the signal so the process still dies the way it was
 * asked to. Only a SIGKILL of the test process itself can leave a server behind.
 *
 * The registry lives on globalThis: vitest evaluates this module once per test file in the same process, and the
 * handlers must be installed once and see every file's servers.
 */
interface Registry {
  children: Set<ChildProcess>;
  dirs: Set<string>;
}

const KEY = Symbol.for('zkwire.test-harness.exit-cleanup');
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
  for (const dir of reg.dirs) fs.rmSync(dir, { recursive: true, force: true, maxRetries: 2 });
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
