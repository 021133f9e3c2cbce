/**
 * `zkwire lock PATH`: takes one of the recipe locks from the shell, holds it, releases it. Scripts use it to run a
 * step under a lock shared with services (zkwire or Curator) on the same path, and operators to see who queues.
 * The lease's lock-lost signal is watched while holding: if holding can no longer be trusted, that is reported at
 * once (exit 3) rather than at the end of the hold.
 */

import { ZooKeeperError } from '../../errors.js';
import type { ZooKeeperClient } from '../../node.js';
import {
  InterProcessMutex,
  InterProcessReadWriteLock,
  InterProcessSemaphoreMutex,
  InterProcessSemaphoreV2,
  type Lease,
  type NotAcquired,
} from '../../index.js';
import { systemClock } from '../../node.js';
import { withServer } from '../../testing/local-server/with-server.js';
import { commandInterrupt, STEP_LIMIT_MS, type Interrupt } from '../interrupt.js';
import { connectForCli } from '../connect.js';
import { type ArgSpec, describeError, integerOption, parseCommandArgs, printError, usageError } from './node-client.js';
import type { CliIo, Command } from '../types.js';

const KINDS = ['mutex', 'semaphore-mutex', 'read', 'write', 'semaphore'] as const;
type Kind = (typeof KINDS)[number];

const usage = `Usage: zkwire lock PATH [--kind KIND] [--leases N] [--timeout MS] [--hold MS] [--json] [--server HOSTS]

Acquires a lock on PATH with zkwire's Curator-compatible recipes, holds it for --hold ms, releases it.

  --kind KIND     mutex (default), semaphore-mutex, read, write (the two halves of a read/write lock),
                  or semaphore (InterProcessSemaphoreV2 with --leases leases)
  --leases N      lease count for --kind semaphore (default 1); every user of the path must agree on it
  --timeout MS    give up after MS ms of waiting (default: wait until acquired; any length is honoured)
  --hold MS       hold the lock this long before releasing it (default 0)
  --json          one JSON object per line instead of text

Prints {"acquired":true,"node","fencingToken","waitedMs"} (or {"acquired":false} after --timeout), then
{"released":true}. If the lock is lost while held (connection lost or session expired: another client may hold it
now) prints {"lost":true,"reason"} at once. The fencing token is a decimal string (it is a 64-bit zxid).
--session-timeout sets the session timeout. With no --server, a throwaway local ZooKeeper is started and stopped.

SIGINT, SIGTERM or SIGHUP stop waiting or holding: the lock is released ({"released":true} only once the server
confirmed the delete, else {"released":false,"error"}), the session closed, and the exit status is 128 + the
signal (130, 143, 129). Each step is waited for at most ${STEP_LIMIT_MS} ms, saying so on stderr; a second signal
exits at once.

Exit status: 0 acquired and released, 2 not acquired within --timeout (or a usage error), 3 lost while held,
1 any other failure (e.g. no server reachable), 128 + signal when interrupted.
`;

interface LockArgs {
  path: string;
  kind: Kind;
  leases: number;
  timeoutMs: number | undefined;
  holdMs: number;
  json: boolean;
}

const spec: ArgSpec = { valued: ['--kind', '--leases', '--timeout', '--hold'], flags: ['--json'], positionals: ['PATH'], required: 1 };

function parseLockArgs(args: string[], json: boolean): LockArgs | string {
  const parsed = parseCommandArgs(args, spec);
  if (typeof parsed === 'string') return parsed;
  const out: LockArgs = { path: parsed.positionals[0]!, kind: 'mutex', leases: 1, timeoutMs: undefined, holdMs: 0, json: json || parsed.flags.has('--json') };
  const kind = parsed.values.get('--kind');
  if (kind !== undefined) {
    if (!KINDS.includes(kind as Kind)) return `--kind must be one of ${KINDS.join(', ')}`;
    out.kind = kind as Kind;
  }
  for (const [name, min, set] of [
    ['--leases', 1, (n: number) => (out.leases = n)],
    ['--timeout', 0, (n: number) => (out.timeoutMs = n)],
    ['--hold', 0, (n: number) => (out.holdMs = n)],
  ] as const) {
    const value = parsed.values.get(name);
    if (value === undefined) continue;
    const n = integerOption(name, value, min);
    if (typeof n === 'string') return n;
    set(n);
  }
  if (out.leases !== 1 && out.kind !== 'semaphore') return '--leases only applies to --kind semaphore';
  return out;
}

type Acquired = Lease | NotAcquired;

function acquire(client: ZooKeeperClient, a: LockArgs, signal: AbortSignal): Promise<Acquired> {
  const opts = { signal, ...(a.timeoutMs === undefined ? {} : { timeoutMs: a.timeoutMs }) };
  switch (a.kind) {
    case 'mutex':
      return new InterProcessMutex(client, a.path).acquire(opts);
    case 'semaphore-mutex':
      return new InterProcessSemaphoreMutex(client, a.path).acquire(opts);
    case 'read':
      return new InterProcessReadWriteLock(client, a.path).readLock.acquire(opts);
    case 'write':
      return new InterProcessReadWriteLock(client, a.path).writeLock.acquire(opts);
    case 'semaphore':
      return new InterProcessSemaphoreV2(client, a.path, a.leases).acquireOne(opts);
  }
}

/** Resolves after `ms` (any length: the clock chains long delays), or when `signal` aborts; says which. */
function holdFor(ms: number, signal: AbortSignal): Promise<'held' | 'aborted'> {
  if (signal.aborted) return Promise.resolve('aborted');
  return new Promise((resolve) => {
    const timer = systemClock.setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve('held');
    }, ms);
    const onAbort = (): void => {
      systemClock.clearTimeout(timer);
      resolve('aborted');
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** The CLI's lock: connects, takes and holds the lock, closes the session. */
async function runLock(a: LockArgs, connectString: string, io: CliIo, interrupt: Interrupt): Promise<number> {
  const connected = await interrupt.step(`a session with ${connectString}`, connectForCli('lock', connectString, io, interrupt.signal));
  if (!connected.done) {
    if (interrupt.exitCode !== undefined) return interrupt.exitCode;
    printError(io, 'lock', 'error' in connected ? connected.error : 'timed out', `cannot connect to ${connectString}`);
    return 1;
  }
  const client = connected.value;
  try {
    return await holdLock(a, client, io, interrupt);
  } finally {
    await interrupt.step('the session to close', client.close());
  }
}

/**
 * Takes the lock on `client`, holds it, releases it (also when interrupted), and says each step; the exit status
 * as the usage text gives it. The client stays open: the CLI closes its own, the shell's goes on.
 */
async function holdLock(a: LockArgs, client: ZooKeeperClient, io: CliIo, interrupt: Interrupt): Promise<number> {
  const print = (obj: Record<string, unknown>, text: string): void => io.out(a.json ? `${JSON.stringify(obj)}\n` : `${text}\n`);
  const started = performance.now();
  let result: Acquired;
  try {
    result = await acquire(client, a, interrupt.signal);
  } catch (e) {
    if (interrupt.received !== undefined) {
      // The recipe deletes its waiting node on abort; closing the session below removes it if that did not reach the server.
      print({ acquired: false, interrupted: interrupt.received }, `interrupted by ${interrupt.received} while waiting for ${a.path}; nothing held`);
      return interrupt.exitCode!;
    }
    printError(io, 'lock', e);
    return 1;
  }
  const waitedMs = Math.round(performance.now() - started);
  if (!result.acquired) {
    print({ acquired: false, waitedMs }, `not acquired: ${a.path} still held by others after ${waitedMs} ms`);
    return 2;
  }
  const lease = result;
  print(
    { acquired: true, node: lease.node, fencingToken: lease.fencingToken.toString(), waitedMs },
    `acquired ${lease.node} fencingToken=${lease.fencingToken} after ${waitedMs} ms`,
  );
  const stop = AbortSignal.any([lease.signal, interrupt.signal]);
  const held = a.holdMs > 0 ? await holdFor(a.holdMs, stop) : lease.signal.aborted ? 'aborted' : 'held';
  if (held === 'aborted' && lease.signal.aborted && interrupt.received === undefined) {
    const reason = lease.signal.reason;
    const code = reason instanceof ZooKeeperError ? reason.code : 'UNKNOWN_ERROR';
    print({ lost: true, reason: code, message: describeError(reason) }, `lost ${lease.node}: ${describeError(reason)}`);
    // From the CLI, no release: it could only wait for a session that is gone or cut off; closing drops the
    // ephemeral node. The shell's session goes on, so the node may outlive this command: the release (which retries
    // through reconnects) goes on in the shell, which waits for it before closing the session on exit.
    io.session?.keep(`the delete of ${lease.node}`, lease.release());
    return 3;
  }
  const released = await interrupt.step(`the delete of ${lease.node} to reach the server`, lease.release());
  if (released.done) print({ released: true }, `released ${lease.node}`);
  else {
    // Never claim a release that did not happen: the node may still be there until the session ends.
    const error = 'error' in released ? released.error : new ZooKeeperError('TIMEOUT', `no answer within ${STEP_LIMIT_MS} ms`);
    const code = error instanceof ZooKeeperError ? error.code : 'UNKNOWN_ERROR';
    print(
      { released: false, error: { code, message: describeError(error) } },
      `NOT confirmed released: ${lease.node}: ${describeError(error)}; the node goes when the session ends (${io.session === undefined ? 'closing it now' : 'when the shell exits, or sooner once the delete gets through'})`,
    );
    io.session?.keep(`the delete of ${lease.node}`, lease.release());
    if (interrupt.exitCode === undefined) return 1;
  }
  return interrupt.exitCode ?? 0;
}

export const lockCommand: Command = {
  name: 'lock',
  summary: 'acquire, hold and release a lock (mutex, read/write, semaphore) from the shell',
  usage,
  spec,
  async run(args: string[], io: CliIo): Promise<number> {
    const parsed = parseLockArgs(args, io.globals.json);
    if (typeof parsed === 'string') return usageError('lock', parsed, usage, io);
    using interrupt = commandInterrupt('lock', io);
    try {
      if (io.session !== undefined) return await holdLock(parsed, io.session.client, io, interrupt);
      return await withServer(io.globals, io, ({ connectString }) => runLock(parsed, connectString, io, interrupt));
    } catch (e) {
      if (interrupt.exitCode !== undefined) return interrupt.exitCode;
      printError(io, 'lock', e);
      return 1;
    }
  },
};
