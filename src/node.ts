/**
 * The Node entry (package root under the `node` export condition, also used by Bun and Deno's Node
 * compatibility): everything from the portable entry, with node:net/node:tls as the default transport.
 *
 * The default is supplied by a subclass rather than a module-global registry, so the portable client
 * never depends on which entry was loaded and two transports can still live in one process.
 *
 * @module zkwire/node
 */

import { ZooKeeperClient as PortableClient } from './client.js';
import type { ClientOptions } from './client/types.js';
import { nodeTransport } from './transport/node.js';

export * from './index.js';
export { nodeResolver, nodeTransport, type NodeTransportOptions } from './transport/node.js';

/**
 * The client with node:net/node:tls as its default transport (which resolves host names with node:dns before each
 * connect attempt): the same API as the portable `ZooKeeperClient`, and `options.transport` may still override it.
 */
export class ZooKeeperClient extends PortableClient {
  constructor(connectString: string, options: ClientOptions = {}) {
    super(connectString, options.transport === undefined ? { ...options, transport: nodeTransport() } : options);
  }
}

/** Connects with the node:net transport (unless `options.transport` says otherwise). */
export function connect(connectString: string, options: ClientOptions = {}): Promise<ZooKeeperClient> {
  return ZooKeeperClient.connect(connectString, options);
}
