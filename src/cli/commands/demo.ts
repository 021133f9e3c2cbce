/**
 * `zkwire demo` (what `npm start` runs): a short look at what zkwire is for. Against --server, or a throwaway
 * local ZooKeeper it starts and stops itself, it measures the uncontended lock path (one session, 2 s) and
 * then four sessions contending on one mutex for 5 s, each with the floor measured in the same run, and prints
 * both reports.
 */

import { runLockBench } from '../../tools/bench/lock-bench.js';
import { renderLockReport } from '../../tools/bench/lock-render.js';
import { lockProgressPrinter } from '../../tools/bench/progress.js';
import { withServer } from '../../testing/local-server/index.js';
import { onInterrupt } from '../interrupt.js';
import type { CliIo, Command } from '../types.js';
import { printError } from './node-client.js';

const usage = `Usage: zkwire demo [--server S]

A short demonstration: the lock benchmark twice on one server -- 1 session for 2 s (the uncontended acquire,
next to one create round trip) and 4 sessions contending on one mutex for 5 s (throughput, hand-off latency,
the mutual-exclusion check). Without --server a throwaway local ZooKeeper is started and stopped.
The same runs by hand: zkwire bench lock --clients 1 --duration 2; zkwire bench lock --clients 4 --duration 5.
SIGINT, SIGTERM or SIGHUP stop it like bench lock: the report so far, everything removed, exit 128 + signal.
`;

export const demoCommand: Command = {
  name: 'demo',
  summary: 'a short demonstration: uncontended and 4-session lock benchmarks with their reports',
  usage,
  async run(args: string[], io: CliIo): Promise<number> {
    if (args.length > 0) {
      io.err(`zkwire demo: unexpected argument ${args[0]!}\n\n${usage}`);
      return 2;
    }
    using interrupt = onInterrupt('demo', io);
    const onCleanup = (what: string): void => io.err(`zkwire demo: waiting for ${what}\n`);
    try {
      return await withServer(io.globals, io, async ({ connectString }) => {
        let ok = true;
        for (const [clients, durationS, heading] of [
          [1, 2, 'Uncontended: one session acquiring and releasing an InterProcessMutex'],
          [4, 5, 'Contended: four sessions on one InterProcessMutex'],
        ] as const) {
          if (interrupt.signal.aborted) break;
          io.out(`\n== ${heading} ==\n`);
          const printer = lockProgressPrinter({ write: io.err, isTTY: process.stderr.isTTY === true });
          try {
            const report = await runLockBench({
              connectString,
              kind: 'mutex',
              clients,
              durationS,
              signal: interrupt.signal,
              onCleanup,
              onProgress: (p) => printer.update(p),
            });
            printer.finish();
            io.out(renderLockReport(report));
            ok &&= report.overlaps === 0 && report.fencingViolations === 0;
          } finally {
            printer.finish();
          }
        }
        if (interrupt.exitCode !== undefined) return interrupt.exitCode;
        io.out(`\nMore: zkwire bench lock --help (read-write, semaphore, --json, --svg) and zkwire bench raw.\n`);
        return ok ? 0 : 1;
      });
    } catch (e) {
      printError(io, 'demo', e);
      return interrupt.exitCode ?? 1;
    }
  },
};
