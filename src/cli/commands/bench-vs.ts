/**
 * `zkwire bench lock --vs curator`: finds Java and Curator first (so a missing piece fails at once, before any
 * server is started), then runs the side-by-side benchmark on --server or a throwaway local server. Ctrl-C and the
 * other interrupt signals stop the rounds in flight (the Curator JVM is told to stop and killed if it does not),
 * remove the lock paths and print the table so far.
 */

import { CuratorPeerError } from '../../tools/bench/curator-error.js';
import { prepareCurator, type CuratorProgram } from '../../tools/bench/curator-round.js';
import { runLockVsCurator } from '../../tools/bench/vs-curator.js';
import { renderVsReport } from '../../tools/bench/vs-render.js';
import { withServer } from '../../testing/local-server/index.js';
import { onInterrupt } from '../interrupt.js';
import type { CliIo } from '../types.js';
import { writeOut } from './bench-output.js';
import { printError } from './node-client.js';

/** What --vs curator was given: --rounds, --duration, --curator-classpath. */
export interface VsArgs {
  rounds: number | undefined;
  seconds: number | undefined;
  curatorClasspath: string | undefined;
}

const COMMAND = 'bench lock --vs curator';

/** A CuratorPeerError as one line (text) or with its own code (--json); anything else as printError does. */
function printFailure(io: CliIo, e: unknown): void {
  if (!(e instanceof CuratorPeerError)) return printError(io, COMMAND, e);
  if (io.globals.json) io.err(`${JSON.stringify({ error: { code: e.code, message: e.message } })}\n`);
  else io.err(`zkwire ${COMMAND}: ${e.code}: ${e.message}\n`);
}

/** Runs the comparison; `json` is the --json target (`-` for stdout, no table). Returns the exit status. */
export async function runBenchVsCurator(args: VsArgs, json: string | undefined, io: CliIo): Promise<number> {
  let program: CuratorProgram;
  try {
    program = prepareCurator({ explicit: args.curatorClasspath });
  } catch (e) {
    printFailure(io, e);
    return 1;
  }
  using interrupt = onInterrupt('bench', io);
  try {
    return await withServer(io.globals, io, async ({ connectString }) => {
      const report = await runLockVsCurator({
        connectString,
        program,
        ...(args.rounds === undefined ? {} : { rounds: args.rounds }),
        ...(args.seconds === undefined ? {} : { seconds: args.seconds }),
        signal: interrupt.signal,
        onProgress: (line) => io.err(`  … ${line}\n`),
        onCleanup: (what) => io.err(`zkwire bench lock: waiting for ${what}\n`),
      });
      if (json !== '-') io.out(renderVsReport(report));
      if (json !== undefined) writeOut(io, json, `${JSON.stringify(report, null, 2)}\n`, 'figures');
      return interrupt.exitCode ?? 0;
    });
  } catch (e) {
    if (interrupt.exitCode !== undefined) return interrupt.exitCode;
    printFailure(io, e);
    return 1;
  }
}
