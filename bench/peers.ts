/**
 * bench/peers: zkwire's lock recipes and Apache Curator 5.4's, side by side, against the same ZooKeeper server in
 * the same run — `zkwire bench lock --vs curator` (src/tools/bench/vs-curator.ts) with the project's targets in an
 * extra column. Each workload runs in interleaved rounds (zkwire, Curator, Curator, zkwire, …) so drift on a shared
 * machine hits both; the table gives the median of the rounds for each figure and the ratio zkwire / Curator.
 *
 *   npm run bench:peers -- [--server HOST:PORT] [--rounds N] [--seconds S] [--json FILE]
 */

import fs from 'node:fs';
import { prepareCurator } from '../src/tools/bench/curator-round.js';
import { runLockVsCurator } from '../src/tools/bench/vs-curator.js';
import { renderVsReport } from '../src/tools/bench/vs-render.js';
import { VS_SEMAPHORE_LEASES, VS_SESSIONS } from '../src/tools/bench/vs-round.js';
import { withServer } from '../src/testing/local-server/index.js';

/** The project's goals for the figures that have one. */
const TARGETS: Record<string, string> = {
  [`contended acquisitions/s (${VS_SESSIONS} sessions)`]: '≥ 1.5×',
  [`hand-off p50 (${VS_SESSIONS} sessions)`]: '≤ 0.6×',
  [`semaphore acquisitions/s (${VS_SESSIONS} sessions, ${VS_SEMAPHORE_LEASES} leases)`]: '≥ 3×',
};

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const opt = (name: string): string | undefined => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const rounds = Number(opt('--rounds') ?? 3);
  const seconds = Number(opt('--seconds') ?? 5);
  const server = opt('--server');
  const program = prepareCurator();
  const io = { err: (t: string): void => void process.stderr.write(t) };
  await withServer(server === undefined ? {} : { server }, io, async ({ connectString }) => {
    const report = await runLockVsCurator({ connectString, program, rounds, seconds, onProgress: (l) => io.err(`  ${l}\n`) });
    process.stdout.write(`\n${renderVsReport(report, TARGETS)}`);
    const json = opt('--json');
    if (json !== undefined) fs.writeFileSync(json, `${JSON.stringify(report, null, 2)}\n`);
  });
}

main().catch((e: unknown) => {
  process.stderr.write(`bench peers: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exitCode = 1;
});
