/**
 * The shell run directly (no terminal): lines written to its input as a pipe gives them, its output (stdout and
 * stderr in one stream, so their order is kept) collected until it leaves at the end of the input.
 */

import { PassThrough } from 'node:stream';
import { loadCommands } from '../../../src/cli/commands/index.js';
import { runShell } from '../../../src/cli/shell/shell.js';
import { ZooKeeperClient } from '../../../src/node.js';

const commands = await loadCommands();

export interface ShellRun {
  readonly code: number;
  /** Everything printed, prompts removed. */
  readonly output: string;
  /** The session the shell started with (closed by now). */
  readonly sessionId: bigint;
}

/** Runs `lines` in a shell on a new session to `connectString`; resolves once the shell has left. */
export async function runShellLines(connectString: string, lines: readonly string[]): Promise<ShellRun> {
  const client = await ZooKeeperClient.connect(connectString);
  const input = new PassThrough();
  const output = new PassThrough();
  let text = '';
  output.on('data', (d: Buffer) => (text += d.toString()));
  const done = runShell({
    connectString,
    client,
    globals: { json: false },
    input,
    stdout: output,
    stderr: output,
    historyFile: undefined,
    commands,
    // The CLI's own connect fails at once on a refused port; the library's waits its connect timeout, kept short.
    connect: (other, signal) => ZooKeeperClient.connect(other, { signal, connectTimeoutMs: 3000 }),
  });
  input.end(lines.map((l) => `${l}\n`).join(''));
  const code = await done;
  return { code, output: text.replace(/\[zk: [^\]]*\] /g, ''), sessionId: client.sessionId };
}
