/**
 * The in-memory servers open in this module instance, by host name, so `killSession(client)` can reach the
 * server of a client connected to one without being handed its transport.
 */

/** What killSession needs of an in-memory server. */
export interface RegisteredServer {
  readonly transport: import('../../transport/types.js').Transport;
}

const open = new Map<string, RegisteredServer>();
let counter = 0;

/** A host name no other open in-memory server has. */
export function nextHost(): string {
  return `in-memory-zookeeper-${++counter}`;
}

export function register(host: string, server: RegisteredServer): void {
  open.set(host, server);
}

export function unregister(host: string): void {
  open.delete(host);
}

/** The open in-memory server a `host:port` connect string (as `client.connectedServer` gives it) names, if any. */
export function inMemoryServerAt(server: string): RegisteredServer | undefined {
  const colon = server.lastIndexOf(':');
  return open.get(colon < 0 ? server : server.slice(0, colon));
}
