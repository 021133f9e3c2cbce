/**
 * `zkwire import FILE`: writes an export (zkwire export's JSON, gzipped or not) into a server, under its own root
 * or --to PATH. The decisions are src/tools/tree's: read what is there, plan (create / update / unchanged / left /
 * skipped), write the plan in multi batches within the frame limit. Resumable: a node that already matches counts
 * as done, so the same command run again after an interruption or a failure finishes the job.
 */

import { readFile } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import { parentPath, pathProblem } from '../../protocol/paths.js';
import { applyPlan, parseExport, planImport, readCurrent, targets, type ExportFile } from '../../tools/tree/index.js';
import { commandInterrupt } from '../interrupt.js';
import type { CliIo, Command } from '../types.js';
import { type ArgSpec, parseCommandArgs, runWithClient, usageError } from './node-client.js';
import { batchProgress, printPlan, reportCounts } from './tree-report.js';

const usage = `Usage: zkwire import FILE [--to PATH] [--dry-run] [--overwrite] [--server HOSTS] [--auth SCHEME:CRED]

Writes the nodes of FILE (made by zkwire export; gzipped or not; - for standard input) under the root it was
exported from, or under PATH with --to. Missing nodes are created with their kind, data and ACL (ephemeral
nodes are not: they belong to a session); parents of PATH are created if missing. A node that exists and is
the same is left as it is; one that differs is left too, and listed, unless --overwrite (then its data and
ACL are set; its kind cannot change). Nothing is deleted. Writes go in multi batches within the server's
frame limit (jute.maxbuffer), each batch all or nothing.

  --to PATH      import under PATH instead of the file's root
  --dry-run      print what would be done; write nothing
  --overwrite    replace the data and ACL of nodes that differ

One line per node created, changed, left or skipped, then a summary (with --json one object:
{"created", "changed", "left", "skipped": [paths...], "unchanged": N, "dryRun"}).
Interrupted (Ctrl-C) or failed part way: the batches written stay written, and running the same command again
finishes the job.

Exit status: 0 done (nodes left as they were included), 1 error, 2 usage error (e.g. not an export file),
130 interrupted.
`;

const spec: ArgSpec = { flags: ['--dry-run', '--overwrite'], valued: ['--to'], positionals: ['FILE'], required: 1 };

async function readExport(file: string, io: CliIo): Promise<ExportFile | string> {
  let bytes: Uint8Array;
  try {
    if (file === '-') {
      const chunks: Uint8Array[] = [];
      for await (const c of io.stdin) chunks.push(typeof c === 'string' ? new TextEncoder().encode(c) : c);
      bytes = Buffer.concat(chunks);
    } else bytes = await readFile(file);
  } catch (e) {
    return `cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`;
  }
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      bytes = gunzipSync(bytes);
    } catch (e) {
      return `${file}: gzip data that does not inflate (${e instanceof Error ? e.message : String(e)})`;
    }
  }
  const parsed = parseExport(new TextDecoder().decode(bytes));
  return typeof parsed === 'string' ? `${file}: ${parsed}` : parsed;
}

export const importCommand: Command = {
  name: 'import',
  summary: 'write an export file into a server (multi batches, resumable, --dry-run)',
  usage,
  spec,
  async run(args: string[], io: CliIo): Promise<number> {
    const parsed = parseCommandArgs(args, spec);
    if (typeof parsed === 'string') return usageError('import', parsed, usage, io);
    const file = await readExport(parsed.positionals[0]!, io);
    if (typeof file === 'string') return usageError('import', file, usage, io);
    const to = parsed.values.get('--to') ?? file.root;
    const problem = pathProblem(to);
    if (problem !== undefined) return usageError('import', `--to ${JSON.stringify(to)}: ${problem}`, usage, io);
    const dryRun = parsed.flags.has('--dry-run');
    using interrupt = commandInterrupt('import', io);
    return await runWithClient(
      'import',
      io,
      async (client) => {
        const signal = interrupt.signal;
        const current = await readCurrent(client, targets(file.nodes, to).map((t) => t.path), signal);
        const plan = planImport(file.nodes, current, { to, overwrite: parsed.flags.has('--overwrite') });
        if (dryRun) {
          printPlan(io, 'import', plan, { dryRun: true, written: plan });
          return 0;
        }
        if (to !== '/' && !current.has(to) && parentPath(to) !== '/') await client.mkdirp(parentPath(to), { signal });
        let result;
        try {
          result = await applyPlan(client, plan, { signal, onBatch: batchProgress('import', io) });
        } catch (e) {
          io.err(`zkwire import: stopped by an error; run the same command again to finish what is left\n`);
          throw e;
        }
        printPlan(io, 'import', plan, { dryRun: false, written: result.written });
        if (!result.interrupted) return 0;
        io.err(`zkwire import: interrupted after ${result.batches} of ${result.batchesTotal} batch(es): ${reportCounts(result.written)}; run the same command again to finish\n`);
        return interrupt.exitCode ?? 130;
      },
      { interrupt },
    );
  },
};

