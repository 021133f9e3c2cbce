/**
 * Kerberos failures. Inside src/kerberos every failure is a `KerberosError` whose `code` is the protocol's own name
 * (the KDC's error name such as KDC_ERR_PREAUTH_FAILED or KRB_AP_ERR_SKEW, or one of ours below); the SASL mechanism
 * turns it into the session's ZooKeeperError AUTHFAILED with this error as its `cause` and the name in its message.
 */

/**
 * Names the client itself gives to failures that have no KDC error number: the KDC did not answer in time or at all,
 * the password or key does not decrypt the reply, a reply is malformed or does not match its request, no key
 * for the ticket's encryption type, the server's proof of identity (AP-REP) is wrong, bad options or files.
 */
export type KerberosClientCode =
  | 'KDC_UNREACHABLE'
  | 'KDC_TIMEOUT'
  | 'WRONG_KEY'
  | 'BAD_REPLY'
  | 'NO_KEY'
  | 'BAD_MUTUAL_AUTH'
  | 'BAD_CONFIG'
  | 'TICKET_EXPIRED';

/** A failed Kerberos step. `code` is stable: the KDC's error name (see `KDC_ERROR_NAMES`) or a `KerberosClientCode`. */
export class KerberosError extends Error {
  override readonly name = 'KerberosError';
  /** The KDC's error number, when the KDC reported the error. */
  readonly errorCode: number | undefined;

  constructor(
    readonly code: string,
    message: string,
    options: { errorCode?: number; cause?: unknown } = {},
  ) {
    super(`${code}: ${message}`, options.cause === undefined ? undefined : { cause: options.cause });
    this.errorCode = options.errorCode;
  }
}

/** A KerberosError with one of our own codes. */
export function kerberosError(code: KerberosClientCode, message: string, cause?: unknown): KerberosError {
  return new KerberosError(code, message, cause === undefined ? {} : { cause });
}
