/**
 * The shell's history file: one command a line, oldest first, at most HISTORY_SIZE lines, readable by its owner
 * only (lines may hold node data). `ZKWIRE_HISTORY` names another file, or turns history off when empty;
 * the default is `~/.zkwire_history`, as Node's REPL keeps `~/.node_repl_history`.
 */

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

/** Lines kept, in the file and in memory. */
export const HISTORY_SIZE = 1000;

/** The history file for this environment, or undefined when history is off. */
export function historyFile(env: NodeJS.ProcessEnv = process.env, home: () => string = homedir): string | undefined {
  const chosen = env['ZKWIRE_HISTORY'];
  if (chosen !== undefined) return chosen === '' ? undefined : chosen;
  return join(home(), '.zkwire_history');
}

/** The history newest first, as readline takes it; empty when there is no file yet or it cannot be read. */
export function loadHistory(file: string | undefined): string[] {
  if (file === undefined) return [];
  try {
    const lines = readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '');
    return lines.slice(-HISTORY_SIZE).reverse();
  } catch {
    return [];
  }
}

/** Writes readline's history (newest first) to `file`, oldest first; the reason it could not, if it could not. */
export function saveHistory(file: string | undefined, newestFirst: readonly string[]): string | undefined {
  if (file === undefined) return undefined;
  try {
    mkdirSync(dirname(file), { recursive: true });
    const lines = newestFirst.slice(0, HISTORY_SIZE).reverse();
    writeFileSync(file, lines.length === 0 ? '' : `${lines.join('\n')}\n`, { mode: 0o600 });
    return undefined;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}
