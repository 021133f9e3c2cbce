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

export function jsonLines(text: string): unknown[] {
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as unknown);
}
