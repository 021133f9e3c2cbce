/**
 * Telling a TLS failure retrying cannot mend from an ordinary lost connection.
 *
 * A refused or reset connection is worth another try (the server may be restarting); a certificate the client does
 * not trust, or a server refusing ours, fails the same way on every try, so `connect()` reports it at once as
 * TLS_ERROR instead of retrying until its deadline. Each runtime words these failures its own way: Node (and Bun,
 * and Deno's Node layer) give OpenSSL's codes, Deno's own TLS gives rustls messages; both are read here, once.
 */

import { clientError, ZooKeeperError } from '../errors.js';

/** OpenSSL verification codes Node puts on an untrusted server certificate (and its own name check's code). */
const UNTRUSTED_SERVER = /^(UNABLE_TO_|SELF_SIGNED_|DEPTH_ZERO_|CERT_|ERR_TLS_CERT_ALTNAME_INVALID|HOSTNAME_MISMATCH)/;
/** A TLS alert from the server (it refused our certificate or had none of it) or a record that is not TLS. */
const SSL_LAYER = /^ERR_SSL_/;
/** rustls (Deno.connectTls) words for the same conditions. */
const RUSTLS = /invalid peer certificate|UnknownIssuer|NotValidForName|certificate required|received fatal alert|handshake failure|BadCertificate/i;

/**
 * The TLS_ERROR a transport error amounts to, or undefined when it is an ordinary connection failure. `where` names
 * the server (`host:port`) for the message.
 */
export function tlsFailure(error: unknown, where: string): ZooKeeperError | undefined {
  if (error instanceof ZooKeeperError) return error.code === 'TLS_ERROR' ? error : undefined;
  if (!(error instanceof Error)) return undefined;
  const code = (error as { code?: unknown }).code;
  const name = typeof code === 'string' ? code : '';
  let hint: string | undefined;
  if (UNTRUSTED_SERVER.test(name)) {
    hint = "the server's certificate is not trusted (tls.ca, or tls.servername for a certificate naming another host)";
  } else if (name === 'ERR_SSL_WRONG_VERSION_NUMBER' || name === 'ERR_SSL_PACKET_LENGTH_TOO_LONG') {
    hint = 'the server does not speak TLS on this port (a plaintext clientPort?)';
  } else if (SSL_LAYER.test(name) || RUSTLS.test(error.message)) {
    hint = /unknown_?issuer|invalid peer certificate|NotValidForName/i.test(error.message)
      ? "the server's certificate is not trusted (tls.ca)"
      : 'the server refused the handshake: it needs a client certificate it trusts (tls.cert and tls.key)';
  }
  if (hint === undefined) return undefined;
  return clientError('TLS_ERROR', `${where}: ${hint}: ${error.message}`, { op: 'connect', cause: error });
}

/** The error for a TLS server met by a plaintext client (see the Node transport's probe). */
export function serverSpeaksTls(where: string): ZooKeeperError {
  return clientError('TLS_ERROR', `${where}: the server speaks TLS: pass \`tls\` (its secureClientPort closes plaintext connections unanswered)`, { op: 'connect' });
}
