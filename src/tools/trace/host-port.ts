/** `--listen` / `--upstream` values: HOST:PORT, [IPv6]:PORT, :PORT or PORT (host defaults to 127.0.0.1). */

import type { HostPort } from './proxy.js';

export function parseHostPort(text: string, opts: { allowPortZero?: boolean } = {}): HostPort | string {
  let host = '127.0.0.1';
  let port = text;
  const v6 = /^\[([^\]]+)\]:(.*)$/.exec(text);
  if (v6 !== null) [host, port] = [v6[1]!, v6[2]!];
  else if (text.includes(':')) {
    const colon = text.lastIndexOf(':');
    if (colon > 0) host = text.slice(0, colon);
    port = text.slice(colon + 1);
  }
  if (!/^\d{1,5}$/.test(port)) return `bad port in ${JSON.stringify(text)} (expected HOST:PORT)`;
  const n = Number(port);
  if (n > 65535 || (n === 0 && opts.allowPortZero !== true)) return `port out of range in ${JSON.stringify(text)}`;
  return { host, port: n };
}

/** "host:port", with brackets around IPv6 literals. */
export function formatHostPort(a: HostPort): string {
  return a.host.includes(':') ? `[${a.host}]:${a.port}` : `${a.host}:${a.port}`;
}
