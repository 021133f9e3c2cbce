/** `zkwire srvr`: shorthand for `zkwire 4lw srvr` (server version, mode, latency, connections, node count). */

import type { CliIo, Command } from '../types.js';
import { parseTimeout, runFourLetter } from './fourlw.js';
import { usageError } from './node-client.js';

const usage = `Usage: zkwire srvr [--server HOSTS] [--timeout MS] [--json]

The same as \`zkwire 4lw srvr\`: each server's version, mode (standalone, leader, follower, ...), latency,
connection and node counts. With no --server, a throwaway local ZooKeeper is started and stopped.
With --json, one line per host: {"server", "command", "answer": {version, mode, nodeCount, ..., fields}}.
`;

export const srvrCommand: Command = {
  name: 'srvr',
  summary: 'server status (shorthand for 4lw srvr)',
  usage,
  async run(args: string[], io: CliIo): Promise<number> {
    const parsed = parseTimeout(args);
    if (typeof parsed === 'string') return usageError('srvr', parsed, usage, io);
    return runFourLetter('srvr', parsed.timeoutMs, io);
  },
};
