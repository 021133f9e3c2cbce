/**
 * A throwaway ZooKeeper that also listens on a TLS `secureClientPort`.
 *
 * zoo.cfg alone configures TLS, no JVM system property is needed: ZooKeeper 3.8's config parser turns every key it
 * does not know into the system property `zookeeper.<key>` before the server starts, so `serverCnxnFactory` and the
 * `ssl.*` keys land where the Netty factory and its X509 utilities read them. (Debian's class path needs
 * netty-codec.jar for the Netty factory; the launcher adds it.)
 *
 * startTlsZooKeeper keeps the plain clientPort open beside it, for the tests that compare the two ports on one
 * server; startTlsOnlyZooKeeper is the kit's TLS-only server (no plaintext port; readiness probed with `srvr` over
 * TLS), for every test that needs only the secure port.
 */

import { freePort } from '../../src/testing/local-server/index.js';
import { startZooKeeper, type ZkServer } from '../harness/zookeeper.js';
import { harnessCleanup } from '../harness/exit-cleanup.js';
import { realClock } from '../harness/real-timers.js';
import { TestingServer } from '../../src/testing/server.js';
import type { TestingServerTls } from '../../src/testing.js';
import type { TestPki } from './certs.js';

export interface TlsZooKeeper {
  readonly server: ZkServer;
  /** `127.0.0.1:<secureClientPort>` */
  readonly secureConnectString: string;
  readonly securePort: number;
}

/** The zoo.cfg keys that turn on the TLS port with the test PKI's stores. */
export function tlsConfig(pki: TestPki, securePort: number): Record<string, string> {
  return {
    secureClientPort: String(securePort),
    secureClientPortAddress: '127.0.0.1',
    serverCnxnFactory: 'org.apache.zookeeper.server.NettyServerCnxnFactory',
    'ssl.keyStore.location': pki.keyStore,
    'ssl.keyStore.password': pki.storePassword,
    'ssl.keyStore.type': 'PKCS12',
    'ssl.trustStore.location': pki.trustStore,
    'ssl.trustStore.password': pki.storePassword,
    'ssl.trustStore.type': 'PKCS12',
    // "need" is ZooKeeper's default; spelled out because the no-client-certificate test depends on it.
    'ssl.clientAuth': 'need',
    // The provider that maps a client certificate to the identity x509:<subject DN>, named as operators do.
    'authProvider.x509': 'org.apache.zookeeper.server.auth.X509AuthenticationProvider',
  };
}

export async function startTlsZooKeeper(pki: TestPki): Promise<TlsZooKeeper> {
  const securePort = await freePort();
  const server = await startZooKeeper({ extraConfig: tlsConfig(pki, securePort) });
  return { server, securePort, secureConnectString: `127.0.0.1:${securePort}` };
}

/** The kit's TLS-only server (TestingServer with `tls`: a secureClientPort and no plaintext port) on the test PKI. */
export function startTlsOnlyZooKeeper(pki: TestPki): Promise<TestingServer> {
  return TestingServer.start({ clock: realClock, cleanup: harnessCleanup(), tls: tlsOnlyOptions(pki) });
}

/** `tls` for TestingServer.start: the PKI's stores, and its CA and client certificate for the kit's probe. */
export function tlsOnlyOptions(pki: TestPki): TestingServerTls {
  const store = (location: string) => ({ location, password: pki.storePassword, type: 'PKCS12' as const });
  return {
    keyStore: store(pki.keyStore),
    trustStore: store(pki.trustStore),
    probe: { ca: pki.ca, cert: pki.client.cert, key: pki.client.key },
  };
}
