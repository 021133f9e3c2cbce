/**
 * SASL on a new connection, as the Java client's ZooKeeperSaslClient: sasl (102) requests with ordinary xids, each
 * carrying the mechanism's next token, answered in order; nothing else goes out until it completes (the outbox holds
 * other requests while `conn.saslPending`), and the session is not connected before. A refusal (AUTHFAILED, after
 * which the server closes the link) ends the session.
 */

import { clientError, type ZooKeeperError } from '../errors.js';
import { ErrorCode, OpCode } from '../protocol/index.js';
import type { Transport } from '../transport/types.js';
import type { Connection } from './connection.js';
import type { Outgoing, Reply } from './outgoing.js';

/**
 * A SASL mechanism for the `sasl` client option, made by a function such as `saslDigestMd5`, which keeps the
 * credentials, or by `saslMechanism` from one of your own. A separate object rather than a built-in table, so an
 * application ships only the mechanism it imports (and the login driver only with one). The driver rides on a
 * symbol key only those functions set, so a bare `{ name, user, exchange }` is refused by the compiler (and, from
 * plain JavaScript, by `connect` with BAD_ARGUMENT).
 */
export interface SaslMechanism {
  /** The mechanism's name, e.g. `DIGEST-MD5` (in error messages). */
  readonly name: string;
  /** Who logs in, e.g. the username (in error messages; never a secret). */
  readonly user: string;
  /** A new exchange: one per connection, since the server asks again on each. */
  exchange(context: SaslContext): SaslExchange;
  /**
   * The login driver (a `SaslLoginDriver`), joined by saslMechanism: typed `unknown` so that the session's internals
   * stay out of the public types; what makes the key required is that only saslMechanism can set it. @hidden
   */
  readonly [SASL_LOGIN]: unknown;
}

/**
 * Where an exchange runs: Kerberos names the service after the host the client connects to, and reaches its KDC
 * through the client's own transport, so it works on every runtime the client does.
 */
export interface SaslContext {
  /** The server's host as the connect string names it (not resolved). */
  readonly host: string;
  readonly port: number;
  /** The client's transport, for side connections the mechanism needs (a Kerberos KDC). */
  readonly transport: Transport;
}

/**
 * One login's tokens, as the mechanism computes them. A token may come as a promise (Kerberos asks its KDC and
 * uses WebCrypto, both asynchronous); nothing else goes out on the connection meanwhile.
 */
export interface SaslExchange {
  /** The token sent first (empty when the server speaks first, as in DIGEST-MD5). */
  initial(): Uint8Array | Promise<Uint8Array>;
  /**
   * The answer to a server token, or undefined when the login is complete. Throws (or rejects) when the server's
   * token is bad.
   */
  next(serverToken: Uint8Array): Uint8Array | undefined | Promise<Uint8Array | undefined>;
}

/**
 * Where a mechanism made by saslMechanism keeps the login driver (startSaslLogin): the session calls the driver from
 * there, so an application carries it only when it makes a mechanism (saslDigestMd5 and saslGssapi make theirs with
 * saslMechanism); the option carries its code, as `compressWith` does. Not exported from any entry: only
 * saslMechanism can make a value of the `SaslMechanism` type.
 */
export const SASL_LOGIN: unique symbol = Symbol('zkwire.saslLogin');

/**
 * Makes a mechanism of your own (its name, who logs in, and a new exchange per connection) one the `sasl` option
 * takes: it joins the login driver to it. saslDigestMd5 and saslGssapi return mechanisms already made so.
 * BAD_ARGUMENT for anything without an `exchange` method.
 */
export function saslMechanism(mechanism: {
  readonly name: string;
  readonly user: string;
  exchange(context: SaslContext): SaslExchange;
}): SaslMechanism {
  if (typeof (mechanism as { exchange?: unknown } | null)?.exchange !== 'function') {
    throw clientError('BAD_ARGUMENT', 'saslMechanism takes { name, user, exchange(context) }', { op: 'connect' });
  }
  const { name, user } = mechanism;
  return { name, user, exchange: (context) => mechanism.exchange(context), [SASL_LOGIN]: startSaslLogin };
}

/** What a mechanism keeps under SASL_LOGIN: the session calls it on each new connection. */
export type SaslLoginDriver = typeof startSaslLogin;

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
export function startSaslLogin(conn: Connection, mechanism: SaslMechanism, context: SaslContext, hooks: SaslLoginHooks): void {
  conn.saslPending = true;
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
  const refused = (detail: string, cause?: unknown): void => {
    if (!hooks.current()) return;
    hooks.refused(clientError('AUTHFAILED', `${conn.description} refused SASL ${mechanism.name} for "${mechanism.user}": ${detail}`, { cause }));
  };
  const failed = (e: unknown): void => refused(e instanceof Error ? e.message : String(e), e);
  let exchange: SaslExchange;
  // Each step goes through a promise: a mechanism may answer at once (DIGEST-MD5) or later (Kerberos asks its KDC),
  // and a throw and a rejection both end the login as a refusal.
  const step = (make: () => Uint8Array | undefined | Promise<Uint8Array | undefined>): void =>
    void Promise.resolve()
      .then(make)
      .then((next) => {
        if (!hooks.current()) return;
        if (next !== undefined) return send(next);
        conn.saslPending = false;
        hooks.done();
      }, failed);
  const onReply = (reply: Reply): void => {
    if (!hooks.current()) return;
    if (reply.err !== 0) refused(reply.err === ErrorCode.AUTHFAILED ? 'wrong username or password' : `server error ${reply.err}`);
    else step(() => exchange.next((reply.body as { token: Uint8Array | null }).token ?? new Uint8Array(0)));
  };
  step(() => (exchange = mechanism.exchange(context)).initial());
}
