/**
 * Creates that hold on a ZooKeeper 3.4 server, as Curator 4's compatibility mode does: a create with its stat is a
 * create2 where the server has it, else a plain create and then a read of the new node's stat; parents are made as
 * containers where the server has them, else as persistent nodes (which nobody removes when empty, as on 3.4 with
 * Curator). The client learns which from the server (`client.serverFeatures`); the parents are the client's
 * `parents: 'containers'`.
 */

import type { ZooKeeperClient } from '../../client.js';
import type { CreateMode } from '../../client/create-mode.js';
import type { Stat } from '../../client/types.js';
import { isCode } from '../../errors.js';
import { nodeVanished } from './errors.js';

/** What createWithStat takes besides the path and data. */
export interface CreateWithStatOptions {
  readonly mode: CreateMode;
  readonly ttl?: number | undefined;
  readonly signal?: AbortSignal | undefined;
  /** The client's protected create (a uuid: the protection id), so a lost reply is found again. */
  readonly protected?: string | undefined;
  /**
   * Always true: the caller's object goes to `client.create` as it is, since V8's copy of an options object cost more
   * than the rest of the create's own work (a lock acquire makes one).
   */
  readonly stat: true;
}

/**
 * Creates a node and resolves with its path and stat. The first request is queued synchronously (call order is wire
 * order). On a server without create2 (3.4) the stat is read after the create, a second round trip; a node deleted
 * in between rejects NONODE, like a create whose parent vanished.
 */
export function createWithStat(client: ZooKeeperClient, path: string, data: Uint8Array, options: CreateWithStatOptions): Promise<{ path: string; stat: Stat }> {
  if (lacksCreate2(client)) return createThenRead(client, path, data, options);
  const made = client.create(path, data, options);
  // Known to have create2 (every server after its first answer): the client's promise as it is, no layer between
  // (every lock acquire's create; bench:acquire). Not known yet: the first create2 a 3.4 server sees comes back
  // UNIMPLEMENTED (and teaches the client), and nothing was made.
  return client.serverFeatures.createWithStat
    ? made
    : made.catch((err: unknown) => {
        if (!isCode(err, 'UNIMPLEMENTED') || !lacksCreate2(client)) throw err;
        return createThenRead(client, path, data, options);
      });
}

async function createThenRead(client: ZooKeeperClient, path: string, data: Uint8Array, options: CreateWithStatOptions): Promise<{ path: string; stat: Stat }> {
  const made = await client.create(path, data, { ...options, stat: false });
  const stat = await client.exists(made, { signal: options.signal });
  if (stat === null) throw nodeVanished('create', made, 'deleted before its stat could be read (a server without create2)');
  return { path: made, stat };
}

/** Known to lack create2 (a function, so each call reads the client's features afresh). */
export function lacksCreate2(client: ZooKeeperClient): boolean {
  return client.serverFeatures.createWithStat === false;
}
