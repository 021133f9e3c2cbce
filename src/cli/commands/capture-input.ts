/**
 * What `zkwire decode` and `zkwire analyze` share about their input: opening a capture file (or standard input),
 * saying on which ports ZooKeeper was found when no --port was given, and refusing a capture that holds no
 * ZooKeeper frame at all (exit 1 with a reason, never an empty success).
 */

import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { DEFAULT_ZOOKEEPER_PORT, type CaptureEvent } from '../../tools/capture/index.js';
import { safeText } from '../../tools/shared/safe-text.js';
import type { CliIo } from '../types.js';

/** How a capture is named in messages: the file as given (escaped), or "standard input" for "-". */
export function captureName(file: string): string {
  return file === '-' ? 'standard input' : safeText(file);
}

async function* bytesOf(source: AsyncIterable<string | Uint8Array>): AsyncGenerator<Uint8Array> {
  const encoder = new TextEncoder();
  for await (const chunk of source) yield typeof chunk === 'string' ? encoder.encode(chunk) : chunk;
}

/** Opens FILE (or standard input for "-"); a message instead when it cannot be read. */
export async function openCapture(file: string, io: CliIo): Promise<AsyncIterable<Uint8Array> | string> {
  if (file === '-') return bytesOf(io.stdin);
  const name = safeText(file);
  try {
    const s = await stat(file);
    if (s.isDirectory()) return `${name} is a directory`;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return `${name}: no such file`;
    return `cannot read ${name}: ${e instanceof Error ? e.message : String(e)}`;
  }
  const stream = createReadStream(file, { highWaterMark: 1024 * 1024 });
  const opened = await new Promise<Error | undefined>((resolve) => {
    stream.once('open', () => resolve(undefined));
    stream.once('error', (e) => resolve(e));
  });
  if (opened !== undefined) return `cannot read ${name}: ${opened.message}`;
  return stream as AsyncIterable<Uint8Array>;
}

function serverPort(server: string): number {
  return Number(server.slice(server.lastIndexOf(':') + 1));
}

/**
 * Watches a capture's events: counts its frames, and when the ports were found rather than given, names them on
 * stderr — one line at the end, or (live, with --follow) one line as each is found; 2181 alone, the default, goes
 * without saying.
 */
export class CaptureWatch {
  readonly #io: CliIo;
  readonly #prefix: string;
  readonly #found: boolean;
  readonly #live: boolean;
  readonly #ports = new Set<number>();
  frames = 0;

  constructor(io: CliIo, command: string, name: string, opts: { portsGiven: boolean; live: boolean }) {
    this.#io = io;
    this.#prefix = `zkwire ${command}: ${name}: `;
    this.#found = !opts.portsGiven;
    this.#live = opts.live;
  }

  see(e: CaptureEvent): void {
    if (e.type !== 'frame') return;
    this.frames++;
    // JSON-lines captures say each frame's direction themselves: no port was involved.
    if (!this.#found || e.line !== undefined) return;
    const port = serverPort(e.conn.server);
    if (this.#ports.has(port)) return;
    this.#ports.add(port);
    // 2181 goes without saying, live; the closing line names it beside the ports found.
    if (this.#live && port !== DEFAULT_ZOOKEEPER_PORT) this.#io.err(`${this.#prefix}ZooKeeper found on port ${port} (by the shape of its frames; --port P to choose)\n`);
  }

  /** The end of the capture: the ports line, or false (exit 1) with a message when there was no frame at all. */
  finish(): boolean {
    if (this.frames === 0) {
      this.#io.err(`${this.#prefix}no ZooKeeper frame in the capture\n`);
      return false;
    }
    const onlyDefault = this.#ports.size === 1 && this.#ports.has(DEFAULT_ZOOKEEPER_PORT);
    if (!this.#live && this.#ports.size > 0 && !onlyDefault) {
      const ports = [...this.#ports].sort((a, b) => a - b).join(', ');
      this.#io.err(`${this.#prefix}ZooKeeper found on port${this.#ports.size > 1 ? 's' : ''} ${ports} (by the shape of its frames; --port P to choose)\n`);
    }
    return true;
  }
}
