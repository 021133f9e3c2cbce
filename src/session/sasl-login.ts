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

/**
 * A SASL mechanism for the `sasl` client option, made by a function such as `saslDigestMd5`, which keeps the
 * credentials. A separate object rather than a built-in table, so an application ships only the mechanism it imports.
 */
export interface SaslMechanism {
  /** The mechanism's name, e.g. `DIGEST-MD5` (in error messages). */
  readonly name: string;
  /** Who logs in, e.g. the username (in error messages; never a secret). */
  readonly user: string;
  /** A new exchange: one per connection, since the server asks again on each. */
  exchange(): SaslExchange;
}

/** One login's tokens, as the mechanism computes them. */
export interface SaslExchange {
  /** The token sent first (empty when the server speaks first, as in DIGEST-MD5). */
  initial(): Uint8Array;
  /** The answer to a server token, or undefined when the login is complete. Throws when the server's token is bad. */
  next(serverToken: Uint8Array): Uint8Array | undefined;
}

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

/** Runs the mechanism's exchange on `conn`; `conn.saslPending` is true until it completes. */
export function startSaslLogin(conn: Connection, mechanism: SaslMechanism, hooks: SaslLoginHooks): void {
  conn.saslPending = true;
  const exchange = mechanism.exchange();
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
    hooks.refused(clientError('AUTHFAILED', `${conn.description} refused SASL ${mechanism.name} for "${mechanism.user}": ${detail}`, { cause }));
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
