/**
 * SASL on a new connection, as the Java client's ZooKeeperSaslClient: sasl (102) requests with ordinary xids, each
 * carrying the mechanism's next token, answered in order; nothing else goes out until it completes (the outbox holds
 * other requests while `conn.saslPending`), and the session is not connected before. A refusal (AUTHFAILED, after
 * which the server closes the link) ends the session.
 */

import { clientError, type ZooKeeperError } from '../errors.js';
import { ErrorCode, OpCode } from '../protocol/index.js';
import type { Connection } from './connection.js';
import type { Outgoing, Reply } from './outgoing.js';
import { DigestMd5Exchange, type DigestCredentials } from './sasl-digest-md5.js';

/** What the login needs of its session. */
export interface SaslLoginHooks {
  /** Queues a sasl request ahead of everything else and writes it. */
  send(item: Outgoing): void;
  /** True while the connection is still the session's live one (a reply for an older one is ignored). */
  current(): boolean;
  /** The server refused, or the exchange failed: the session ends with this AUTHFAILED. */
  refused(err: ZooKeeperError): void;
  /** The login is complete: the session may call itself connected and send what it held. */
  done(): void;
}

/** Runs the DIGEST-MD5 exchange on `conn`; `conn.saslPending` is true until it completes. */
export function startSaslLogin(conn: Connection, credentials: DigestCredentials, hooks: SaslLoginHooks): void {
  conn.saslPending = true;
  const exchange = new DigestMd5Exchange(credentials);
  const send = (token: Uint8Array): void => {
    const item: Outgoing = {
      opcode: OpCode.sasl,
      body: { token },
      xid: 0,
      sent: false,
      settled: false,
      complete: (reply) => {
        item.settled = true;
        onReply(reply);
      },
      fail: () => void (item.settled = true),
    };
    hooks.send(item);
  };
  const refused = (detail: string, cause?: unknown): void =>
    hooks.refused(clientError('AUTHFAILED', `${conn.description} refused SASL DIGEST-MD5 for "${credentials.username}": ${detail}`, { cause }));
  const onReply = (reply: Reply): void => {
    if (!hooks.current()) return;
    if (reply.err !== 0) {
      refused(reply.err === ErrorCode.AUTHFAILED ? 'wrong username or password' : `server error ${reply.err}`);
      return;
    }
    let next: Uint8Array | undefined;
    try {
      next = exchange.next((reply.body as { token: Uint8Array | null }).token ?? new Uint8Array(0));
    } catch (e) {
      refused(e instanceof Error ? e.message : String(e), e);
      return;
    }
    if (next !== undefined) {
      send(next);
      return;
    }
    conn.saslPending = false;
    hooks.done();
  };
  send(exchange.initial());
}
