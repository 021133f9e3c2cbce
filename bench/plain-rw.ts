/**
 * A plain, hand-written read/write lock on the public client API: the yardstick our InterProcessReadWriteLock is
 * compared with on the same client. No protection prefix, no containers, no re-entrancy, no lock-lost signal:
 * create an ephemeral sequential node and list the directory in one write, hold when nothing that blocks us sorts
 * ahead, otherwise watch the nearest blocker (exists) and list again when it changes. Bench-only.
 */

import type { ZooKeeperClient } from '../src/node.js';

export interface PlainHold {
  release(): Promise<void>;
}

const seq = (name: string): number => Number(name.slice(-10));

/** Takes the read (`write` false) or write lock on `dir` (which must exist). */
export async function plainAcquire(client: ZooKeeperClient, dir: string, write: boolean): Promise<PlainHold> {
  const created = client.create(`${dir}/${write ? '__WRIT__' : '__READ__'}`, null, { mode: 'ephemeral-sequential' });
  let listing: Promise<string[]> | undefined = client.getChildren(dir);
  const path = await created;
  const ours = path.slice(dir.length + 1);
  const ourSeq = seq(ours);
  for (;;) {
    const children = await (listing ?? client.getChildren(dir));
    listing = undefined;
    // the nearest node ahead of us that blocks us: any node for a writer, a writer for a reader
    let blocker: string | undefined;
    let blockerSeq = -1;
    for (const name of children) {
      const s = seq(name);
      if (s < ourSeq && s > blockerSeq && (write || name.includes('__WRIT__'))) {
        blocker = name;
        blockerSeq = s;
      }
    }
    if (blocker === undefined) return { release: () => client.delete(path) };
    const { stat, watch } = await client.exists(`${dir}/${blocker}`, { watch: true });
    if (stat !== null) await watch;
  }
}
