/**
 * Links of their own for a few clients of the chaos run. The fault proxies in engine.ts sit one per member and are
 * shared by every client, so freezing one would cut everyone on that member; to expire one client's session while
 * the rest of the run goes on, a client needs proxies nobody else uses. A private link is one more fault proxy in
 * front of each member, and its client connects through those only. The network lane's faults on the shared
 * proxies pass these clients by (a partition of every link includes them); the expiry lane freezes one of them.
 */

import type { ZooKeeperClient } from '../../src/node.js';
import { startFaultProxy, type FaultProxy } from '../harness/fault-proxy.js';
import type { Member } from './leftovers.js';

export interface PrivateLink {
  /** The slot it belongs to, for the timeline (e.g. "lock slot s0"). */
  readonly name: string;
  /** proxies[i] fronts ensemble member i. */
  readonly proxies: readonly FaultProxy[];
  readonly connectString: string;
  /** The client's current session (0x…), or undefined while it has none established (or no client yet). */
  session(): string | undefined;
  /** The slot hands over its client here (again, if it ever replaces it). */
  use(client: ZooKeeperClient): void;
}

export async function startPrivateLink(name: string, members: readonly Member[]): Promise<PrivateLink> {
  const proxies: FaultProxy[] = [];
  try {
    for (const member of members) proxies.push(await startFaultProxy(member));
  } catch (err) {
    await Promise.all(proxies.map((p) => p.close()));
    throw err;
  }
  let client: ZooKeeperClient | undefined;
  return {
    name,
    proxies,
    connectString: proxies.map((p) => p.connectString).join(','),
    session: () => (client !== undefined && client.state === 'connected' && client.sessionId !== 0n ? client.sessionIdHex.toLowerCase() : undefined),
    use: (c) => (client = c),
  };
}
