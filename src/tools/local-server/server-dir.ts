import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { trackDir, untrackDir } from './exit-cleanup.js';

/** A fresh directory under os.tmpdir() for one server; removed at process exit if nobody removes it before. */
export function makeServerDir(kind: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `zkwire-zk-${kind}-`));
  trackDir(dir);
  return dir;
}

export function removeServerDir(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true, maxRetries: 2 });
  untrackDir(dir);
}
