/**
 * `zkwire decode FILE|-`: any capture (pcap, pcapng or our JSON lines, told apart by their first bytes) through the one
 * pipeline: src/tools/capture yields the events, src/tools/decode prints them (and re-encodes them with --check).
 */

import { CaptureFormatError, DEFAULT_ZOOKEEPER_PORT, readCaptureEventBatches } from '../../tools/capture/index.js';
import { CaptureEventPrinter } from '../../tools/decode/printer.js';
import { FrameRecheck } from '../../tools/decode/recheck.js';
import type { CliIo, Command } from '../types.js';
import { parseCommandArgs, usageError } from './node-client.js';
import { CaptureWatch, captureName, openCapture } from './capture-input.js';

const usage = `Usage: zkwire decode [--port P]... [--pretty] [--follow] [--check] FILE... | -

Decodes a capture of ZooKeeper traffic, from a file or standard input ("-"):
  - a packet capture, pcap or pcapng (tcpdump -w, Wireshark, tshark): TCP is reassembled per connection and
    every ZooKeeper frame decoded. Live:  tcpdump -i any -U -w - port 2181 | zkwire decode --follow -
  - JSON lines in wire order, each with "dir" ("c2s" or "s2c") and "hex" (the whole frame including its length
    prefix), optionally "conn" (default 1) and "seq" -- the format of the golden captures and of trace --out.
The format is recognised by its first bytes.

Prints one JSON line per frame (seq, conn, dir, kind, xid, opcode, op, zxid, "err" by name and "errCode" its
number, decoded, ...), or {seq, conn, dir, error} for a frame that cannot be decoded; decoding continues with the
next one. Packet captures add "client" and "server" (ip:port, IPv6 in brackets), "time" (the capture timestamp,
ISO-8601 with microseconds), the request's "path" on replies, and "latencyMs"; bytes missing from the capture
come out as {"kind": "gap", "missingBytes", "reason"} lines, and a reply whose request is not in the capture as
"unmatched": true with its header. JSON-lines captures keep their own seq and conn. Each FILE is decoded
independently.

Options:
  --port P   a server port (repeatable): connections to it are decoded, others ignored. Without it, port
             ${DEFAULT_ZOOKEEPER_PORT} and every port whose connections look like ZooKeeper (a ConnectRequest first, or a
             request answered by its reply) are decoded, and the ports found are named on stderr
  --pretty   one human-readable line per frame (the lines zkwire trace prints) instead of JSON
  --follow   write every line as soon as its frame is complete (for a live pipe from tcpdump -U)
  --check    re-encode every decoded frame and report those whose bytes differ ("check_error")
  --help     this text

Exit status: 0 if every frame decoded (and re-encoded identically with --check), 1 otherwise or when a capture is
empty, corrupt, not a capture, holds no ZooKeeper frame, or cannot be read; 2 on usage errors.
`;

interface Options {
  ports: number[];
  follow: boolean;
  check: boolean;
  pretty: boolean;
}

interface Counts {
  frames: number;
  failed: number;
}

/** Decodes one capture; false when it held no ZooKeeper frame at all (said on stderr). */
async function decodeFile(input: AsyncIterable<Uint8Array>, name: string, opts: Options, io: CliIo, counts: Counts): Promise<boolean> {
  const printer = new CaptureEventPrinter({ pretty: opts.pretty });
  const recheck = opts.check ? new FrameRecheck() : undefined;
  const notes = (n: string): void => io.err(`zkwire decode: ${name}: ${n}\n`);
  const watch = new CaptureWatch(io, 'decode', name, { portsGiven: opts.ports.length > 0, live: opts.follow });
  let badLines = 0;
  for await (const batch of readCaptureEventBatches(input, { ports: opts.ports, onNote: notes })) {
    let text = '';
    for (const e of batch) {
      watch.see(e);
      if (e.type === 'bad-line') badLines++;
      const r = printer.format(e, e.type === 'frame' ? recheck?.check(e) : undefined);
      if (r === undefined) continue;
      if (e.type === 'frame' || e.type === 'bad-line') {
        counts.frames++;
        if (!r.ok) counts.failed++;
      }
      if (opts.follow) io.out(`${r.line}\n`);
      else text += `${r.line}\n`;
    }
    if (text !== '') io.out(text);
  }
  // A JSON-lines capture of bad lines only has already failed them one by one.
  return badLines > 0 || watch.finish();
}

function parseDecodeArgs(args: string[]): { opts: Options; files: string[] } | string {
  const parsed = parseCommandArgs(args, { flags: ['--check', '--pretty', '--follow'], valued: ['--port'], positionals: ['FILE'], required: 0, variadic: true });
  if (typeof parsed === 'string') return parsed;
  const opts: Options = { ports: [], follow: parsed.flags.has('--follow'), check: parsed.flags.has('--check'), pretty: parsed.flags.has('--pretty') };
  for (const v of parsed.repeated.get('--port') ?? []) {
    const port = Number(v);
    if (!Number.isInteger(port) || port < 1 || port > 65535) return `--port needs a port number (1-65535), got ${v}`;
    opts.ports.push(port);
  }
  if (parsed.positionals.length === 0) return 'give a FILE or - for standard input';
  return { opts, files: parsed.positionals };
}

export const decodeCommand: Command = {
  name: 'decode',
  summary: 'decode a capture (pcap, pcapng, or JSON lines with dir and hex) into readable records',
  usage,
  async run(args: string[], io: CliIo): Promise<number> {
    const parsed = parseDecodeArgs(args);
    if (typeof parsed === 'string') return usageError('decode', parsed, usage, io);
    const { opts, files } = parsed;
    const counts: Counts = { frames: 0, failed: 0 };
    let unreadable = 0;
    for (const file of files) {
      const name = captureName(file);
      const source = await openCapture(file, io);
      if (typeof source === 'string') {
        io.err(`zkwire decode: ${source}\n`);
        unreadable++;
        continue;
      }
      try {
        if (!(await decodeFile(source, name, opts, io, counts))) unreadable++;
      } catch (e) {
        // A corrupt capture, or a read error midway: say where, never a stack trace.
        const what = e instanceof CaptureFormatError ? e.message : `cannot read: ${e instanceof Error ? e.message : String(e)}`;
        io.err(`zkwire decode: ${name}: ${what}\n`);
        unreadable++;
      }
    }
    if (counts.failed > 0) {
      io.err(`zkwire decode: ${counts.failed} of ${counts.frames} frame(s) failed${opts.check ? ' to decode or re-encode identically' : ' to decode'}\n`);
    }
    return counts.failed === 0 && unreadable === 0 ? 0 : 1;
  },
};
