import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defaultCleanup, type CleanupRegistry } from './cleanup.js';

/** A fresh directory under os.tmpdir() for one server; removed at process exit if nobody removes it before. */
export function makeServerDir(kind: string, cleanup: CleanupRegistry = defaultCleanup): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `zkwire-zk-${kind}-`));
  cleanup.trackDir(dir);
  return dir;
}

export function removeServerDir(dir: string, cleanup: CleanupRegistry = defaultCleanup): void {
  fs.rmSync(dir, { recursive: true, force: true, maxRetries: 2 });
  cleanup.untrackDir(dir);
}
