/**
 * The connect string: `host:port[,host:port...][/chroot]`.
 *
 * IPv6 literals are written in brackets (`[::1]:2181`); a bare IPv6 literal without a port is accepted
 * too (`::1`), since it cannot be mistaken for host:port when it has more than one colon. The port
 * defaults to 2181. The chroot is returned as written (validated by the client as a path); `/` means none.
 */

import { clientError } from '../errors.js';
import type { Endpoint } from '../transport/types.js';

/** The port a connect-string host without one gets: ZooKeeper's client port. */
export const DEFAULT_PORT = 2181;

/** A parsed connect string: the hosts in the order written, and the chroot. */
export interface ConnectString {
  readonly hosts: readonly Endpoint[];
  /** The chroot, without a trailing slash; undefined when there is none or it is `/`. */
  readonly chroot: string | undefined;
}

/** `op`: what a bad connect string is reported against (`connect` or `updateServerList`). */
function bad(detail: string, op: string): never {
  throw clientError('BAD_ARGUMENT', detail, { op });
}

/** `host`, `host:port`, `[IPv6]` or `[IPv6]:port`: the host (brackets off) and the port, when one is written. */
const HOST_PORT = /^(?:\[(.+)\]|([^:[\]]+))(?::(\d{1,5}))?$/;

function parseHost(entry: string, op: string): Endpoint {
  const text = entry.trim();
  // A bare IPv6 literal (more than one colon, no brackets) cannot be mistaken for host:port: it takes the default port.
  if (!text.startsWith('[') && text.split(':').length > 2) return { host: text, port: DEFAULT_PORT };
  const m = HOST_PORT.exec(text);
  const port = Number(m?.[3] ?? DEFAULT_PORT);
  if (m === null || port < 1 || port > 65535) bad(`"${text}" is not host[:port] (port 1-65535, IPv6 as [address]:port)`, op);
  return { host: (m[1] ?? m[2]) as string, port };
}

/** Parses `host:port[,host:port...][/chroot]`; a malformed string throws BAD_ARGUMENT naming what is wrong (as `op`). */
export function parseConnectString(input: string, op = 'connect'): ConnectString {
  const text = input.trim();
  // The chroot starts at the first '/', which cannot occur inside a host list.
  const slash = text.indexOf('/');
  const hostPart = slash < 0 ? text : text.slice(0, slash);
  let chroot: string | undefined = slash < 0 ? undefined : text.slice(slash);
  if (chroot !== undefined) {
    if (chroot.length > 1 && chroot.endsWith('/')) bad(`chroot "${chroot}" must not end with "/"`, op);
    if (chroot === '/') chroot = undefined;
  }
  // split gives one entry at least: an empty host list is an empty entry, refused by parseHost.
  return { hosts: hostPart.split(',').map((entry) => parseHost(entry, op)), chroot };
}

/** Fisher–Yates shuffle (a copy), so many clients with one connect string spread over the ensemble. */
export function shuffled<T>(items: readonly T[], random: () => number = Math.random): T[] {
  const out = items.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    const a = out[i] as T;
    out[i] = out[j] as T;
    out[j] = a;
  }
  return out;
}
