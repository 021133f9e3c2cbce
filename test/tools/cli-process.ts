/** The built CLI in a process of its own, as users run it (so a signal can stop it), and a check on other processes. */

import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const MAIN = join(process.cwd(), 'dist/cli/main.js');

export interface CliProcess {
  readonly child: ChildProcess;
  /** Settles when the process has exited and its output is closed. */
  readonly exit: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
  /** Resolves once stderr matches `re`; rejects if the process exits first. */
  until(re: RegExp): Promise<void>;
}

/** Runs `node dist/cli/main.js ...args`. */
export function runCliProcess(args: readonly string[]): CliProcess {
  const child = spawn(process.execPath, [MAIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const waiters: (() => void)[] = [];
  const poke = (): void => void waiters.splice(0).forEach((w) => w());
  child.stdout.on('data', (d: Buffer) => ((stdout += d.toString()), poke()));
  child.stderr.on('data', (d: Buffer) => ((stderr += d.toString()), poke()));
  let exited = false;
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code, signal) => {
      exited = true;
      resolve({ code, signal, stdout, stderr });
      poke();
    }),
  );
  return {
    child,
    exit,
    async until(re: RegExp): Promise<void> {
      while (!re.test(stderr)) {
        if (exited) throw new Error(`exited before ${String(re)}: ${stderr}`);
        await new Promise<void>((r) => waiters.push(r));
      }
    },
  };
}

/** Whether a process with this pid exists (signal 0 checks without sending anything). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs `node dist/cli/main.js ...args` to its end, stdin not a terminal, with `env` added to the environment (a
 * ZKWIRE_SASL_PASSWORD of the test runner's own is dropped, so only a test that sets it has one); `ms` is its wall time.
 */
export function runCli(args: readonly string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const { ZKWIRE_SASL_PASSWORD: _dropped, ...inherited } = process.env;
    const child = spawn(process.execPath, [MAIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...inherited, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr, ms: performance.now() - started }));
  });
}
