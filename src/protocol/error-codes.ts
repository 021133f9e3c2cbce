/**
 * ZooKeeper's error codes (KeeperException.Code) by number and by name. The names are the stable `code`
 * strings zkwire's errors carry; client-side conditions that ZooKeeper has no number for get names of
 * their own in ClientErrorCode.
 */
export const ErrorCode = {
  OK: 0,
  SYSTEMERROR: -1,
  RUNTIMEINCONSISTENCY: -2,
  DATAINCONSISTENCY: -3,
  CONNECTIONLOSS: -4,
  MARSHALLINGERROR: -5,
  UNIMPLEMENTED: -6,
  OPERATIONTIMEOUT: -7,
  BADARGUMENTS: -8,
  UNKNOWNSESSION: -12,
  NEWCONFIGNOQUORUM: -13,
  RECONFIGINPROGRESS: -14,
  APIERROR: -100,
  NONODE: -101,
  NOAUTH: -102,
  BADVERSION: -103,
  NOCHILDRENFOREPHEMERALS: -108,
  NODEEXISTS: -110,
  NOTEMPTY: -111,
  SESSIONEXPIRED: -112,
  INVALIDCALLBACK: -113,
  INVALIDACL: -114,
  AUTHFAILED: -115,
  SESSIONMOVED: -118,
  NOTREADONLY: -119,
  EPHEMERALONLOCALSESSION: -120,
  NOWATCHER: -121,
  REQUESTTIMEOUT: -122,
  RECONFIGDISABLED: -123,
  SESSIONCLOSEDREQUIRESASLAUTH: -124,
  QUOTAEXCEEDED: -125,
  THROTTLEDOP: -127,
} as const;

/** The name of a server error code (NONODE, BADVERSION, ...). */
export type ServerErrorName = keyof typeof ErrorCode;

/** Conditions only the client can see; they have no ZooKeeper number. */
export const ClientErrorCode = {
  /** The client was closed (by the user) before or while the call ran. */
  CLOSED: 'CLOSED',
  /** A deadline given by the caller passed. */
  TIMEOUT: 'TIMEOUT',
  /** The caller's AbortSignal fired. */
  ABORTED: 'ABORTED',
  /** A frame was larger than the configured maximum. */
  FRAME_TOO_LARGE: 'FRAME_TOO_LARGE',
  /** An argument was refused before anything was sent. */
  BAD_ARGUMENT: 'BAD_ARGUMENT',
  /** The peer sent bytes that are not the protocol (undecodable frame, xid out of order). */
  PROTOCOL_ERROR: 'PROTOCOL_ERROR',
  /** The server answered with an error number this client does not know. */
  UNKNOWN_ERROR: 'UNKNOWN_ERROR',
  /** A recipe was used in a state that does not allow the call (started twice, used before start or after close). */
  ILLEGAL_STATE: 'ILLEGAL_STATE',
  /**
   * TLS failed in a way retrying cannot mend: a server certificate the client does not trust, a client certificate
   * the server refuses or misses, or a TLS-only server met by a client without `tls`.
   */
  TLS_ERROR: 'TLS_ERROR',
} as const;

/** The name of a client-side error code (BAD_ARGUMENT, TIMEOUT, ABORTED, CLOSED, ...). */
export type ClientErrorName = keyof typeof ClientErrorCode;
/** Any error code name, server or client. */
export type ErrorCodeName = ServerErrorName | ClientErrorName;

const BY_NUMBER = new Map<number, ServerErrorName>();
for (const [name, code] of Object.entries(ErrorCode) as [ServerErrorName, number][]) BY_NUMBER.set(code, name);

/** The name of a server error number, or undefined for a number ZooKeeper does not define. */
export function errorName(code: number): ServerErrorName | undefined {
  return BY_NUMBER.get(code);
}
