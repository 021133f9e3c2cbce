import fs from 'node:fs';
import path from 'node:path';
import { FAST_START_JVM_FLAGS } from '../../src/testing/local-server/index.js';
import type { TestingKdc } from '../../src/testing/kdc.js';
import type { ZkServerOptions } from '../harness/zookeeper.js';

/**
 * Server options for SASL GSSAPI as Kerberized ensembles configure it: a keytab for zookeeper/localhost, a JAAS
 * `Server` section with the JDK's Krb5LoginModule on that keytab, the JVM pointed at the realm's krb5.conf, the SASL
 * authentication provider, and kerberos.removeHostFromPrincipal as most deployments set it (a host-based client
 * principal then maps to one identity across hosts).
 */
export async function gssapiServer(kdc: TestingKdc): Promise<ZkServerOptions> {
  const service = 'zookeeper/localhost';
  await kdc.addPrincipal(service);
  const keytab = await kdc.keytab([service], 'zookeeper.keytab');
  const jaas = path.join(kdc.dir, 'jaas.conf');
  fs.writeFileSync(
    jaas,
    `Server {\n  com.sun.security.auth.module.Krb5LoginModule required\n  useKeyTab=true\n  keyTab="${keytab}"\n  storeKey=true\n  useTicketCache=false\n  isInitiator=false\n  principal="${service}@${kdc.realm}";\n};\n`,
  );
  return {
    jvmFlags: [...FAST_START_JVM_FLAGS, `-Djava.security.auth.login.config=${jaas}`, `-Djava.security.krb5.conf=${kdc.krb5ConfPath}`],
    extraConfig: {
      'authProvider.sasl': 'org.apache.zookeeper.server.auth.SASLAuthenticationProvider',
      'kerberos.removeHostFromPrincipal': 'true',
    },
  };
}
