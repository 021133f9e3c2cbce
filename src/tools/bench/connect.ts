/**
 * How the benchmarks open a client: over node:net. The Node entry's `ZooKeeperClient` (which defaults to that
 * transport) sits on the entries floor, above the tools, so the benchmarks name the transport themselves.
 */

import { ZooKeeperClient } from '../../client.js';
import type { ClientOptions } from '../../client/types.js';
import { nodeTransport } from '../../transport/node.js';

/** `ZooKeeperClient.connect` with the node:net transport unless `options.transport` names another. */
export function connectNode(connectString: string, options: ClientOptions = {}): Promise<ZooKeeperClient> {
  return ZooKeeperClient.connect(connectString, { transport: nodeTransport(), ...options });
}
