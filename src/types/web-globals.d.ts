/**
 * The web-standard globals the portable layers (protocol, session, client, recipes) may use.
 *
 * Every runtime zkwire targets (Node, Deno, Bun, Cloudflare workerd) has these. Declaring them here, and
 * compiling the portable layers with `types: []` (tsconfig.core.json), means a stray `Buffer`, `process`
 * or `node:*` import fails to compile instead of breaking an edge runtime at load time.
 * This file is only part of that check; the normal build uses the full Node types.
 */

interface AbortSignalEventMap {
  abort: unknown;
}

interface AbortSignal {
  readonly aborted: boolean;
  readonly reason: unknown;
  throwIfAborted(): void;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

declare var AbortSignal: {
  prototype: AbortSignal;
  abort(reason?: unknown): AbortSignal;
  timeout(ms: number): AbortSignal;
  any(signals: AbortSignal[]): AbortSignal;
};

interface AbortController {
  readonly signal: AbortSignal;
  abort(reason?: unknown): void;
}

declare var AbortController: {
  prototype: AbortController;
  new (): AbortController;
};

declare function setTimeout(callback: () => void, ms?: number): unknown;
declare function clearTimeout(handle: unknown): void;
declare function queueMicrotask(callback: () => void): void;

interface TextEncoder {
  encode(input?: string): Uint8Array;
  encodeInto(source: string, destination: Uint8Array): { read: number; written: number };
}
declare var TextEncoder: {
  prototype: TextEncoder;
  new (): TextEncoder;
};

interface TextDecoder {
  decode(input?: Uint8Array): string;
}
declare var TextDecoder: {
  prototype: TextDecoder;
  new (label?: string, options?: { fatal?: boolean; ignoreBOM?: boolean }): TextDecoder;
};

interface Crypto {
  getRandomValues<T extends Uint8Array>(array: T): T;
  randomUUID(): string;
}
declare var crypto: Crypto;

interface Console {
  log(...args: unknown[]): void;
  warn(...args: unknown[]): void;
  error(...args: unknown[]): void;
}
declare var console: Console;

/** The slice of the Streams API that gunzip (src/tools/txnlog/gunzip.ts) uses: DecompressionStream's two ends. */
interface DecompressionStreamWriter {
  write(chunk: Uint8Array): Promise<void>;
  close(): Promise<void>;
  abort(reason?: unknown): Promise<void>;
}
interface DecompressionStreamReader {
  read(): Promise<{ done: boolean; value?: Uint8Array | undefined }>;
  cancel(reason?: unknown): Promise<void>;
}
interface DecompressionStream {
  readonly writable: { getWriter(): DecompressionStreamWriter };
  readonly readable: { getReader(): DecompressionStreamReader };
}
declare var DecompressionStream: {
  prototype: DecompressionStream;
  new (format: 'gzip' | 'deflate' | 'deflate-raw'): DecompressionStream;
};
/** CompressionStream has the same two ends (GzipCompression, src/recipes/compression/gzip.ts, writes with it). */
interface CompressionStream {
  readonly writable: { getWriter(): DecompressionStreamWriter };
  readonly readable: { getReader(): DecompressionStreamReader };
}
declare var CompressionStream: {
  prototype: CompressionStream;
  new (format: 'gzip' | 'deflate' | 'deflate-raw'): CompressionStream;
};

/** Sub-millisecond time for call latencies (client/observe.ts); every target runtime has it. */
declare var performance: { now(): number };
