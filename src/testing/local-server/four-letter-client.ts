/**
 * Four-letter words from Node: the session's own exchange (session/four-letter-probe.ts) over the Node transport,
 * rejecting with the reason instead of answering undefined. Used by `zkwire 4lw`, by the local-server launcher's
 * readiness probe (`srvr`), and through it by the test harness; plus the parsers of the `srvr` answer they need.
 */

import { MAX_TIMER_DELAY_MS, systemClock, type Clock } from '../../session/clock.js';
import { fourLetterExchange } from '../../session/four-letter-probe.js';
import { parseVersion } from '../../session/server-version.js';
import { nodeTransport } from '../../transport/node.js';
import type { TlsOptions } from '../../transport/types.js';

export const DEFAULT_FOUR_LETTER_TIMEOUT_MS = 5000;

/**
 * Sends `command` (exactly four lowercase letters) to host:port and resolves with the whole answer text. The deadline
 * runs on `clock` (a test that fakes the runtime's timers passes real ones). With `tls`, over TLS (a server's
 * secureClientPort, which answers four-letter words after the handshake).
 */
export async function fourLetterWord(
  host: string,
  port: number,
  command: string,
  timeoutMs = DEFAULT_FOUR_LETTER_TIMEOUT_MS,
  clock: Clock = systemClock,
  tls?: TlsOptions,
): Promise<string> {
  if (!/^[a-z]{4}$/.test(command)) throw new Error(`not a four-letter word: ${JSON.stringify(command)}`);
  const transport = tls === undefined ? nodeTransport() : nodeTransport().withTls!(tls);
  // Clamped to what runtime timers honour (about 24.8 days): longer would fire at once, and is as good as no limit.
  const r = await fourLetterExchange(transport, { host, port }, command, clock, Math.min(timeoutMs, MAX_TIMER_DELAY_MS));
  if ('error' in r) throw r.error;
  return r.text;
}

export type ServerMode = 'standalone' | 'leader' | 'follower' | 'observer' | 'read-only';

/**
 * The `Mode:` line of a `srvr`/`stat` answer, or null while the server is not serving (it then answers "This
 * ZooKeeper instance is not currently serving requests"). `ruok` is no readiness check: it says imok as soon as the
 * socket listens, before the database is loaded or a quorum exists.
 */
export function parseServerMode(srvr: string): ServerMode | null {
  const mode = /^Mode: ([\w-]+)/m.exec(srvr)?.[1];
  switch (mode) {
    case 'standalone':
    case 'leader':
    case 'follower':
    case 'observer':
    case 'read-only':
      return mode;
    default:
      return null;
  }
}

/** The mode of the server at host:port, or null when it does not answer or does not serve yet. */
export async function probeServerMode(
  host: string,
  port: number,
  timeoutMs = 2000,
  clock: Clock = systemClock,
  tls?: TlsOptions,
): Promise<ServerMode | null> {
  try {
    return parseServerMode(await fourLetterWord(host, port, 'srvr', timeoutMs, clock, tls));
  } catch {
    return null;
  }
}

/** "3.8.0" from srvr's "Zookeeper version: 3.8.0-5a02a05eddb59aee6ac762f7ea82e92a68eb9c0f, built on ..." line. */
export function parseServerVersion(srvr: string): string | undefined {
  return parseVersion(srvr)?.text;
}
