/**
 * Runs a script under another JavaScript runtime (the `deno` and `bun` dev dependencies, or this Node) and
 * returns the JSON line it prints. Binaries come from node_modules/.bin directly: `npx` would add a
 * second process and npm's warnings on stderr.
 */

import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export type Runtime = 'node' | 'deno' | 'bun';

export function runtimeBinary(runtime: Runtime): string {
  return runtime === 'node' ? process.execPath : path.join(REPO_ROOT, 'node_modules', '.bin', runtime);
}

export interface RunOptions {
  /** Working directory, default the repository root. */
  readonly cwd?: string;
  /** The process must have exited by then; default 60 s. */
  readonly timeoutMs?: number;
}

export interface RuntimeRun {
  /** The parsed last line of stdout. */
  output: unknown;
  stdout: string;
  stderr: string;
}

/**
 * Spawns `binary ...args`; rejects, with both output streams in the message, when the process fails,
 * prints no JSON, or prints it but does not exit by itself (a leaked timer or socket keeps it alive).
 */
export function runScript(runtime: Runtime, args: readonly string[], options: RunOptions = {}): Promise<RuntimeRun> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  return new Promise((resolve, reject) => {
    execFile(
      runtimeBinary(runtime),
      [...args],
      {
        cwd: options.cwd ?? REPO_ROOT,
        timeout: timeoutMs,
        killSignal: 'SIGKILL',
        maxBuffer: 16 * 1024 * 1024,
        env: { ...process.env, NO_COLOR: '1' },
      },
      (error, stdout, stderr) => {
        const command = `${runtime} ${args.join(' ')}`;
        const streams = `\nstdout:\n${stdout}\nstderr:\n${stderr}`;
        const last = stdout.trim().split('\n').pop() ?? '';
        let output: unknown;
        try {
          output = JSON.parse(last);
        } catch {
          reject(new Error(`${command} printed no JSON result (${String(error)})${streams}`));
          return;
        }
        if (error !== null && error.killed) {
          reject(new Error(`${command} printed its result but did not exit within ${timeoutMs} ms: something was left open${streams}`));
          return;
        }
        if (error !== null) {
          reject(new Error(`${command} failed: ${String(error)}${streams}`));
          return;
        }
        resolve({ output, stdout, stderr });
      },
    );
  });
}
