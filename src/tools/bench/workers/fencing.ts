/**
 * Mutual exclusion checked across processes, with no shared memory: while it holds the lock, each exclusive holder
 * reads the run's counter znode, checks that the fencing token found there is older than its own (its lock node's
 * czxid, which grows in acquisition order), and writes its own with setData at the version it read. If a second
 * holder wrote between the read and the write, the version no longer matches (BADVERSION): two holders at once.
 * A token found that is not older than ours means the lock was granted out of order.
 *
 * Readers of a read-write lock and semaphore leases may hold together, so only exclusive holders write.
 */

import type { ZooKeeperClient } from '../../../client.js';
import { isCode, ZooKeeperError } from '../../../errors.js';
import type { CrossProcessFencing } from './processes-report.js';

export class CrossProcessFence {
  readonly #client: ZooKeeperClient;
  readonly counts: CrossProcessFencing = { writes: 0, versionConflicts: 0, tokensBackwards: 0 };
  /** Fencing writes that failed for another reason than a conflict, by error code. */
  readonly errors: Record<string, number> = {};

  constructor(
    client: ZooKeeperClient,
    /** The counter znode (created by the coordinator, data "0"). */
    readonly path: string,
  ) {
    this.#client = client;}

  /** One holder's check and write, made while it holds the lock. Never throws: what goes wrong is counted. */
  async write(token: bigint): Promise<void> {
    try {
      const { data, stat } = await this.#client.getData(this.path);
      const text = new TextDecoder().decode(data);
      const found = /^\d+$/.test(text) ? BigInt(text) : 0n;
      if (found >= token) this.counts.tokensBackwards++;
      await this.#client.setData(this.path, String(token), { version: stat.version });
      this.counts.writes++;
    } catch (e) {
      if (isCode(e, 'BADVERSION')) this.counts.versionConflicts++;
      else {
        const code = e instanceof ZooKeeperError ? e.code : 'ERROR';
        this.errors[code] = (this.errors[code] ?? 0) + 1;
      }
    }
  }
}
