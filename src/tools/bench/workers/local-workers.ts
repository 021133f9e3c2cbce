/** The worker processes `bench lock --processes N` starts on this machine: `zkwire bench worker` each. */

import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** How long a worker asked to stop (SIGTERM) has to clean up before it is killed. */
export const STOP_GRACE_MS = 8000;

export interface LocalWorker {
  readonly pid: number;
  /** Settles when the process has exited. */
  readonly exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  readonly exited: boolean;
  /** How it ended and the last line it wrote on stderr, for a report. */
  describeEnd(): string;
  /** SIGTERM (the worker removes its nodes and exits 143), SIGKILL if it lingers; resolves once it has exited. */
  stop(): Promise<void>;
}

/** `node <this package's CLI>`: the CLI that runs this code, built (dist/cli/main.js). */
export function defaultWorkerCommand(): string[] {
  return [process.execPath, fileURLToPath(new URL('../../../cli/main.js', import.meta.url))];
}

export function startLocalWorker(command: readonly string[], args: readonly string[]): LocalWorker {
  const [file, ...prefix] = command;
  if (file === undefined) throw new RangeError('a worker command needs at least the program');
  const child = spawn(file, [...prefix, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  let tail = '';
  child.stderr.on('data', (d: Buffer) => (tail = (tail + d.toString()).slice(-4000)));
  let ended: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('close', (code, signal) => resolve((ended = { code, signal })));
    child.on('error', (e) => {
      tail += `\n${e.message}`;
      resolve((ended = { code: null, signal: null }));
    });
  });
  return {
    pid: child.pid ?? -1,
    exit,
    get exited() {
      return ended !== undefined;
    },
    describeEnd() {
      const how = ended === undefined ? 'still running' : ended.signal !== null ? `killed by ${ended.signal}` : `exited ${ended.code}`;
      const last = tail.trim().split('\n').pop() ?? '';
      return last === '' ? how : `${how}: ${last}`;
    },
    async stop() {
      if (ended !== undefined) return;
      child.kill('SIGTERM');
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), STOP_GRACE_MS)));
      if ((await Promise.race([exit, late])) === 'late') child.kill('SIGKILL');
      clearTimeout(timer);
      await exit;
    },
  };
}
