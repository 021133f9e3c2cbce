#!/usr/bin/env node
/** The `zkwire` executable: wires the dispatcher to the process's streams and exit code. */

import { runCli } from './cli.js';

// Ignore EPIPE (e.g. `zkwire decode file | head`): the reader is gone, there is nobody left to tell.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw e;
});

runCli(process.argv.slice(2), {
  out: (t) => void process.stdout.write(t),
  write: (bytes) => void process.stdout.write(bytes),
  err: (t) => void process.stderr.write(t),
  stdin: process.stdin,
}).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`zkwire: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exitCode = 1;
  },
);
