/**
 * `zkwire export PATH`: a subtree as one JSON file (the format is src/tools/tree/export-format.ts, documented in
 * docs/cli.md), to standard output or --out FILE, gzipped on request. The file is written whole or not at all: to
 * FILE.partial first, renamed when complete, so an interrupted export leaves nothing that looks finished.
 */

import { rename, rm, writeFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { formatExport, isSystemPath, toExportNode, walkTree, type ExportNode } from '../../tools/tree/index.js';
import { commandInterrupt } from '../interrupt.js';
import type { CliIo, Command } from '../types.js';
import { type ArgSpec, parseCommandArgs, runWithClient, usageError } from './node-client.js';

const usage = `Usage: zkwire export PATH [--out FILE] [--stats] [--gzip] [--server HOSTS] [--auth SCHEME:CRED]

Writes the subtree at PATH as JSON (format "zkwire-export", version 1; see docs/cli.md): every node's path
relative to PATH, kind (persistent, container, ttl, ephemeral), data (as text when it is valid UTF-8, else base64,
with "encoding" saying which) and ACL, one node per line, children sorted. Two exports of the same tree are the
same bytes. Ephemeral nodes are listed but \`zkwire import\` does not create them. An export of / leaves out
ZooKeeper's own /zookeeper subtree.

  --out FILE   write to FILE (written whole or not at all) instead of standard output
  --stats      add each node's Stat (czxid, mtime, version, ...); import ignores it
  --gzip       gzip the output (import detects it)

Exit status: 0 exported, 1 error (e.g. NONODE, NOAUTH on a node that cannot be read), 2 usage error,
130 interrupted (nothing written).
`;

const spec: ArgSpec = { flags: ['--stats', '--gzip'], valued: ['--out'], positionals: ['PATH'], required: 1 };

export const exportCommand: Command = {
  name: 'export',
  summary: 'write a subtree (data, ACLs, kinds) as a JSON file that import reads back',
  usage,
  spec,
  async run(args: string[], io: CliIo): Promise<number> {
    const parsed = parseCommandArgs(args, spec);
    if (typeof parsed === 'string') return usageError('export', parsed, usage, io);
    const root = parsed.positionals[0]!;
    const out = parsed.values.get('--out');
    const gzip = parsed.flags.has('--gzip');
    if (out === undefined && gzip && io.write === undefined) return usageError('export', '--gzip output is binary: give --out FILE', usage, io);
    using interrupt = commandInterrupt('export', io);
    return await runWithClient(
      'export',
      io,
      async (client) => {
        const nodes: ExportNode[] = [];
        try {
          for await (const node of walkTree(client, root, { data: true, acl: true, signal: interrupt.signal })) {
            // An export of / leaves out the server's own /zookeeper (quotas, configuration): no import could write it.
            if (isSystemPath(node.path) && !isSystemPath(root)) continue;
            nodes.push(toExportNode(root, node, parsed.flags.has('--stats')));
          }
        } catch (e) {
          if (interrupt.exitCode === undefined) throw e;
          io.err(`zkwire export: interrupted after reading ${nodes.length} node(s); nothing written\n`);
          return interrupt.exitCode;
        }
        const text = formatExport(root, nodes);
        const bytes = gzip ? gzipSync(text) : new TextEncoder().encode(text);
        if (out === undefined) {
          if (gzip) io.write!(bytes);
          else io.out(text);
        } else {
          const partial = `${out}.partial`;
          try {
            await writeFile(partial, bytes);
            await rename(partial, out);
          } catch (e) {
            await rm(partial, { force: true });
            throw e;
          }
        }
        const ephemeral = nodes.filter((n) => n.kind === 'ephemeral').length;
        const note = ephemeral === 0 ? '' : ` (${ephemeral} ephemeral, listed but not imported)`;
        io.err(`zkwire export: ${nodes.length} node(s) of ${root}${note}${out === undefined ? '' : ` written to ${out}`}\n`);
        return 0;
      },
      { interrupt },
    );
  },
};
