/** `zkwire get PATH`: a node's data, shown the way it is (src/cli/data-view.ts). */

import { base64, DATA_FORMATS, isDataFormat, viewData, type DataFormat } from '../data-view.js';
import type { CliIo, Command } from '../types.js';
import { type ArgSpec, dataToJson, parseCommandArgs, print, runWithClient, statToJson, usageError } from './node-client.js';

const usage = `Usage: zkwire get PATH [--format F | --hex | --raw] [--server HOSTS] [--session-timeout MS] [--json]

Prints the data of PATH, detecting what it is (--format auto, the default):
  JSON objects and arrays pretty-printed; gzip (e.g. Curator's GzipCompressionProvider) inflated, with a note
  "gzip, N bytes → M bytes" on stderr; text as text; anything else as a hex dump, with a note.
  --format F   force one view: json, text (gzip inflated first; an error if the data is not that), hex (a dump
               of the bytes as stored), base64 (the bytes as stored), auto
  --hex        the bytes as lower-case hex on one line (for scripts)
  --raw        the bytes exactly as stored, nothing added (no newline): zkwire get /n --raw > file
With --json: {"path", "data", "encoding": "utf8"|"hex"|"base64", "stat": {...}} (64-bit Stat fields as decimal
strings); "encoding" is utf8 for valid UTF-8, else hex, or what --format base64|hex asks for.
With no --server, a throwaway local ZooKeeper is started and stopped.

Exit status: 0 read, 1 error (e.g. NONODE, or data that is not what --format asks for), 2 usage error.
`;

const spec: ArgSpec = { flags: ['--hex', '--raw'], valued: ['--format'], positionals: ['PATH'], required: 1 };

export const getCommand: Command = {
  name: 'get',
  summary: 'print the data of a node (JSON, gzip, text or binary detected)',
  usage,
  spec,
  async run(args: string[], io: CliIo): Promise<number> {
    const parsed = parseCommandArgs(args, spec);
    if (typeof parsed === 'string') return usageError('get', parsed, usage, io);
    const path = parsed.positionals[0]!;
    const raw = parsed.flags.has('--raw');
    const hex = parsed.flags.has('--hex');
    const formatText = parsed.values.get('--format');
    if (formatText !== undefined && !isDataFormat(formatText)) return usageError('get', `--format must be one of ${DATA_FORMATS.join(', ')}`, usage, io);
    const format: DataFormat | undefined = formatText;
    if ([raw, hex, format !== undefined].filter(Boolean).length > 1) return usageError('get', 'give one of --format, --hex and --raw', usage, io);
    if (raw && io.globals.json) return usageError('get', '--raw cannot be combined with --json', usage, io);
    if (raw && io.write === undefined) return usageError('get', '--raw needs a byte stream to write to', usage, io);
    return runWithClient('get', io, async (client, signal) => {
      const { data, stat } = await client.getData(path, { signal });
      if (raw) {
        io.write!(data);
        return 0;
      }
      if (io.globals.json) {
        const shown = format === 'base64' ? { data: base64(data), encoding: 'base64' } : dataToJson(data, hex || format === 'hex');
        print(io, { path, ...shown, stat: statToJson(stat) }, () => shown.data);
        return 0;
      }
      if (hex) {
        io.out(`${dataToJson(data, true).data}\n`);
        return 0;
      }
      const view = viewData(data, format);
      if ('error' in view) {
        io.err(`zkwire get: ${path}: ${view.error}\n`);
        return 1;
      }
      for (const note of view.notes) io.err(`zkwire get: ${path}: ${note}\n`);
      io.out(`${view.text}\n`);
      return 0;
    });
  },
};
