/**
 * The client options' `tls`: checked, applied to the transport through its `withTls`, and the transport watched
 * for TLS failures retrying cannot mend, so `connect()` can report them at once instead of at its deadline.
 */

import { clientError, type ZooKeeperError } from '../errors.js';
import { tlsFailure } from '../transport/tls-failure.js';
import type { ByteStreamHandlers, Endpoint, TlsOptions, Transport } from '../transport/types.js';
import { checkKnownKeys } from './option-names.js';

const TLS_OPTION_NAMES = { ca: true, cert: true, key: true, servername: true } satisfies Record<keyof TlsOptions, true>;

/** The TLS failures the client's connections met: the first one, and `connect()`'s wait told of each. */
export class TlsFailures {
  first: ZooKeeperError | undefined;
  /** Set by `connect()` while it waits for the first session (one waiter: the client's own connect). */
  onFailure: (() => void) | undefined;

  report(error: ZooKeeperError): void {
    this.first ??= error;
    this.onFailure?.();
  }
}

/** The transport the client connects with: `tls` applied, and its TLS failures reported to `failures`. */
export function clientTransport(transport: Transport, tls: unknown, failures: TlsFailures): Transport {
  return watchTls(withTls(transport, tls), failures);
}

function withTls(transport: Transport, tls: unknown): Transport {
  if (tls === undefined || tls === false) return transport;
  const options = checkTls(tls);
  if (transport.withTls === undefined) {
    throw clientError('BAD_ARGUMENT', 'tls: this transport has no withTls; configure TLS on the transport itself', { op: 'connect' });
  }
  return transport.withTls(options);
}

function checkTls(tls: unknown): true | TlsOptions {
  if (tls === true) return true;
  if (typeof tls !== 'object' || tls === null || Array.isArray(tls)) {
    throw clientError('BAD_ARGUMENT', `tls must be true or an object { ca?, cert?, key?, servername? }, got ${String(tls)}`, { op: 'connect' });
  }
  checkKnownKeys(tls, Object.keys(TLS_OPTION_NAMES), 'options.tls', 'connect');
  const isText = (v: unknown): boolean => typeof v === 'string';
  for (const [name, value] of Object.entries(tls)) {
    if (value === undefined || isText(value) || (name === 'ca' && Array.isArray(value) && value.every(isText))) continue;
    const pem = name === 'servername' ? '' : ` (PEM text, not a file name or bytes)${name === 'ca' ? ' or an array of them' : ''}`;
    throw clientError('BAD_ARGUMENT', `tls.${name} must be a string${pem}`, { op: 'connect' });
  }
  const fields = tls as TlsOptions;
  if ((fields.cert === undefined) !== (fields.key === undefined)) {
    throw clientError('BAD_ARGUMENT', 'tls.cert and tls.key go together: a client certificate needs its key', { op: 'connect' });
  }
  return tls as TlsOptions;
}

/** The transport with each TLS failure (at connect or when the stream ends) made a TLS_ERROR and reported. */
function watchTls(transport: Transport, failures: TlsFailures): Transport {
  const typed = (error: unknown, endpoint: Endpoint): unknown => {
    const failure = tlsFailure(error, `${endpoint.host}:${endpoint.port}`);
    if (failure === undefined) return error;
    failures.report(failure);
    return failure;
  };
  return {
    ...(transport.resolver === undefined ? {} : { resolver: transport.resolver }),
    ...(transport.withTls === undefined ? {} : { withTls: transport.withTls.bind(transport) }),
    async connect(endpoint, handlers, options) {
      const watched: ByteStreamHandlers = {
        onData: (chunk) => handlers.onData(chunk),
        onClose: (error) => handlers.onClose(error === undefined ? undefined : (typed(error, endpoint) as Error)),
      };
      try {
        return await transport.connect(endpoint, watched, options);
      } catch (e) {
        throw typed(e, endpoint);
      }
    },
  };
}
