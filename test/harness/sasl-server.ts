import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FAST_START_JVM_FLAGS } from '../../src/testing/local-server/index.js';
import type { ZkServerOptions } from './zookeeper.js';

/**
 * Server options for SASL DIGEST-MD5 the way Kafka-style ensembles configure it: a JAAS `Server` section with
 * ZooKeeper's DigestLoginModule listing the users, the JVM pointed at it (java.security.auth.login.config), and the
 * SASL authentication provider enabled (`authProvider.sasl` in zoo.cfg becomes the system property
 * zookeeper.authProvider.sasl). Returns the options for startZooKeeper and a cleanup for the JAAS file.
 */
export function saslDigestServer(users: Record<string, string>): { options: ZkServerOptions; cleanup(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zkwire-jaas-'));
  const jaas = path.join(dir, 'jaas.conf');
  const entries = Object.entries(users).map(([user, password]) => `  user_${user}="${password}"`);
  fs.writeFileSync(jaas, `Server {\n  org.apache.zookeeper.server.auth.DigestLoginModule required\n${entries.join('\n')};\n};\n`);
  return {
    options: {
      jvmFlags: [...FAST_START_JVM_FLAGS, `-Djava.security.auth.login.config=${jaas}`],
      extraConfig: { 'authProvider.sasl': 'org.apache.zookeeper.server.auth.SASLAuthenticationProvider' },
    },
    cleanup: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}
