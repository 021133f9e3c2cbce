/** A 3-member ensemble set up for dynamic reconfiguration as ZooKeeper's reconfig guide does it. */

import { createHash } from 'node:crypto';
import { startEnsemble, type ZkEnsemble } from './zookeeper.js';

/**
 * reconfigEnabled, no standalone fallback, and `superUser` (`super:password`, for the digest scheme) as the
 * superuser, whom the server lets reconfig.
 */
export function startReconfigEnsemble(superUser: string): Promise<ZkEnsemble> {
  const digest = createHash('sha1').update(superUser).digest('base64');
  return startEnsemble(3, {
    extraConfig: {
      reconfigEnabled: 'true',
      standaloneEnabled: 'false',
      // Not a zoo.cfg key: the server turns it into the system property zookeeper.DigestAuthenticationProvider.superDigest.
      'DigestAuthenticationProvider.superDigest': `${superUser.slice(0, superUser.indexOf(':'))}:${digest}`,
    },
  });
}
