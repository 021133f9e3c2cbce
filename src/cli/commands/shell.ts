/** `zkwire shell`: the interactive shell (src/cli/shell), like `zkCli.sh -server`, on one session. */

import { withServer } from '../../testing/local-server/with-server.js';
import { connectForCli } from '../connect.js';
import { historyFile } from '../shell/history.js';
import { runShell } from '../shell/shell.js';
import type { CliIo, Command } from '../types.js';
import { type ArgSpec, parseCommandArgs, printError, usageError } from './node-client.js';

const usage = `Usage: zkwire shell [--server HOSTS] [--session-timeout MS] [--auth SCHEME:CRED]

An interactive shell on one session: the node commands (ls, get, set, create, rm, stat, getacl, setacl, watch,
whoami, lock, config, reconfig), srvr, 4lw, txnlog, snapshot and analyze, typed as after "zkwire", each with its
own options and --json; zkCli.sh's own (addauth, sync, getEphemerals, getAllChildrenNumber, removewatches,
setquota, listquota, delquota, connect, close) and its spellings (delete, deleteall, create -e -s, ls -R, get -s,
set -v, ...); "status", the ensemble's members redrawn until a key is pressed. "help" lists them, "help CMD"
shows one, and a mistyped name gets "did you mean".
The prompt shows the server and the session's state, e.g. [zk: 127.0.0.1:2181(connected) 3].
  Tab            completes command names, options, and node paths (from the server; "/" after a node with
                 children)
  Up, Down       history, kept across runs in ~/.zkwire_history (ZKWIRE_HISTORY names another file; empty: none)
  watch PATH     runs in the background and prints events as they come; "watches" lists, "unwatch [N]" stops
  Ctrl-C         cancels the running command (or stops the background watches, or clears the line)
  Ctrl-D, quit   leave (also Ctrl-C at an empty prompt): commands are cancelled, a held lock released, the
                 session closed
Words split as in a POSIX shell: 'single' and "double" quotes, backslash escapes.
With no --server, a throwaway local ZooKeeper is started for the shell and stopped when it ends.

Exit status: 0 after leaving, 1 when no session could be opened, 2 usage error.
`;

const spec: ArgSpec = { positionals: [], required: 0 };

/** The shell command, given how to load the CLI's whole command list (a function: the list includes this command). */
export const shellCommand = (all: () => Promise<readonly Command[]>): Command => ({
  name: 'shell',
  summary: 'an interactive shell (like zkCli.sh): completion, history, background watches',
  usage,
  spec,
  async run(args: string[], io: CliIo): Promise<number> {
    const parsed = parseCommandArgs(args, spec);
    if (typeof parsed === 'string') return usageError('shell', parsed, usage, io);
    try {
      return await withServer(io.globals, io, async ({ connectString }) => {
        const client = await connectForCli('shell', connectString, io);
        return runShell({
          connectString,
          client,
          globals: { ...io.globals, json: false },
          input: process.stdin,
          stdout: process.stdout,
          stderr: process.stderr,
          historyFile: historyFile(),
          commands: await all(),
          connect: (other, signal) => connectForCli('shell', other, io, signal),
        });
      });
    } catch (e) {
      printError(io, 'shell', e);
      return 1;
    }
  },
});
