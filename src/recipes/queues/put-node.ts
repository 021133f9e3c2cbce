/**
 * How every queue puts an item: one persistent sequential create under the queue's node, the queue's node (and
 * its parents) made as containers when missing, as Curator's creatingParentContainersIfNeeded does.
 *
 * A create whose reply was lost is not sent again: it may have been applied, and a second one would queue the item
 * twice. It rejects with its error (CONNECTIONLOSS: the outcome is unknown), as Curator's put does once its retries
 * run out. Queue nodes carry no protection prefix: Curator's consumers take only names that start with `queue-` or
 * `qn-`.
 */

import type { ZooKeeperClient } from '../../client.js';
import { isCode } from '../../errors.js';
import { NodeOps } from '../common/nodes.js';

/** The directory made this many times in a row and gone again each time means something else is wrong. */
const MAX_DIRECTORY_CREATES = 3;

/** Creates `<dir>/<name><seq>` holding `data`; resolves with its path. */
export async function putSequentialNode(client: ZooKeeperClient, dir: string, name: string, data: Uint8Array, signal: AbortSignal | undefined): Promise<string> {
  const stop = signal === undefined ? {} : { signal };
  for (let made = 0; ; made++) {
    try {
      return await client.create(`${dir}/${name}`, data, { mode: 'persistent-sequential', ...stop });
    } catch (err) {
      // NONODE: nothing was made, so the create is safe to repeat once the directory exists.
      if (!isCode(err, 'NONODE') || made >= MAX_DIRECTORY_CREATES) throw err;
      // made again across a broken link: a 3.4 server closes the link after refusing the feature check it asks
      await new NodeOps(client).makeDirectory(dir, signal);
    }
  }
}
