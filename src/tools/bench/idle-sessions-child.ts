/**
 * Entry for measuring idle sessions in a fresh Node process: the parent's RSS already carries whatever its
 * earlier benchmarks allocated, which would be charged to the sessions. Argument: the options as JSON; prints
 * the result as one JSON line and progress lines prefixed with "progress ".
 */

import { measureIdleSessions } from './idle-sessions.js';

const opts = JSON.parse(process.argv[2] ?? '{}') as { connectString: string; sessions: number };
// The parent stops a run with SIGTERM (its own interrupt): close every session, then exit.
const stop = new AbortController();
for (const sig of ['SIGTERM', 'SIGINT'] as const) process.once(sig, () => stop.abort());
measureIdleSessions({ ...opts, signal: stop.signal, onProgress: (n) => process.stdout.write(`progress ${n}\n`) }).then(
  (result) => {
    process.stdout.write(`${JSON.stringify(result)}\n`);
  },
  (e: unknown) => {
    process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 1;
  },
);
