/**
 * The members' client addresses in ZooKeeper's dynamic configuration, as /zookeeper/config holds it (3.5+):
 *
 *     server.1=10.0.0.1:2888:3888:participant;0.0.0.0:2181
 *     server.2=zk2:2888:3888;2181
 *     server.3=[fd00::3]:2888:3888:observer;[fd00::3]:2181
 *     version=100000000
 *
 * After the `;` comes the client address, `[host:]port`. A wildcard host (none, 0.0.0.0, ::) means the member
 * listens on every interface: the host of its quorum address stands for it, as Curator's EnsembleTracker does. A
 * member with no client address takes no clients and is left out. Since 3.6 the quorum part may list several
 * addresses separated by `|`; the first one names the host.
 */

import type { Endpoint } from '../transport/types.js';

const WILDCARDS = new Set(['0.0.0.0', '::', '0:0:0:0:0:0:0:0']);

/** A member's line: its id, its quorum address(es), and after the `;` its client address. */
const MEMBER_LINE = /^server\.(\d+)=([^;]*);(.+)$/;
/** A quorum address's host: in brackets (IPv6), or up to the first colon. */
const QUORUM_HOST = /^\[([^\]]+)\]|^([^:[]+)/;
/** A client address, `[host:]port`: the host in brackets (IPv6), or up to the last colon. */
const CLIENT_ADDRESS = /^(?:\[([^\]]*)\]:|([^[]*):)?(\d{1,5})$/;

/** The client endpoints of every member the configuration lists (participants and observers), in id order. */
export function configuredMembers(config: string): Endpoint[] {
  const members: { id: number; endpoint: Endpoint }[] = [];
  for (const raw of config.split('\n')) {
    const line = MEMBER_LINE.exec(raw.trim());
    if (line === null) continue;
    const quorum = QUORUM_HOST.exec(((line[2] as string).split('|')[0] as string).trim());
    const endpoint = clientEndpoint((line[3] as string).trim(), quorum?.[1] ?? quorum?.[2]);
    if (endpoint !== undefined) members.push({ id: Number(line[1]), endpoint });
  }
  return members.sort((a, b) => a.id - b.id).map((m) => m.endpoint);
}

/** `[host:]port` → an endpoint; the quorum host replaces a missing or wildcard one. Undefined when unusable. */
function clientEndpoint(text: string, fallbackHost: string | undefined): Endpoint | undefined {
  const address = CLIENT_ADDRESS.exec(text);
  const port = Number(address?.[3]);
  if (address === null || port < 1 || port > 65535) return undefined;
  let host: string | undefined = address[1] ?? address[2];
  if (host === undefined || host === '' || WILDCARDS.has(host)) host = fallbackHost;
  if (host === undefined || WILDCARDS.has(host)) return undefined;
  return { host, port };
}
