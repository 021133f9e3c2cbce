/**
 * Kerberos (SASL GSSAPI) login for ZooKeeper, portable: runs wherever the client does (WebCrypto for the crypto,
 * the client's transport to reach the KDC). This entry reads no files: give the keytab as bytes and krb5.conf as
 * text (or the `kdc` and a realm). Under the `node` condition `zkwire/kerberos` resolves to the Node entry, which
 * also takes paths and reads KRB5_CONFIG or /etc/krb5.conf.
 *
 * ```ts
 * const zk = await connect('zk1:2181', { sasl: saslGssapi({ principal: 'app@EXAMPLE.COM', keytab: bytes, kdc: 'kdc1:88' }) });
 * ```
 *
 * @module zkwire/kerberos
 */

import { clientError } from './errors.js';
import { parseKrb5Config } from './kerberos/krb5-conf.js';
import { createSaslGssapi, type GssapiOptions } from './kerberos/sasl-gssapi.js';
import type { SaslMechanism } from './session/sasl-login.js';

/**
 * The SASL GSSAPI (Kerberos v5) mechanism for the client's `sasl` option. The session's identity is then
 * `sasl:<principal>` (or what the servers' kerberos.removeHostFromPrincipal / removeRealmFromPrincipal make of it).
 * A failed login ends the session with AUTHFAILED; its `cause` is a KerberosError whose `code` names the failure
 * (KDC_ERR_PREAUTH_FAILED, KDC_ERR_C_PRINCIPAL_UNKNOWN, KRB_AP_ERR_SKEW, KDC_UNREACHABLE, ...).
 * Throws BAD_ARGUMENT for unusable options; here `keytab` must be bytes and `krb5Config` the file's text.
 */
export function saslGssapi(options: GssapiOptions): SaslMechanism {
  return createSaslGssapi(options, {
    keytabBytes: (keytab) => {
      if (typeof keytab === 'string') throw clientError('BAD_ARGUMENT', 'saslGssapi: this runtime reads no files: give the keytab as bytes', { op: 'connect' });
      return keytab;
    },
    krb5Config: (text) => (text === undefined ? undefined : parseKrb5Config(text)),
  });
}

export type { GssapiOptions } from './kerberos/sasl-gssapi.js';
export { KerberosError, type KerberosClientCode } from './kerberos/errors.js';
export { KDC_ERROR_NAMES } from './kerberos/messages/krb-error.js';
export type { SaslMechanism } from './session/sasl-login.js';
