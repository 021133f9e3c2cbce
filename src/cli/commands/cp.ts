/**
 * `zkwire cp SRC DST` and `zkwire mv SRC DST`: a subtree copied (and, for mv, then deleted) on one server, as an
 * import of SRC's export under DST (src/tools/tree): multi batches, all-or-nothing each, and a rerun after an
 * interruption finishes the job. Ephemeral nodes (a session's) and sequential-looking names (whose numbering the
 * copy cannot carry on) are refused before anything is written. mv deletes SRC only once the copy is complete,
 * children first, each delete conditional on the version that was copied, so a change made to SRC meanwhile stops
 * the delete instead of being lost.
 */

import { Op, type ZooKeeperClient } from '../../node.js';
import { nodeName, parentPath, pathProblem } from '../../protocol/paths.js';
import { applyPlan, looksSequential, planImport, readCurrent, targets, toExportNode, walkTree, type TreeNode } from '../../tools/tree/index.js';
import { clientError } from '../../errors.js';
import { commandInterrupt, type Interrupt } from '../interrupt.js';
import type { CliIo, Command } from '../types.js';
import { type ArgSpec, parseCommandArgs, runWithClient, usageError } from './node-client.js';
import { batchProgress, printPlan, reportCounts } from './tree-report.js';

const options = `  --allow-sequential  copy nodes whose names end in 10 digits (as sequential nodes' do) under the same
                      names; the copy's parent starts its own numbering, so a later sequential create there
                      can collide with a copied name
  --dry-run           print what would be done; write nothing`;

const cpUsage = `Usage: zkwire cp SRC DST [--allow-sequential] [--dry-run] [--server HOSTS] [--json]

Copies the subtree at SRC to DST (data, ACLs; DST's parent must exist) in multi batches within the server's
frame limit. Refused, before anything is written: an ephemeral node in SRC (it belongs to a session), a
sequential-looking name (see --allow-sequential), DST inside SRC, and a DST that holds different nodes.
Interrupted or failed part way, run the same command again: nodes already copied count as done.
${options}

Exit status: 0 copied, 1 refused or error, 2 usage error, 130 interrupted.
`;

const mvUsage = `Usage: zkwire mv SRC DST [--allow-sequential] [--dry-run] [--server HOSTS] [--json]

Moves (renames) the subtree at SRC to DST: copies it as \`zkwire cp\` does, then, only once the copy is complete,
deletes SRC, children first, in multi batches. Each delete is conditional on the version that was copied: if
SRC changed meanwhile, the delete stops (BADVERSION or NOTEMPTY) and SRC is left for you to look at.
Interrupted or failed part way, run the same command again to finish.
${options}

Exit status: 0 moved, 1 refused or error, 2 usage error, 130 interrupted.
`;

const spec: ArgSpec = { flags: ['--allow-sequential', '--dry-run'], positionals: ['SRC', 'DST'], required: 2 };

/** How many deletes go in one multi (a delete is a few dozen bytes: far below the frame limit). */
const DELETE_BATCH = 500;

function listed(paths: readonly string[]): string {
  return paths.length <= 5 ? paths.join(', ') : `${paths.slice(0, 5).join(', ')} and ${paths.length - 5} more`;
}

async function copyOrMove(move: boolean, args: string[], io: CliIo): Promise<number> {
  const command = move ? 'mv' : 'cp';
  const usage = move ? mvUsage : cpUsage;
  const parsed = parseCommandArgs(args, spec);
  if (typeof parsed === 'string') return usageError(command, parsed, usage, io);
  const [src, dst] = parsed.positionals as [string, string];
  for (const p of [src, dst]) {
    const problem = pathProblem(p);
    if (problem !== undefined) return usageError(command, `${JSON.stringify(p)}: ${problem}`, usage, io);
  }
  if (src === '/' || dst === '/') return usageError(command, 'the root cannot be copied or moved, nor replaced', usage, io);
  if (dst === src || dst.startsWith(`${src}/`)) return usageError(command, `${dst} is inside ${src}`, usage, io);
  using interrupt = commandInterrupt(command, io);
  return await runWithClient(command, io, (client) => run(client, { command, move, src, dst, allowSequential: parsed.flags.has('--allow-sequential'), dryRun: parsed.flags.has('--dry-run') }, io, interrupt), { interrupt });
}

interface Job {
  readonly command: string;
  readonly move: boolean;
  readonly src: string;
  readonly dst: string;
  readonly allowSequential: boolean;
  readonly dryRun: boolean;
}

async function run(client: ZooKeeperClient, job: Job, io: CliIo, interrupt: Interrupt): Promise<number> {
  const { command, src, dst } = job;
  const signal = interrupt.signal;
  const walked: TreeNode[] = [];
  try {
    for await (const node of walkTree(client, src, { data: true, acl: true, signal })) walked.push(node);
  } catch (e) {
    if (interrupt.exitCode === undefined) throw e;
    io.err(`zkwire ${command}: interrupted while reading ${src}; nothing written\n`);
    return interrupt.exitCode;
  }
  const nodes = walked.map((n) => toExportNode(src, n, false));
  const ephemeral = walked.filter((_, i) => nodes[i]!.kind === 'ephemeral').map((n) => n.path);
  if (ephemeral.length > 0) {
    io.err(`zkwire ${command}: ${src} holds ephemeral node(s), which belong to a session and cannot be copied: ${listed(ephemeral)}; nothing written\n`);
    return 1;
  }
  const sequential = walked.filter((n) => n.path !== src && looksSequential(nodeName(n.path))).map((n) => n.path);
  if (sequential.length > 0 && !job.allowSequential) {
    io.err(
      `zkwire ${command}: ${listed(sequential)}: named as sequential nodes are (10 digits at the end); a copy keeps the names but not the parent's numbering, so later sequential creates under ${dst} could collide with them; nothing written (--allow-sequential copies them anyway)\n`,
    );
    return 1;
  }
  if ((await client.exists(parentPath(dst), { signal })) === null) throw clientError('NONODE', `the parent of ${dst} does not exist`, { op: command, path: parentPath(dst) });
  const current = await readCurrent(client, targets(nodes, dst).map((t) => t.path), signal);
  const plan = planImport(nodes, current, { to: dst, overwrite: false });
  const left = plan.filter((s) => s.action === 'left').map((s) => s.path);
  if (left.length > 0) {
    io.err(`zkwire ${command}: ${dst} already holds node(s) that differ from ${src}'s: ${listed(left)}; nothing written\n`);
    return 1;
  }
  if (job.dryRun) {
    printPlan(io, command, plan, { dryRun: true, written: plan });
    if (job.move) io.out(`${command}: would then delete ${walked.length} node(s) of ${src}\n`);
    return 0;
  }
  const result = await applyPlan(client, plan, { signal, onBatch: batchProgress(command, io) });
  printPlan(io, command, plan, { dryRun: false, written: result.written });
  if (result.interrupted) {
    io.err(`zkwire ${command}: interrupted after ${result.batches} of ${result.batchesTotal} batch(es): ${reportCounts(result.written)}${job.move ? `; ${src} not deleted` : ''}; run the same command again to finish\n`);
    return interrupt.exitCode ?? 130;
  }
  if (!job.move) return 0;
  return deleteSource(client, walked, job, io, interrupt);
}

/** mv's second half: SRC's nodes deleted children first, each at the version that was copied. */
async function deleteSource(client: ZooKeeperClient, walked: readonly TreeNode[], job: Job, io: CliIo, interrupt: Interrupt): Promise<number> {
  const order = [...walked].reverse(); // pre-order reversed: every child before its parent
  let deleted = 0;
  for (let i = 0; i < order.length; i += DELETE_BATCH) {
    if (interrupt.signal.aborted) {
      io.err(`zkwire ${job.command}: interrupted: the copy at ${job.dst} is complete; ${deleted} of ${order.length} node(s) of ${job.src} deleted; run the same command again to finish\n`);
      return interrupt.exitCode ?? 130;
    }
    const batch = order.slice(i, i + DELETE_BATCH);
    try {
      await client.multi(batch.map((n) => Op.delete(n.path, n.stat.version)));
    } catch (e) {
      io.err(`zkwire ${job.command}: the copy at ${job.dst} is complete, but ${job.src} changed while it was copied, so it was not (all) deleted (${deleted} of ${order.length} deleted); compare the two and delete ${job.src} yourself\n`);
      throw e;
    }
    deleted += batch.length;
  }
  if (io.globals.json) io.out(`${JSON.stringify({ moved: job.src, to: job.dst, deleted })}\n`);
  else io.out(`${job.command}: deleted ${deleted} node(s) of ${job.src}\n`);
  return 0;
}

export const cpCommand: Command = {
  name: 'cp',
  summary: 'copy a subtree to another path (multi batches, resumable)',
  usage: cpUsage,
  spec,
  run: (args, io) => copyOrMove(false, args, io),
};

export const mvCommand: Command = {
  name: 'mv',
  summary: 'move (rename) a subtree: copy, then delete the source once the copy is complete',
  usage: mvUsage,
  spec,
  run: (args, io) => copyOrMove(true, args, io),
};
