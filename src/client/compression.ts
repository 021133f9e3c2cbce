/**
 * Compressed node data, as Curator's CompressionProvider with `enableCompression()`, `.compressed()` and
 * `.decompressed()`. The client core holds only a hook (ClientContext's `pack`, which create, setData, getData,
 * multi and multiRead go through when set); everything else is here, reached only from `compressWith`, so a client
 * that never compresses carries none of it, and the codec is the caller's value (`GzipCompression` from
 * `zkwire/recipes` writes Curator's gzip).
 *
 * Compressing is asynchronous (the platform's CompressionStream), so a compressed write is queued once its data is
 * ready; requests made meanwhile through the same session wait behind it, so call order stays wire order.
 */

import { clientError } from '../errors.js';
import { guard, type ClientContext } from './context.js';
import { toBytes } from './data.js';
import type { OpResult, ReadOp, WriteOp } from './multi.js';
import type { CallOptions, Compression, CompressionOptions, CompressionProvider, CreateOptions, Data, GetDataOptions, SetDataOptions } from './types.js';

/** One session's queue: the compressed write later requests wait for, and whether it is queueing itself now. */
interface Queue {
  held?: Promise<unknown> | undefined;
  passing?: boolean;
}

const noop = (): void => undefined;

/**
 * The client option `compression`: `provider` (Curator's CompressionProvider; `GzipCompression` from
 * `zkwire/recipes` for Curator's gzip) used by the calls that ask, or by all with `enabled: true`.
 */
export function compressWith(provider: CompressionProvider, options: CompressionOptions = {}): Compression {
  if (typeof provider?.compress !== 'function' || typeof provider.decompress !== 'function') {
    throw clientError('BAD_ARGUMENT', 'compressWith takes a provider { compress(path, data), decompress(path, data) }', { op: 'compressWith' });
  }
  const enabled = options.enabled === true;
  // per session, so a namespace view shares its client's queue
  const queues = new WeakMap<object, Queue>();
  const compression: Compression = (context) => {
    const ctx = context as ClientContext;
    ctx.compression = compression;
    let queue = queues.get(ctx.sessions);
    if (queue === undefined) queues.set(ctx.sessions, (queue = {}));
    const q = queue;
    const send = ctx.send.bind(ctx);
    // later requests queue behind a compressed write that is still compressing, in call order
    ctx.send = ((...args: Parameters<typeof send>) => (q.held !== undefined && q.passing !== true ? q.held.then(() => send(...args)) : send(...args))) as ClientContext['send'];
    const codec = (flag: boolean | undefined): CompressionProvider | undefined => ((flag ?? enabled) ? provider : undefined);
    ctx.pack = (op, run, args) => {
      const call = run as (ctx: ClientContext, ...args: unknown[]) => Promise<unknown>;
      if (op === 'multi') return packedOps(q, codec, args[0] as readonly WriteOp[], (ops) => call(ctx, ops, args[1]), args[1] as CallOptions);
      if (op === 'multiRead') return unpackedResults(codec, args[0] as readonly ReadOp[], () => call(ctx, ...args) as Promise<OpResult[]>);
      const path = args[0] as string;
      if (op === 'getData') {
        const p = codec((args[1] as GetDataOptions).decompressed);
        const reading = call(ctx, ...args) as Promise<{ data: Uint8Array }>;
        return p === undefined ? reading : reading.then(async (r) => ({ ...r, data: await unpack(p, path, r.data) }));
      }
      // create, setData: (path, data, options)
      const p = codec((args[2] as CreateOptions | SetDataOptions).compressed);
      const send = (data: unknown): Promise<unknown> => call(ctx, path, data, args[2]);
      const options = args[2] as CreateOptions | SetDataOptions;
      return p === undefined ? send(args[1]) : guard(() => gated(q, p.compress(path, toBytes((args[1] as Data | null) ?? '', op, path)), send, options, op, path));
    };
  };
  return compression;
}

/** Runs the multi `send` with the data of its creates and setDatas compressed where asked. */
function packedOps<T>(
  q: Queue,
  codec: (flag: boolean | undefined) => CompressionProvider | undefined,
  ops: readonly WriteOp[],
  send: (ops: readonly WriteOp[]) => Promise<T>,
  options: CallOptions,
): Promise<T> {
  return guard(() => {
    let any = false;
    const ready = (Array.isArray(ops) ? ops : []).map((o: WriteOp, i) => {
      if (o?.kind !== 'create' && o?.kind !== 'setData') return o;
      const p = codec(o.compressed);
      if (p === undefined) return o;
      any = true;
      return p.compress(o.path, toBytes(o.data ?? '', `multi[${i}].${o.kind}`, o.path)).then((data) => ({ ...o, data }));
    });
    return any ? gated(q, Promise.all(ready), send, options, 'multi', undefined) : send(ops);
  });
}

/**
 * Queues `send` once `ready` gives its data and every compressed write before it is queued; requests made
 * meanwhile wait for it (the context's send, wrapped by compressWith's function), so they reach the server in call order.
 */
function gated<D, T>(q: Queue, ready: Promise<D>, send: (data: D) => Promise<T>, options: CallOptions, op: string, path: string | undefined): Promise<T> {
  const before = q.held;
  const result = Promise.all([ready, before]).then(([data]) => {
    q.passing = true;
    try {
      return { sent: send(data) };
    } finally {
      q.passing = false;
    }
  });
  // released once this write is queued or failed, and never before the one it waited for
  const held = Promise.all([result.catch(noop), before]);
  q.held = held;
  void held.then(() => {
    if (q.held === held) q.held = undefined;
  });
  const sent = result.then((r) => r.sent);
  // an abort settles the call at once, not once the data is ready (the send then finds the signal aborted and
  // sends nothing)
  const signal = options?.signal;
  if (signal === undefined) return sent;
  return new Promise<T>((resolve, reject) => {
    const aborted = (): void => reject(clientError('ABORTED', 'aborted while compressing', { op, path, cause: signal.reason }));
    if (signal.aborted) aborted();
    signal.addEventListener('abort', aborted, { once: true });
    void sent.then(resolve, reject).finally(() => signal.removeEventListener('abort', aborted));
  });
}

/**
 * The data in what was read: a node with no data has nothing to decompress (parents made by mkdirp or Curator's
 * creatingParentsIfNeeded, containers, lock nodes), so it reads as empty; a compressed write never leaves it empty.
 */
function unpack(p: CompressionProvider, path: string, data: Uint8Array): Promise<Uint8Array> {
  return data.length === 0 ? Promise.resolve(data) : p.decompress(path, data);
}

/** The multiRead `read` with the data of its getData results decompressed where asked. */
function unpackedResults(codec: (flag: boolean | undefined) => CompressionProvider | undefined, ops: readonly ReadOp[], read: () => Promise<OpResult[]>): Promise<OpResult[]> {
  const codecs = (Array.isArray(ops) ? ops : []).map((o: ReadOp) => (o?.kind === 'getData' ? codec(o.decompressed) : undefined));
  const reading = read();
  if (!codecs.some(Boolean)) return reading;
  return reading.then((results) =>
    Promise.all(
      results.map(async (r, i) => {
        const p = codecs[i];
        return p !== undefined && r.type === 'getData' ? { ...r, data: await unpack(p, ops[i]?.path ?? '', r.data) } : r;
      }),
    ),
  );
}
