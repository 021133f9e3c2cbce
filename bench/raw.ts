/**
 * bench/raw: the client's sequential latency and pipelined throughput next to the floor (a bare socket with
 * pre-built frames), plus 1,000 idle sessions' memory. Without --server it starts a throwaway local ZooKeeper
 * (src/testing/local-server, with maxClientCnxns=0 as the idle-session part needs).
 *
 *   npm run bench:raw -- [--server HOST:PORT] [--samples N] [--rounds N] [--pipeline N] [--pipeline-rounds N] [--window N]
 *                        [--sessions N] [--json FILE]
 */

import { writeFileSync } from 'node:fs';
import { runRawBench } from '../src/tools/bench/raw-bench.js';
import { renderRawReport } from '../src/tools/bench/raw-render.js';
import { withServer } from '../src/testing/local-server/index.js';

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const opt = (name: string): string | undefined => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const num = (name: string): number | undefined => (opt(name) === undefined ? undefined : Number(opt(name)));
  const server = opt('--server');
  const io = { err: (t: string): void => void process.stderr.write(t) };
  await withServer(server === undefined ? {} : { server }, io, async ({ connectString }) => {
    const report = await runRawBench({
      connectString,
      ...(num('--samples') === undefined ? {} : { samples: num('--samples')! }),
      ...(num('--rounds') === undefined ? {} : { rounds: num('--rounds')! }),
      ...(num('--pipeline') === undefined ? {} : { pipelineTotal: num('--pipeline')! }),
      ...(num('--pipeline-rounds') === undefined ? {} : { pipelineRounds: num('--pipeline-rounds')! }),
      ...(num('--window') === undefined ? {} : { window: num('--window')! }),
      ...(num('--sessions') === undefined ? {} : { idleSessions: num('--sessions')! }),
      onProgress: (line) => process.stderr.write(`  … ${line}\n`),
    });
    process.stdout.write(renderRawReport(report));
    const json = opt('--json');
    if (json !== undefined) {
      writeFileSync(json, `${JSON.stringify(report, null, 2)}\n`);
      process.stdout.write(`figures written to ${json}\n`);
    }
  });
}

main().catch((e: unknown) => {
  process.stderr.write(`bench raw: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exitCode = 1;
});
