/**
 * Kerberos (SASL GSSAPI) login for ZooKeeper, Node entry (also Bun and Deno through node:fs): as the portable one,
 * and a keytab may be a path, krb5.conf is read from the `krb5Config` path, else KRB5_CONFIG, else /etc/krb5.conf.
 * Files are read when a login needs them, so a keytab rotated on disk is picked up at the next login.
 *
 * ```ts
 * import { connect } from 'zkwire';
 * import { saslGssapi } from 'zkwire/kerberos';
 * const zk = await connect('zk1.example.com:2181', { sasl: saslGssapi({ principal: 'app@EXAMPLE.COM', keytab: '/etc/app.keytab' }) });
 * ```
 *
 * @module zkwire/kerberos
 */

import { readFileSync } from 'node:fs';
import { kerberosError } from './kerberos/errors.js';
import { parseKrb5Config } from './kerberos/krb5-conf.js';
import { createSaslGssapi, type GssapiOptions } from './kerberos/sasl-gssapi.js';
import type { SaslMechanism } from './session/sasl-login.js';

/**
 * The SASL GSSAPI (Kerberos v5) mechanism for the client's `sasl` option. The session's identity is then
 * `sasl:<principal>` (or what the servers' kerberos.removeHostFromPrincipal / removeRealmFromPrincipal make of it).
 * A failed login ends the session with AUTHFAILED; its `cause` is a KerberosError whose `code` names the failure
 * (KDC_ERR_PREAUTH_FAILED, KDC_ERR_C_PRINCIPAL_UNKNOWN, KRB_AP_ERR_SKEW, KDC_UNREACHABLE, BAD_CONFIG, ...).
 * Throws BAD_ARGUMENT for unusable options.
 */
export function saslGssapi(options: GssapiOptions): SaslMechanism {
  return createSaslGssapi(options, {
    keytabBytes: (keytab) => (typeof keytab === 'string' ? readFile(keytab, 'keytab') : keytab),
    krb5Config: (path) => {
      const file = path ?? process.env['KRB5_CONFIG']?.split(':')[0] ?? '/etc/krb5.conf';
      if (path === undefined && process.env['KRB5_CONFIG'] === undefined) {
        try {
          return parseKrb5Config(new TextDecoder().decode(readFileSync(file)));
        } catch {
          return undefined; // no system krb5.conf: the options must say everything
        }
      }
      return parseKrb5Config(new TextDecoder().decode(readFile(file, 'krb5.conf')));
    },
  });
}

function readFile(path: string, what: string): Uint8Array {
  try {
    return new Uint8Array(readFileSync(path));
  } catch (e) {
    throw kerberosError('BAD_CONFIG', `cannot read the ${what} ${path}: ${(e as Error).message}`, e);
  }
}

export type { GssapiOptions } from './kerberos/sasl-gssapi.js';
export { KerberosError, type KerberosClientCode } from './kerberos/errors.js';
export { KDC_ERROR_NAMES } from './kerberos/messages/krb-error.js';
export type { SaslMechanism } from './session/sasl-login.js';
