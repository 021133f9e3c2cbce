/** The CLI dispatcher: global flags, then a command from the registry. Testable without a process. */

import { parseArgs } from './args.js';
import { commands } from './commands/index.js';
import type { CliIo, Command } from './types.js';

function mainUsage(): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  const list = commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join('\n');
  return `Usage: zkwire [global options] <command> [command options]

Commands:
${list}

Global options (before or after the command):
  --server HOSTS          connect string, host:port[,host:port...][/chroot]
  --session-timeout MS    requested session timeout in milliseconds
  --json                  machine-readable output
  --help, -h              help for zkwire or for a command
`;
}

export async function runCli(argv: readonly string[], io: Omit<CliIo, 'globals'>): Promise<number> {
  const parsed = parseArgs(argv);
  const cmd: Command | undefined = commands.find((c) => c.name === parsed.command);
  if (parsed.command !== undefined && cmd === undefined) {
    io.err(`zkwire: unknown command ${parsed.command}\n\n${mainUsage()}`);
    return 2;
  }
  if (parsed.help) {
    io.out(cmd === undefined ? mainUsage() : cmd.usage);
    return 0;
  }
  if (parsed.error !== undefined) {
    io.err(`zkwire: ${parsed.error}\n`);
    return 2;
  }
  if (cmd === undefined) {
    io.err(mainUsage());
    return 2;
  }
  return cmd.run(parsed.rest, { ...io, globals: parsed.globals });
}
