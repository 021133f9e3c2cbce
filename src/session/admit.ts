/**
 * Whether a queued request may be written on a connection now, asked by the outbox for each request it sends: not
 * on a connection the session is leaving, nothing but SASL during a SASL exchange, and an op newer than 3.5 only once
 * the server's version is known (asked once per connection, on first need, on a side connection), then refused
 * UNIMPLEMENTED unsent on a server that lacks it.
 */

import type { ZooKeeperError } from '../errors.js';
import { OpCode } from '../protocol/index.js';
import type { Endpoint } from '../transport/types.js';
import type { Connection } from './connection.js';
import type { Outgoing } from './outgoing.js';
import { needsVersion, parseVersion, refusal, type ServerVersion } from './server-version.js';

/** A four-letter word on a side connection (four-letter-probe.ts): the answer text, or undefined when none came. */
export type AskWord = (endpoint: Endpoint, word: string) => Promise<string | undefined>;

/** What admit needs of the session: the version the application gave, if any, and how to ask a server. */
export interface VersionSource {
  readonly known: ServerVersion | undefined;
  readonly ask: AskWord;
  /** The version of `conn` was learnt (or found unknowable): the held requests may be looked at again. */
  learnt(): void;
}

/** true: write it; 'wait': keep it queued (for this connection or the next); an error: fail it unsent. */
export function admit(conn: Connection, item: Outgoing, versions: VersionSource): true | 'wait' | ZooKeeperError {
  if (conn.leaving) return 'wait'; // for the next connection
  if (conn.saslPending && item.opcode !== OpCode.sasl) return 'wait';
  if (!needsVersion(item.opcode)) return true;
  const version = versions.known ?? conn.serverVersion;
  if (version === undefined) {
    learnVersion(conn, versions);
    return 'wait';
  }
  return (version === null ? undefined : refusal(item.opcode, version, conn.description)) ?? true;
}

/**
 * Asks the server for its version on a side connection: `srvr` (the one word every 3.5+ server allows by default),
 * then `envi`. A server that allows neither gets null: its ops are sent as they come, as before. No op on the
 * session's own connection is a safe probe — a server older than the op closes the connection.
 */
function learnVersion(conn: Connection, versions: VersionSource): void {
  if (conn.versionAsked) return;
  conn.versionAsked = true;
  const endpoint = conn.endpoint;
  const ask = async (word: string): Promise<ServerVersion | undefined> => {
    const text = await versions.ask(endpoint, word);
    return text === undefined ? undefined : parseVersion(text);
  };
  void (async () => {
    const version = (await ask('srvr')) ?? (await ask('envi')) ?? null;
    if (conn.isOver) return;
    conn.serverVersion = version;
    versions.learnt();
  })();
}
