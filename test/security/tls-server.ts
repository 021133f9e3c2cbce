/**
 * A throwaway ZooKeeper that also listens on a TLS `secureClientPort`.
 *
 * zoo.cfg alone configures TLS, no JVM system property is needed: ZooKeeper 3.8's config parser turns every key it
 * does not know into the system property `zookeeper.<key>` before the server starts, so `serverCnxnFactory` and the
 * `ssl.*` keys land where the Netty factory and its X509 utilities read them. (Debian's class path needs
 * netty-codec.jar for the Netty factory; the launcher adds it.)
 *
 * The plain clientPort stays open: readiness is probed there with `srvr`, as for every harness server.
 */

import { freePort } from '../../src/testing/local-server/index.js';
import { startZooKeeper, type ZkServer } from '../harness/zookeeper.js';
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
