/**
 * A throwaway ZooKeeper that also listens on a TLS `secureClientPort`.
 *
 * zoo.cfg alone configures TLS, no JVM system property is needed: ZooKeeper 3.8's config parser turns every key it
 * does not know into the system property `zookeeper.<key>` before the server starts, so `serverCnxnFactory` and the
 * `ssl.*` keys land where the Netty factory and its X509 utilities read them.
 *
 * But the server cannot be started with the harness's startZooKeeper yet: Debian's zookeeper.jar manifest lists
 * netty-handler/-transport/-buffer/-common but not netty-codec, and Netty's SslHandler extends
 * io.netty.handler.codec.ByteToMessageDecoder, so every connection to the Netty factory dies with
 * NoClassDefFoundError. Until the harness's install discovery adds /usr/share/java/netty-codec.jar to the Debian class
 * path, this helper launches the JVM itself through the harness's exported pieces (install discovery, zoo.cfg builder,
 * ServerProcess), with that one jar appended. After that fix it collapses to `startZooKeeper({extraConfig})`.
 *
 * The plain clientPort stays open: readiness is probed there with `srvr`, as for every harness server.
 */

import fs from 'node:fs';
import path from 'node:path';
import { freePorts, makeServerDir, removeServerDir } from '../../src/tools/local-server/index.js';
import { standaloneConfig } from '../harness/zk-config.js';
import { requireZooKeeperInstall, type ZooKeeperInstall } from '../harness/zk-install.js';
import { ServerProcess, STANDALONE_MAIN, type ZkServer } from '../harness/zk-process.js';
import type { TestPki } from './certs.js';

const DEBIAN_NETTY_CODEC_JAR = '/usr/share/java/netty-codec.jar';
const PORT_ATTEMPTS = 3;

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
  };
}

export async function startTlsZooKeeper(pki: TestPki): Promise<TlsZooKeeper> {
  const install = withNettyCodec(requireZooKeeperInstall(process.env, 'tests'));
  for (let attempt = 1; ; attempt++) {
    const root = makeServerDir('tls');
    const dataDir = path.join(root, 'data');
    const configFile = path.join(root, 'zoo.cfg');
    let server: ServerProcess | undefined;
    try {
      const [port, securePort] = await freePorts(2);
      if (port === undefined || securePort === undefined) throw new Error('no free ports');
      fs.mkdirSync(dataDir);
      fs.writeFileSync(configFile, standaloneConfig({ extraConfig: tlsConfig(pki, securePort) }, dataDir, port));
      server = new ServerProcess({
        install,
        mainClass: STANDALONE_MAIN,
        configFile,
        logFile: path.join(root, 'server.log'),
        host: '127.0.0.1',
        port,
        servingModes: ['standalone'],
        startTimeoutMs: 30_000,
        afterStop: () => removeServerDir(root),
      });
      await server.start();
      return { server, securePort, secureConnectString: `127.0.0.1:${securePort}` };
    } catch (error) {
      // Another process can take a probed port before the JVM binds it; fresh ports fix that.
      const retry = attempt < PORT_ATTEMPTS && server !== undefined && server.failedToBind();
      if (server === undefined) removeServerDir(root);
      else await server.stop();
      if (!retry) throw error;
    }
  }
}

/** The install's class path plus Debian's netty-codec jar when the class path has no netty-codec of its own. */
function withNettyCodec(install: ZooKeeperInstall): ZooKeeperInstall {
  if (/netty-codec[^/]*\.jar|netty-all[^/]*\.jar/.test(install.classpath)) return install;
  if (!fs.existsSync(DEBIAN_NETTY_CODEC_JAR)) return install;
  return { ...install, classpath: `${install.classpath}${path.delimiter}${DEBIAN_NETTY_CODEC_JAR}` };
}
