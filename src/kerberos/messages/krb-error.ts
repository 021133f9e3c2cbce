/**
 * KRB-ERROR (RFC 4120 section 5.9.1) and the names of its error codes (section 7.5.9), which reach the user in
 * KerberosError.code: KDC_ERR_PREAUTH_FAILED for a wrong password, KDC_ERR_C_PRINCIPAL_UNKNOWN, KRB_AP_ERR_SKEW...
 */

import { DerValue } from '../asn1/der.js';
import { KerberosError } from '../errors.js';
import { decodeMethodData, decodePrincipalName, type PaData, type PrincipalName } from './common.js';

/** RFC 4120 7.5.9's error codes by number, with what each means for a client that logs in. */
export const KDC_ERROR_NAMES: Readonly<Record<number, string>> = {
  1: 'KDC_ERR_NAME_EXP',
  2: 'KDC_ERR_SERVICE_EXP',
  3: 'KDC_ERR_BAD_PVNO',
  6: 'KDC_ERR_C_PRINCIPAL_UNKNOWN',
  7: 'KDC_ERR_S_PRINCIPAL_UNKNOWN',
  8: 'KDC_ERR_PRINCIPAL_NOT_UNIQUE',
  9: 'KDC_ERR_NULL_KEY',
  12: 'KDC_ERR_POLICY',
  13: 'KDC_ERR_BADOPTION',
  14: 'KDC_ERR_ETYPE_NOSUPP',
  18: 'KDC_ERR_CLIENT_REVOKED',
  19: 'KDC_ERR_SERVICE_REVOKED',
  20: 'KDC_ERR_TGT_REVOKED',
  21: 'KDC_ERR_CLIENT_NOTYET',
  22: 'KDC_ERR_SERVICE_NOTYET',
  23: 'KDC_ERR_KEY_EXPIRED',
  24: 'KDC_ERR_PREAUTH_FAILED',
  25: 'KDC_ERR_PREAUTH_REQUIRED',
  31: 'KRB_AP_ERR_BAD_INTEGRITY',
  32: 'KRB_AP_ERR_TKT_EXPIRED',
  33: 'KRB_AP_ERR_TKT_NYV',
  34: 'KRB_AP_ERR_REPEAT',
  37: 'KRB_AP_ERR_SKEW',
  41: 'KRB_AP_ERR_MODIFIED',
  52: 'KRB_ERR_RESPONSE_TOO_BIG',
  60: 'KRB_ERR_GENERIC',
  68: 'KDC_ERR_WRONG_REALM',
};

/** What the KDC (or a service) sent back instead of a reply. */
export interface KrbError {
  readonly code: number;
  readonly name: string;
  readonly serverTime: Date;
  readonly realm: string;
  readonly sname: PrincipalName;
  readonly text?: string | undefined;
  /** The e-data as METHOD-DATA (with PREAUTH_REQUIRED: the ETYPE-INFO2 salts), when it parses as such. */
  readonly methodData?: PaData[] | undefined;
}

/** True when `bytes` is a KRB-ERROR ([APPLICATION 30]). */
export function isKrbError(bytes: Uint8Array): boolean {
  return bytes[0] === (0x60 | 30);
}

export function decodeKrbError(bytes: Uint8Array): KrbError {
  const v = DerValue.parse(bytes).unwrap(0x60 | 30, 'KRB-ERROR');
  const code = v.need(6, 'error-code').int();
  let methodData: PaData[] | undefined;
  const edata = v.field(12)?.bytes();
  if (edata !== undefined) {
    try {
      methodData = decodeMethodData(DerValue.parse(edata));
    } catch {
      // e-data is not always METHOD-DATA (some errors carry a typed-data or nothing useful): ignore it then.
    }
  }
  return {
    code,
    name: KDC_ERROR_NAMES[code] ?? `KRB_ERROR_${code}`,
    serverTime: v.need(4, 'stime').time(),
    realm: v.need(9, 'realm').string(),
    sname: decodePrincipalName(v.need(10, 'sname')),
    text: v.field(11)?.string(),
    methodData,
  };
}

/** The KerberosError for a KRB-ERROR, its name as the code, with what it means in our words. */
export function errorFromKdc(e: KrbError, context: string): KerberosError {
  const hints: Record<string, string> = {
    KDC_ERR_PREAUTH_FAILED: 'wrong password or key',
    KDC_ERR_C_PRINCIPAL_UNKNOWN: 'the client principal is not in the KDC database',
    KDC_ERR_S_PRINCIPAL_UNKNOWN: 'the service principal is not in the KDC database (check serviceName and serviceHost)',
    KRB_AP_ERR_SKEW: `the clocks differ too much (the KDC says ${e.serverTime.toISOString()})`,
    KRB_AP_ERR_TKT_EXPIRED: 'the ticket has expired',
    KDC_ERR_KEY_EXPIRED: 'the password has expired',
    KDC_ERR_CLIENT_REVOKED: 'the client principal is locked or disabled',
    KDC_ERR_ETYPE_NOSUPP: 'no common encryption type (zkwire speaks aes256-cts-hmac-sha1-96 and aes128-cts-hmac-sha1-96)',
    KDC_ERR_WRONG_REALM: 'wrong realm',
  };
  const detail = [hints[e.name], e.text].filter((s) => s !== undefined && s !== '').join('; ');
  return new KerberosError(e.name, `${context}: ${detail === '' ? 'refused' : detail}`, { errorCode: e.code });
}
