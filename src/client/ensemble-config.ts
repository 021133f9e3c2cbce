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

/** The client endpoints of every member the configuration lists (participants and observers), in id order. */
export function configuredMembers(config: string): Endpoint[] {
  const members: { id: number; endpoint: Endpoint }[] = [];
  for (const raw of config.split('\n')) {
    const line = /^server\.(\d+)=([^;]*);(.+)$/.exec(raw.trim());
    if (line === null) continue;
    const endpoint = clientEndpoint((line[3] as string).trim(), quorumHost(line[2] as string));
    if (endpoint !== undefined) members.push({ id: Number(line[1]), endpoint });
  }
  return members.sort((a, b) => a.id - b.id).map((m) => m.endpoint);
}

/** The host of a member's first quorum address (`host:port:port[:role]`, IPv6 in brackets). */
function quorumHost(quorum: string): string | undefined {
  const first = (quorum.split('|')[0] as string).trim();
  if (first.startsWith('[')) {
    const close = first.indexOf(']');
    return close > 1 ? first.slice(1, close) : undefined;
  }
  const host = first.split(':')[0] as string;
  return host === '' ? undefined : host;
}

/** `[host:]port` → an endpoint; the quorum host replaces a missing or wildcard one. Undefined when unusable. */
function clientEndpoint(text: string, fallbackHost: string | undefined): Endpoint | undefined {
  let host: string | undefined;
  let portText: string;
  if (text.startsWith('[')) {
    const close = text.indexOf(']');
    if (close < 0 || text[close + 1] !== ':') return undefined;
    host = text.slice(1, close);
    portText = text.slice(close + 2);
  } else {
    const colon = text.lastIndexOf(':');
    host = colon < 0 ? undefined : text.slice(0, colon);
    portText = colon < 0 ? text : text.slice(colon + 1);
  }
  if (!/^\d{1,5}$/.test(portText)) return undefined;
  const port = Number(portText);
  if (port < 1 || port > 65535) return undefined;
  if (host === undefined || host === '' || WILDCARDS.has(host)) host = fallbackHost;
  if (host === undefined || WILDCARDS.has(host)) return undefined;
  return { host, port };
}
