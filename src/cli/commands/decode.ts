/** `zkwire decode FILE|-`: the conversation decoder over captured frames (see src/tools/decode.ts). */

import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { decodeCapture, type DecodeOptions } from '../../tools/decode.js';
import type { CliIo, Command } from '../types.js';
import { parseCommandArgs, usageError } from './node-client.js';

const usage = `Usage: zkwire decode [--check] [--pretty] FILE... | -

Decodes captured ZooKeeper frames: JSON lines in wire order, each with "dir" ("c2s" or "s2c") and "hex" (the
whole frame including its length prefix), optionally "conn" (default 1) and "seq" -- the format of the golden
captures. Prints one JSON line per frame (seq, conn, dir, kind, xid, opcode, op, decoded), or
{seq, conn, dir, error} for a frame that cannot be decoded; decoding continues with the next line.
Each FILE is decoded independently; "-" reads standard input.

Options:
  --check    re-encode every decoded frame and report frames whose bytes differ
  --pretty   one human-readable line per frame instead of JSON
  --help     this text

Exit status: 0 if every frame decoded (and re-encoded identically with --check), 1 otherwise, 2 on usage errors.
`;

async function* linesOf(source: AsyncIterable<string | Uint8Array> | NodeJS.ReadableStream): AsyncGenerator<string> {
  const input = source instanceof Readable ? source : Readable.from(source as AsyncIterable<string | Uint8Array>);
  yield* createInterface({ input, crlfDelay: Infinity });
}

export const decodeCommand: Command = {
  name: 'decode',
  summary: 'decode captured frames (JSON lines with dir and hex) into readable records',
  usage,
  async run(args: string[], io: CliIo): Promise<number> {
    const parsed = parseCommandArgs(args, { flags: ['--check', '--pretty'], positionals: ['FILE'], required: 0, variadic: true });
    if (typeof parsed === 'string') return usageError('decode', parsed, usage, io);
    const opts: DecodeOptions = {};
    if (parsed.flags.has('--check')) opts.check = true;
    if (parsed.flags.has('--pretty')) opts.pretty = true;
    const files = parsed.positionals;
    if (files.length === 0) return usageError('decode', 'give a FILE or - for standard input', usage, io);
    let frames = 0;
    let failed = 0;
    let unreadable = 0;
    for (const file of files) {
      let source: AsyncIterable<string | Uint8Array> | NodeJS.ReadableStream;
      if (file === '-') source = io.stdin;
      else {
        const stream = createReadStream(file);
        const opened = await new Promise<Error | undefined>((resolve) => {
          stream.once('open', () => resolve(undefined));
          stream.once('error', (e) => resolve(e));
        });
        if (opened !== undefined) {
          const code = (opened as NodeJS.ErrnoException).code;
          io.err(`zkwire decode: ${code === 'ENOENT' ? `${file}: no such file` : `cannot read ${file}: ${opened.message}`}\n`);
          unreadable++;
          continue;
        }
        source = stream;
      }
      for await (const r of decodeCapture(linesOf(source), opts)) {
        frames++;
        if (!r.ok) failed++;
        io.out(`${r.line}\n`);
      }
    }
    if (failed > 0) io.err(`zkwire decode: ${failed} of ${frames} frame(s) failed${opts.check === true ? ' to decode or re-encode identically' : ' to decode'}\n`);
    return failed === 0 && unreadable === 0 ? 0 : 1;
  },
};
