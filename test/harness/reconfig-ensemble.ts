/** A 3-member ensemble set up for dynamic reconfiguration as ZooKeeper's reconfig guide does it. */

import { createHash } from 'node:crypto';
import { startEnsemble, type ZkEnsemble } from './zookeeper.js';

/**
 * reconfigEnabled, no standalone fallback, and `superUser` (`super:password`, for the digest scheme) as the
 * superuser, whom the server lets reconfig.
 */
export function startReconfigEnsemble(superUser: string): Promise<ZkEnsemble> {
  return startEnsemble(3, { extraConfig: reconfigServerConfig(superUser) });
}

/** The zoo.cfg keys of such an ensemble's members (also what a member joining it later needs). */
export function reconfigServerConfig(superUser: string): Record<string, string> {
  const digest = createHash('sha1').update(superUser).digest('base64');
  return {
    reconfigEnabled: 'true',
    standaloneEnabled: 'false',
    // Not a zoo.cfg key: the server turns it into the system property zookeeper.DigestAuthenticationProvider.superDigest.
    'DigestAuthenticationProvider.superDigest': `${superUser.slice(0, superUser.indexOf(':'))}:${digest}`,
  };
}
