/**
 * tcpdump and tshark for the real-capture tests: a capture that is listening before the test makes traffic and is
 * flushed and stopped (SIGINT, then its exit) before the file is read. Missing tools fail loudly: setup.sh installs
 * them, and a test that silently skipped would prove nothing.
 */

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Writable } from 'node:stream';
import { readCaptureEvents, type CaptureEvent } from '../../../src/tools/capture/index.js';
import { trackChild } from '../../harness/exit-cleanup.js';

/** Throws a clear error unless `tool` is on PATH and we may capture (root). */
export function requireCaptureTools(...tools: string[]): void {
  for (const tool of tools) {
    const found = spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' });
    if (found.status !== 0) throw new Error(`${tool} is not installed; run \`sudo bash scripts/setup.sh\` (it installs Debian's tcpdump and tshark)`);
  }
  if (process.getuid?.() !== 0) throw new Error('capturing packets needs root (tcpdump on the loopback interface); run the tests as root');
}

export interface Tcpdump {
  readonly child: ChildProcess;
  /** tcpdump's stderr so far (for failure messages). */
  stderr(): string;
  /** SIGINT (tcpdump flushes and writes its counts), then waits for the exit. */
  stop(): Promise<void>;
}

/**
 * Starts tcpdump with `args` (its standard output goes to `opts.stdout`, e.g. another process's stdin: never read
 * it in this process, which would take bytes from the pipe) and resolves once it says "listening on". `-Z root`: Debian's tcpdump otherwise drops
 * to the `tcpdump` user before opening its output, which then cannot write into the test's private directory.
 * `--immediate-mode`: without it the kernel hands packets over in blocks, up to a second late, and a SIGINT in
 * between loses them ("0 packets captured, 24 received by filter").
 */
export async function startTcpdump(args: string[], opts: { stdout?: Writable } = {}): Promise<Tcpdump> {
  const child = spawn('tcpdump', ['-Z', 'root', '--immediate-mode', ...args], { stdio: ['ignore', opts.stdout ?? 'ignore', 'pipe'] });
  trackChild(child);
  let err = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      if (err.includes('listening on')) resolve();
    });
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`tcpdump ${args.join(' ')} exited (${code}) before listening: ${err}`)));
  });
  return {
    child,
    stderr: () => err,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
      await exited;
    },
  };
}

/**
 * Waits until the capture file holds what `done` looks for (e.g. the connection's close): tcpdump -U writes each
 * packet as it handles it, so reading the file tells when the packets the test made have all been written.
 */
export async function untilCaptured(file: string, ports: number[], done: (events: CaptureEvent[]) => boolean, signal?: AbortSignal): Promise<void> {
  for (;;) {
    signal?.throwIfAborted();
    const events: CaptureEvent[] = [];
    try {
      const bytes = readFileSync(file);
      for await (const e of readCaptureEvents((async function* () { yield bytes; })(), { ports })) events.push(e);
    } catch {
      // the file is being written: read it again
    }
    if (done(events)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Converts a pcap to pcapng with tshark. */
export function toPcapng(from: string, to: string): void {
  const r = spawnSync('tshark', ['-r', from, '-F', 'pcapng', '-w', to], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`tshark -F pcapng failed (${r.status}): ${r.stderr}`);
}
