/**
 * From client options to a running session: the session's options (defaults filled in, credentials as
 * bytes) and the bounded wait for the first handshake that `ZooKeeperClient.connect` does.
 */

import { clientError, type ZooKeeperError } from '../errors.js';
import { Timer, type Clock } from '../session/clock.js';
import { parseVersion, type ServerVersion } from '../session/server-version.js';
import type { SessionOptions } from '../session/session.js';
import type { Endpoint, Transport } from '../transport/types.js';
import { checkDuration, checkSignal, describeValue, MAX_INT32 } from './checks.js';
import { toBytes } from './data.js';
import { SASL_LOGIN, type SaslMechanism } from '../session/sasl-login.js';
import type { RetryPolicy } from '../session/retry-policy.js';
import { checkKnownKeys } from './option-names.js';
import type { TlsFailures } from './tls-option.js';
import type { ClientOptions } from './types.js';

/** The session timeout a client asks for when `sessionTimeoutMs` is not given (the server may grant another). */
export const DEFAULT_SESSION_TIMEOUT_MS = 30_000;

/** Every client option, once: the compiler holds it to ClientOptions both ways (none missing, none extra). */
const CLIENT_OPTION_NAMES = {
  sessionTimeoutMs: true,
  transport: true,
  tls: true,
  canBeReadOnly: true,
  maxFrameSize: true,
  maxDataSize: true,
  onFrame: true,
  reconnect: true,
  trackEnsemble: true,
  resolver: true,
  authInfo: true,
  sasl: true,
  defaultAcl: true,
  closeTimeoutMs: true,
  connectTimeoutMs: true,
  signal: true,
  renewSession: true,
  sessionId: true,
  sessionPassword: true,
  serverVersion: true,
  clock: true,
  random: true,
  retry: true,
  requestTimeoutMs: true,
  aclProvider: true,
  containers: true,
  observe: true,
  compression: true,
} satisfies Record<keyof ClientOptions, true>;

/** BAD_ARGUMENT for options that are not an object or carry a key the client does not know (naming the nearest). */
export function checkClientOptions(options: unknown): void {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw clientError('BAD_ARGUMENT', `the client options must be an object, got ${options === null ? 'null' : typeof options}`, { op: 'connect' });
  }
  checkKnownKeys(options, Object.keys(CLIENT_OPTION_NAMES), 'options', 'connect', { ssl: 'tls', secure: 'tls' });
}

const isByteCount = (v: unknown): boolean => Number.isSafeInteger(v) && (v as number) >= 0;
const isBoolean = (v: unknown): boolean => typeof v === 'boolean';
const isFunction = (v: unknown): boolean => typeof v === 'function';
/** A RetryPolicy: anything with a `nextDelay` method (the call option is checked as each call is made, in context.ts). */
export const isPolicy = (v: unknown): boolean => typeof (v as Partial<RetryPolicy> | null)?.nextDelay === 'function';

/** The options whose check is their type alone: the name, what it must be, and the test. */
const TYPED_OPTIONS: readonly (readonly [keyof ClientOptions, string, (value: unknown) => boolean])[] = [
  ['maxFrameSize', 'a non-negative integer number of bytes', isByteCount],
  ['maxDataSize', 'a non-negative integer number of bytes', isByteCount],
  ['renewSession', 'a boolean', isBoolean],
  ['trackEnsemble', 'a boolean', isBoolean],
  ['containers', 'a boolean', isBoolean],
  ['aclProvider', 'a function (path) => ACL[]', (v) => typeof v === 'function'],
  ['observe', 'a boolean', isBoolean],
  ['resolver', 'a function (host, { signal }) => addresses', isFunction],
  ['compression', 'compressWith(...)', isFunction],
  ['sasl', 'a mechanism: saslDigestMd5({ username, password }), saslGssapi(...), or saslMechanism(yours)', (v) => typeof (v as Partial<SaslMechanism> | null)?.[SASL_LOGIN] === 'function'],
  ['retry', 'a RetryPolicy such as exponentialBackoff()', isPolicy],
];

/**
 * The one place client options are checked (BAD_ARGUMENT before any connection is made) and turned into the
 * session's options.
 */
export function sessionOptions(hosts: readonly Endpoint[], transport: Transport, clock: Clock, options: ClientOptions): SessionOptions {
  checkDuration('connectTimeoutMs', options.connectTimeoutMs, 'connect', { infinite: true });
  checkDuration('closeTimeoutMs', options.closeTimeoutMs, 'connect', { infinite: true });
  checkSignal(options.signal, 'connect');
  checkDuration('requestTimeoutMs', options.requestTimeoutMs, 'connect', { min: 1 });
  for (const [name, what, valid] of TYPED_OPTIONS) {
    const value: unknown = options[name];
    if (value !== undefined && !valid(value)) throw clientError('BAD_ARGUMENT', `${name} must be ${what}, got ${describeValue(value)}`, { op: 'connect' });
  }
  // The request's timeout is an int32 on the wire: a longer one (Infinity included) asks for the longest there
  // is, and the server negotiates it down to its maxSessionTimeout anyway.
  const requested = checkDuration('sessionTimeoutMs', options.sessionTimeoutMs, 'connect', { min: 1, infinite: true });
  return {
    hosts,
    transport,
    sessionTimeoutMs: Math.min(requested ?? DEFAULT_SESSION_TIMEOUT_MS, MAX_INT32),
    clock,
    ...passedOn(options, ['canBeReadOnly', 'maxFrameSize', 'reconnect', 'onFrame', 'random', 'closeTimeoutMs', 'sessionId', 'sessionPassword']),
    ...passedOn(options, ['resolver', 'sasl', 'requestTimeoutMs']),
    ...(options.serverVersion === undefined ? {} : { serverVersion: knownVersion(options.serverVersion) }),
    authInfo: (options.authInfo ?? []).map((a) => ({ scheme: a.scheme, auth: toBytes(a.auth, 'connect') })),
  };
}

/** Client options the session takes as they are. */
type PassedOn = {
  [K in keyof ClientOptions & keyof SessionOptions]: Exclude<ClientOptions[K], undefined> extends SessionOptions[K] ? K : never;
}[keyof ClientOptions & keyof SessionOptions];

/** The options among `keys` that are set, as the session takes them: an unset one stays absent, not undefined. */
function passedOn<K extends PassedOn>(options: ClientOptions, keys: readonly K[]): Pick<SessionOptions, K> {
  const out: Partial<Pick<SessionOptions, K>> = {};
  for (const key of keys) if (options[key] !== undefined) Object.assign(out, { [key]: options[key] });
  return out as Pick<SessionOptions, K>;
}

function knownVersion(text: string): ServerVersion {
  const version = parseVersion(`zookeeper.version=${text}`);
  if (version === undefined) throw clientError('BAD_ARGUMENT', `serverVersion "${text}" is not a version like "3.8.4"`, { op: 'connect' });
  return version;
}

/** What `waitConnected` waits on: the client's line of sessions. */
interface Connectable {
  waitConnected(signal?: AbortSignal): Promise<void>;
  readonly lastConnectionFailure: ZooKeeperError | undefined;
}

/**
 * Waits for the session to be established: TIMEOUT after `timeoutMs`, ABORTED if `signal` fires first, and the
 * first of `tlsFailures` at once (a certificate refused now is refused on every retry).
 */
export async function waitConnected(
  session: Connectable,
  clock: Clock,
  timeoutMs: number,
  signal?: AbortSignal,
  tlsFailures?: TlsFailures,
): Promise<void> {
  const stop = new AbortController();
  if (tlsFailures !== undefined) tlsFailures.onFailure = () => stop.abort();
  if (tlsFailures?.first !== undefined) stop.abort();
  let timedOut = false;
  const timer = new Timer(clock, () => {
    timedOut = true;
    stop.abort();
  });
  const onAbort = (): void => stop.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  if (signal?.aborted === true) stop.abort();
  if (timeoutMs !== Infinity) timer.arm(timeoutMs); // Infinity: no deadline, so no timer at all
  try {
    await session.waitConnected(stop.signal);
  } catch (e) {
    const tlsFailure = tlsFailures?.first;
    if (tlsFailure !== undefined) throw tlsFailure;
    if (timedOut) {
      // A bare "time ran out" hides the usual real reason (refused, wrong CA, a server closing on us): the last
      // connection failure is both the cause and part of the message.
      const last = session.lastConnectionFailure;
      const detail = `no session established within ${timeoutMs} ms${last === undefined ? '' : `; last failure: ${last.message}`}`;
      throw clientError('TIMEOUT', detail, { op: 'connect', cause: last ?? e });
    }
    throw e;
  } finally {
    timer.cancel();
    if (tlsFailures !== undefined) tlsFailures.onFailure = undefined;
    signal?.removeEventListener('abort', onAbort);
  }
}
