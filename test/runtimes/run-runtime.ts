/**
 * Runs a script under another JavaScript runtime (the `deno` and `bun` dev dependencies) and returns the
 * one JSON line it prints. Binaries come from node_modules/.bin directly: `npx` would add a second
 * process and npm's warnings on stderr.
 */

import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export type Runtime = 'node' | 'deno' | 'bun';

export function runtimeBinary(runtime: Runtime): string {
  return runtime === 'node' ? process.execPath : path.join(REPO_ROOT, 'node_modules', '.bin', runtime);
}

export interface RuntimeRun {
  /** The parsed last JSON line of stdout. */
  output: unknown;
  stdout: string;
  stderr: string;
}

/** Spawns `binary ...args` in the repo root; rejects with both streams when it fails or prints no JSON. */
export function runScript(runtime: Runtime, args: readonly string[], timeoutMs = 60_000): Promise<RuntimeRun> {
  return new Promise((resolve, reject) => {
    execFile(
      runtimeBinary(runtime),
      [...args],
      { cwd: REPO_ROOT, timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1' } },
      (error, stdout, stderr) => {
        const last = stdout.trim().split('\n').pop() ?? '';
        let output: unknown;
        try {
          output = JSON.parse(last);
        } catch {
          reject(new Error(`${runtime} ${args.join(' ')} printed no JSON result (${String(error)})\nstdout:\n${stdout}\nstderr:\n${stderr}`));
          return;
        }
        if (error !== null) {
          reject(new Error(`${runtime} ${args.join(' ')} failed: ${String(error)}\nstdout:\n${stdout}\nstderr:\n${stderr}`));
          return;
        }
        resolve({ output, stdout, stderr });
      },
    );
  });
}
