/**
 * A TLS-only standalone server: zoo.cfg with a `secureClientPort` and no plaintext `clientPort`, and what the
 * launcher's readiness probe presents to it (`srvr` over TLS: ZooKeeper's Netty factory answers four-letter words
 * on the secure port after the handshake).
 */

import type { TlsOptions } from '../../transport/types.js';

/**
 * What makes a TestingServer TLS-only: it listens on a `secureClientPort` alone (its `port`), with the Netty
 * connection factory, the given stores and the x509 auth provider, so a client certificate's subject becomes the
 * identity `x509:<DN>`.
 */
export interface TestingServerTls {
  /** The server's key and certificate chain (zoo.cfg `ssl.keyStore.*`). */
  readonly keyStore: {
    /** Its path. */
    readonly location: string;
    /** Its password; none for a PEM file without one. */
    readonly password?: string | undefined;
    /** `PKCS12` (default), `JKS` or `PEM` (a PEM key store holds the key and its certificate chain in one file). */
    readonly type?: 'PKCS12' | 'JKS' | 'PEM' | undefined;
  };
  /** The CA(s) whose client certificates it accepts (zoo.cfg `ssl.trustStore.*`). */
  readonly trustStore: TestingServerTls['keyStore'];
  /** `ssl.clientAuth`: `need` (default: a client without a certificate is refused), `want` or `none`. */
  readonly clientAuth?: 'need' | 'want' | 'none' | undefined;
  /**
   * What the kit's own connections (the readiness probe, `fourLetter()`) present, PEM as the client's `tls` option
   * takes it: the CA that signed the server's certificate and, unless `clientAuth` is `none`, a client certificate
   * and key the trust store accepts.
   */
  readonly probe: TlsOptions;
}

/** The zoo.cfg keys of a TLS-only server on `securePort` (they replace clientPort and clientPortAddress). */
export function tlsOnlyEntries(tls: TestingServerTls, securePort: number): Record<string, string> {
  const store = (prefix: string, s: TestingServerTls['keyStore']): Record<string, string> => ({
    [`${prefix}.location`]: s.location,
    ...(s.password === undefined ? {} : { [`${prefix}.password`]: s.password }),
    [`${prefix}.type`]: s.type ?? 'PKCS12',
  });
  return {
    secureClientPort: String(securePort),
    secureClientPortAddress: '127.0.0.1',
    serverCnxnFactory: 'org.apache.zookeeper.server.NettyServerCnxnFactory',
    ...store('ssl.keyStore', tls.keyStore),
    ...store('ssl.trustStore', tls.trustStore),
    'ssl.clientAuth': tls.clientAuth ?? 'need',
    'authProvider.x509': 'org.apache.zookeeper.server.auth.X509AuthenticationProvider',
  };
}
