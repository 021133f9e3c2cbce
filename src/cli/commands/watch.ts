/**
 * `zkwire watch PATH [--recursive]`: streams a persistent (or persistent-recursive) watch's events as JSON lines
 * until interrupted. SIGINT/SIGTERM/SIGHUP close the session cleanly (the server drops the watch with it) and exit
 * 128 + the signal;
 * the session ending under us (expired, auth failed) prints that final event and exits 1.
 */

import type { CliIo, Command } from '../types.js';
import type { PersistentWatch } from '../../node.js';
import { commandInterrupt } from '../interrupt.js';
import { type ArgSpec, parseCommandArgs, runWithClient, usageError } from './node-client.js';

const usage = `Usage: zkwire watch PATH [--recursive] [--server HOSTS] [--session-timeout MS]

Adds a persistent watch on PATH (which need not exist yet) and prints each event as one JSON line,
{"type", "state", "path"} and, from ZooKeeper 3.9, "zxid" (the change's, a decimal string), e.g.
{"type":"NodeDataChanged","state":"SyncConnected","path":"/app"}, until
interrupted (SIGINT, SIGTERM or SIGHUP: the session is closed, which drops the watch on the server, and the
exit status is 128 + the signal: 130, 143, 129).
  --recursive, -R   watch PATH and every node below it (persistent-recursive; no NodeChildrenChanged events)
Without --recursive the events are NodeCreated, NodeDeleted, NodeDataChanged and NodeChildrenChanged of PATH.
"watching PATH" goes to stderr once the watch is set, and so do connection state changes; a reconnect keeps
the watch (the client re-registers it and the server reports what changed meanwhile).
Output is JSON lines with or without --json.
With no --server, a throwaway local ZooKeeper is started and stopped.

Exit status: 128 + signal when interrupted, 1 error or the session ended (expired), 2 usage error.
`;

const spec: ArgSpec = { flags: ['--recursive', '-R'], positionals: ['PATH'], required: 1 };

export const watchCommand: Command = {
  name: 'watch',
  summary: 'stream the events of a persistent (or recursive) watch as JSON lines',
  usage,
  spec,
  async run(args: string[], io: CliIo): Promise<number> {
    const parsed = parseCommandArgs(args, spec);
    if (typeof parsed === 'string') return usageError('watch', parsed, usage, io);
    const path = parsed.positionals[0]!;
    const mode = parsed.flags.size > 0 ? 'persistent-recursive' : 'persistent';
    // Taken before connecting, so an early signal still closes cleanly instead of killing the process mid-handshake.
    using interrupt = commandInterrupt('watch', io);
    const inShell = io.session !== undefined;
    return await runWithClient(
      'watch',
      io,
      async (client) => {
        // The shell shows the session's state in its prompt; the CLI tells stderr.
        const offState = inShell
          ? () => {}
          : client.onStateChange((c) => io.err(`zkwire watch: ${c.from} -> ${c.to}${c.reason === undefined ? '' : ` (${c.reason.message})`}\n`));
        let watch: PersistentWatch | undefined;
        // From the CLI, closing the client ends the watch's iteration (a final Closed event); no removeWatches round
        // trip is needed, and none is attempted on a link that may be down. Our own close is no news on stderr.
        // In the shell the session goes on: the watch alone is removed, which ends its iteration at once; the
        // server's removal may fail on a link that is down, and then the server drops it with the session.
        const stop = (): void => {
          offState();
          if (!inShell) void client.close();
          else void watch?.close().catch(() => {});
        };
        interrupt.signal.addEventListener('abort', stop, { once: true });
        try {
          watch = await client.addWatch(path, { mode, signal: interrupt.signal });
          if (interrupt.signal.aborted) stop();
          io.err(`watching ${path} (${mode})\n`);
          let last: string | undefined;
          for await (const event of watch) {
            if (interrupt.signal.aborted && event.type === 'None') break;
            // 3.9 servers add the zxid of the change (a bigint): a decimal string, as the CLI's other 64-bit fields.
            io.out(`${JSON.stringify(event, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value))}\n`);
            if (event.type === 'None') last = event.state;
          }
          if (interrupt.exitCode !== undefined) return interrupt.exitCode;
          io.err(`zkwire watch: the session ended (${last ?? 'unknown'}); the watch is gone\n`);
          return 1;
        } finally {
          interrupt.signal.removeEventListener('abort', stop);
          offState();
        }
      },
      { interrupt },
    );
  },
};
