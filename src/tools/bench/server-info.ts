/**
 * What a report says about the server it measured: version and mode from `srvr`, settings from `conf`. Both
 * are four-letter words on a fresh connection; a server whose whitelist refuses them is still benchmarked,
 * the report then says "unknown".
 */

import { parseSrvr } from '../../protocol/index.js';
import { fourLetterWord } from '../../testing/local-server/four-letter-client.js';

export interface ServerInfo {
  connectString: string;
  version: string;
  mode: string;
  /** `conf` as key → value (tickTime, maxClientCnxns, session timeout bounds, …); empty if refused. */
  settings: Record<string, string>;
}

/** The first host:port of a connect string (chroot and other hosts ignored). */
export function firstEndpoint(connectString: string): { host: string; port: number } {
  const first = connectString.split('/')[0]!.split(',')[0]!.trim();
  const m = /^\[(.*)\]:(\d+)$/.exec(first) ?? /^([^:]*):(\d+)$/.exec(first);
  if (m === null) return { host: first, port: 2181 };
  return { host: m[1]!, port: Number(m[2]) };
}

export function parseConf(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const eq = line.indexOf('=');
    if (eq > 0) out[line.slice(0, eq).trim()] = line.slice(eq + 1).trim();
  }
  return out;
}

export async function serverInfo(connectString: string): Promise<ServerInfo> {
  const { host, port } = firstEndpoint(connectString);
  const ask = (word: string): Promise<string> => fourLetterWord(host, port, word).catch(() => '');
  const [srvr, conf] = await Promise.all([ask('srvr'), ask('conf')]);
  const stats = parseSrvr(srvr);
  const settings = parseConf(conf);
  // Paths on the server's disk say nothing about performance and only leak the machine's layout.
  delete settings['dataDir'];
  delete settings['dataDirSize'];
  delete settings['dataLogDir'];
  delete settings['dataLogSize'];
  return {
    connectString,
    version: stats.version ?? 'unknown',
    mode: stats.mode ?? 'unknown',
    settings,
  };
}
