/** Runs the zkwire CLI in-process with captured output, for command tests. */

import { runCli } from '../../src/cli/cli.js';

export interface CliRun {
  code: number;
  out: string;
  err: string;
}

export async function zkwire(...argv: string[]): Promise<CliRun> {
  let out = '';
  let err = '';
  const code = await runCli(argv, {
    out: (t) => void (out += t),
    err: (t) => void (err += t),
    stdin: (async function* () {})(),
  });
  return { code, out, err };
}

/** What a command run in-process wrote: stdout as bytes (as `get --raw` writes it) and as text, stderr as text. */
export interface CliBytesRun {
  code: number;
  stdout: Buffer;
  out: string;
  err: string;
}

/**
 * Runs the CLI in-process wired as the executable's main.ts wires it (text and raw bytes to one stdout), with
 * `input` as standard input: what a spawned `zkwire` would print, without a process of its own.
 */
export async function zkwireWithInput(args: readonly string[], input?: Uint8Array | string): Promise<CliBytesRun> {
  const chunks: Buffer[] = [];
  let err = '';
  const code = await runCli(args, {
    out: (t) => void chunks.push(Buffer.from(t)),
    write: (bytes) => void chunks.push(Buffer.from(bytes)),
    err: (t) => void (err += t),
    stdin: (async function* () {
      if (input !== undefined) yield input;
    })(),
  });
  const stdout = Buffer.concat(chunks);
  return { code, stdout, out: stdout.toString(), err };
}

export function jsonLines(text: string): unknown[] {
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as unknown);
}
