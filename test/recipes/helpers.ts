/** Shared bits of the recipe tests: connected clients on the shared server, unique lock paths, small waits. */

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { ZooKeeperClient } from '../../src/node.js';
import { ZooKeeperError } from '../../src/errors.js';
import type { FaultProxy } from '../harness/fault-proxy.js';
import { useSharedServerProxy } from '../harness/shared-server-proxy.js';
import { sharedServer } from '../harness/zookeeper.js';

export const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

export function lockPath(what = 'lock'): string {
  return `/t-${randomUUID()}/${what}`;
}

/** A client on `connectString` (default: the shared server); callers close it (`await using`). */
export async function connectClient(
  connectString?: string,
  options: ConstructorParameters<typeof ZooKeeperClient>[1] = {},
): Promise<ZooKeeperClient> {
  const target = connectString ?? (await sharedServer()).connectString;
  return ZooKeeperClient.connect(target, { sessionTimeoutMs: 10_000, ...options });
}

/** Several clients, each with its own session. */
export async function connectClients(n: number, connectString?: string): Promise<ZooKeeperClient[]> {
  return Promise.all(Array.from({ length: n }, () => connectClient(connectString)));
}

export async function closeAll(clients: readonly ZooKeeperClient[]): Promise<void> {
  await Promise.all(clients.map((c) => c.close()));
}

/**
 * `n` clients on the shared server for the enclosing describe block: connected before its tests, closed after them.
 * Returns the accessor: `z(i)` is the i-th client.
 */
export function useClients(n: number): (i: number) => ZooKeeperClient {
  let clients: ZooKeeperClient[] = [];
  beforeAll(async () => {
    clients = await connectClients(n);
  });
  afterAll(async () => {
    await closeAll(clients);
  });
  return (i) => clients[i] as ZooKeeperClient;
}

/**
 * Resolves once `path` has no children (or does not exist), woken by a child watch rather than by polling: for
 * deletes that another client makes in the background after its call returned (Curator's LeaderLatch.close()).
 */
export async function untilNoChildren(client: ZooKeeperClient, path: string): Promise<void> {
  for (;;) {
    let children: string[];
    let watch: Promise<unknown>;
    try {
      ({ children, watch } = await client.getChildren(path, { watch: true }));
    } catch (err) {
      if (err instanceof ZooKeeperError && err.code === 'NONODE') return;
      throw err;
    }
    if (children.length === 0) return;
    await watch;
  }
}

/** The children of a path, [] when it does not exist. */
export async function childrenOf(client: ZooKeeperClient, path: string): Promise<string[]> {
  try {
    return await client.getChildren(path);
  } catch (err) {
    if (err instanceof ZooKeeperError && err.code === 'NONODE') return [];
    throw err;
  }
}

/** The code of the error a promise rejects with ('resolved' if it does not). */
export async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'resolved';
  } catch (e) {
    return e instanceof ZooKeeperError ? e.code : `not a ZooKeeperError: ${String(e)}`;
  }
}

export const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it returns true (or fails the test after `timeoutMs`). */
export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 10_000, what = 'condition'): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await delay(20);
  }
}

/**
 * True when the promise is still pending after the event loop has had a chance to run for `ms` (used only to
 * assert that a waiter has NOT acquired yet; never to measure speed).
 */
export async function stillPending(p: Promise<unknown>, ms = 200): Promise<boolean> {
  let done = false;
  void p.then(
    () => (done = true),
    () => (done = true),
  );
  await delay(ms);
  return !done;
}

/**
 * The paths the server holds data watches on for one session (4lw `wchc`), so tests can prove nothing is left
 * behind. `connectString` is a single host:port. ZooKeeper's `wchc` dumps its data watches only (getData, exists):
 * a children watch never shows here, so check one with the session's own `checkWatches(path, 'children')`.
 */
export async function serverWatchesOf(connectString: string, sessionIdHex: string): Promise<string[]> {
  const { fourLetterWord } = await import('../../src/testing/local-server/four-letter-client.js');
  const [host, port] = connectString.split(',')[0]?.split(':') ?? [];
  const text = await fourLetterWord(host ?? '127.0.0.1', Number(port), 'wchc');
  const paths: string[] = [];
  let current: string | undefined;
  for (const line of text.split('\n')) {
    if (/^0x[0-9a-f]+$/i.test(line.trim())) current = line.trim().toLowerCase();
    else if (line.startsWith('\t') || line.startsWith(' ')) {
      if (current === sessionIdHex.toLowerCase()) paths.push(line.trim());
    }
  }
  return paths;
}

/** The shared server behind a fault proxy, and a client connected to the server directly, for one describe block. */
export interface ProxiedServer {
  /** The proxy in front of the shared server; clients made through `proxy.connectString` suffer its faults. */
  proxy: FaultProxy;
  /** A client straight to the server, to look at what the proxied clients left behind. */
  direct: ZooKeeperClient;
  /** The shared server's own connect string. */
  connectString: string;
}

/**
 * Starts a fault proxy in front of the shared server and a direct client in the enclosing describe block's
 * beforeAll, and closes both in its afterAll; the fields are set once beforeAll has run.
 */
export function useProxiedServer(): ProxiedServer {
  const shared = useSharedServerProxy();
  const fx = {} as ProxiedServer;
  beforeAll(async () => {
    fx.connectString = shared.connectString;
    fx.proxy = shared.proxy;
    fx.direct = await connectClient(fx.connectString);
  });
  afterAll(async () => {
    await fx.direct?.close();
  });
  return fx;
}
