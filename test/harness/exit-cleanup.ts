/**
 * One cleanup registry per test worker process for every server, JVM and directory the harness starts. vitest
 * evaluates modules once per test file in the same worker, so the registry is kept on globalThis: one set of exit and
 * signal listeners per process, however many files it runs (global-setup.ts uses it in vitest's main process for
 * the run's shared server). The kit itself keeps no global; this is the harness passing it what it needs.
 */
import type { ChildProcess } from 'node:child_process';
import { CleanupRegistry } from '../../src/testing/local-server/cleanup.js';

const KEY = Symbol.for('zkwire.test-harness.cleanup');

export function harnessCleanup(): CleanupRegistry {
  const holder = globalThis as typeof globalThis & { [KEY]?: CleanupRegistry };
  return (holder[KEY] ??= new CleanupRegistry());
}

export function trackChild(child: ChildProcess): void {
  harnessCleanup().trackChild(child);
}

export function trackDir(dir: string): void {
  harnessCleanup().trackDir(dir);
}

export function untrackDir(dir: string): void {
  harnessCleanup().untrackDir(dir);
}
