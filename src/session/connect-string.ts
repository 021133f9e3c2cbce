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

function parsePort(text: string, whole: string, op: string): number {
  if (!/^\d{1,5}$/.test(text)) bad(`bad port in "${whole}"`, op);
  const port = Number(text);
  if (port < 1 || port > 65535) bad(`port out of range in "${whole}"`, op);
  return port;
}

function parseHost(entry: string, op: string): Endpoint {
  const text = entry.trim();
  if (text === '') bad('empty host in connect string', op);
  if (text.startsWith('[')) {
    const close = text.indexOf(']');
    if (close < 0) bad(`unclosed "[" in "${text}"`, op);
    const host = text.slice(1, close);
    const rest = text.slice(close + 1);
    if (host === '') bad(`empty IPv6 literal in "${text}"`, op);
    if (rest === '') return { host, port: DEFAULT_PORT };
    if (!rest.startsWith(':')) bad(`unexpected "${rest}" after "]" in "${text}"`, op);
    return { host, port: parsePort(rest.slice(1), text, op) };
  }
  const colons = text.split(':').length - 1;
  if (colons === 0) return { host: text, port: DEFAULT_PORT };
  if (colons > 1) return { host: text, port: DEFAULT_PORT }; // a bare IPv6 literal
  const i = text.indexOf(':');
  const host = text.slice(0, i);
  if (host === '') bad(`empty host in "${text}"`, op);
  return { host, port: parsePort(text.slice(i + 1), text, op) };
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
  const hosts = hostPart.split(',').map((entry) => parseHost(entry, op));
  if (hosts.length === 0) bad('no hosts in connect string', op);
  return { hosts, chroot };
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
