/** Shared bits of the client integration tests: a connected client on the shared server, unique paths. */

import { randomUUID } from 'node:crypto';
import { ZooKeeperClient } from '../../src/node.js';
import type { ClientOptions } from '../../src/client/types.js';
import { sharedServer } from '../harness/zookeeper.js';
import { ZooKeeperError } from '../../src/errors.js';

export const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
export const dec = (b: Uint8Array): string => new TextDecoder().decode(b);

export function uniquePath(prefix = 't'): string {
  return `/${prefix}-${randomUUID()}`;
}

/** A client on the shared server; closed by the returned `close` (tests use `await using`). */
export async function connectShared(options: ClientOptions = {}, suffix = ''): Promise<ZooKeeperClient> {
  const { connectString } = await sharedServer();
  return ZooKeeperClient.connect(connectString + suffix, { sessionTimeoutMs: 10_000, ...options });
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

/** Rejection of a promise as a ZooKeeperError (fails the test otherwise). */
export async function errorOf(p: Promise<unknown>): Promise<ZooKeeperError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ZooKeeperError) return e;
    throw new Error(`expected a ZooKeeperError, got ${String(e)}`);
  }
  throw new Error('expected a rejection, but the promise resolved');
}
