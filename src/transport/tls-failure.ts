/**
 * Telling a TLS failure retrying cannot mend from an ordinary lost connection.
 *
 * A refused or reset connection is worth another try (the server may be restarting); a certificate the client does
 * not trust, or a server refusing ours, fails the same way on every try, so `connect()` reports it at once as
 * TLS_ERROR instead of retrying until its deadline. Each runtime words these failures its own way: Node (and Bun,
 * and Deno's Node layer) give OpenSSL's codes, Deno's own TLS gives rustls messages; both are read here, once.
 */

import { clientError, ZooKeeperError } from '../errors.js';

/** OpenSSL's codes for a record that is not TLS: what a plaintext port answers to a ClientHello. */
export const NOT_TLS = /^ERR_SSL_(WRONG_VERSION_NUMBER|PACKET_LENGTH_TOO_LONG)\b/;

/**
 * Each hint with what it is read from, tried in order against "code message": OpenSSL's codes first, rustls
 * (Deno.connectTls) words after them.
 */
const HINTS: readonly (readonly [RegExp, string])[] = [
  [NOT_TLS, 'the server does not speak TLS on this port (a plaintext clientPort?)'],
  // Node's verification codes for an untrusted server certificate (and its own name check's code).
  [
    /^(UNABLE_TO_|SELF_SIGNED_|DEPTH_ZERO_|CERT_|ERR_TLS_CERT_ALTNAME_INVALID|HOSTNAME_MISMATCH)|UnknownIssuer|unknown_issuer|invalid peer certificate|NotValidForName/,
    "the server's certificate is not trusted (tls.ca, or tls.servername for a certificate naming another host)",
  ],
  // A TLS alert from the server: it refused our certificate, or had none of it.
  [/^ERR_SSL_|certificate required|received fatal alert|handshake failure|BadCertificate/i, 'the server refused the handshake: it needs a client certificate it trusts (tls.cert and tls.key)'],
];

/**
 * The TLS_ERROR a transport error amounts to, or undefined when it is an ordinary connection failure. `where` names
 * the server (`host:port`) for the message.
 */
export function tlsFailure(error: unknown, where: string): ZooKeeperError | undefined {
  if (error instanceof ZooKeeperError) return error.code === 'TLS_ERROR' ? error : undefined;
  if (!(error instanceof Error)) return undefined;
  const code = (error as { code?: unknown }).code;
  const said = `${typeof code === 'string' ? code : ''} ${error.message}`;
  const hint = HINTS.find(([pattern]) => pattern.test(said))?.[1];
  return hint === undefined ? undefined : clientError('TLS_ERROR', `${where}: ${hint}: ${error.message}`, { op: 'connect', cause: error });
}

/** The error for a TLS server met by a plaintext client (see the Node transport's probe). */
export function serverSpeaksTls(where: string): ZooKeeperError {
  return clientError('TLS_ERROR', `${where}: the server speaks TLS: pass \`tls\` (its secureClientPort closes plaintext connections unanswered)`, { op: 'connect' });
}
