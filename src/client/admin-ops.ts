/**
 * Ensemble administration: `reconfig`, ZooKeeper's dynamic reconfiguration (3.5+), as the Java client's
 * ZooKeeperAdmin.reconfigure. Either an incremental change (servers joining and/or leaving) or a bulk one (the whole
 * new membership), optionally conditional on the configuration version it replaces. The server refuses it unless
 * `reconfigEnabled=true`, and only for a superuser (or with skipACL), since it writes /zookeeper/config.
 *
 * A function of the client rather than a method, as Java keeps it in ZooKeeperAdmin rather than ZooKeeper: few
 * applications change their ensemble, and only those that import it carry it.
 */

import { clientContext, type ZooKeeperClient } from '../client.js';
import { clientError } from '../errors.js';
import { guard, ok } from './context.js';
import type { NodeData, ReconfigChange } from './types.js';

/**
 * Changes the ensemble's membership through `client`'s session: `reconfig(zk, { leaving: [3] })`,
 * `reconfig(zk, { joining: 'server.4=…' })` or `reconfig(zk, { newMembers: [...] })`, with `fromConfig` to apply it
 * only to that configuration version (BADVERSION otherwise). The servers need `reconfigEnabled=true`, and the session
 * a superuser identity (or the servers skipACL), else NOAUTH. Resolves with the new configuration, as getConfig
 * shows it.
 */
export function reconfig(client: ZooKeeperClient, change: ReconfigChange): Promise<NodeData> {
  return guard(() => {
    const ctx = clientContext(client, 'reconfig');
    if (typeof change !== 'object' || change === null) throw clientError('BAD_ARGUMENT', 'reconfig takes { joining, leaving } or { newMembers }', { op: 'reconfig' });
    const joining = serverList(change.joining, 'joining');
    const leaving = serverList(change.leaving, 'leaving');
    const newMembers = serverList(change.newMembers, 'newMembers');
    if (newMembers !== null && (joining !== null || leaving !== null)) {
      throw clientError('BAD_ARGUMENT', 'a reconfig is either incremental (joining/leaving) or bulk (newMembers), not both', { op: 'reconfig' });
    }
    if (newMembers === null && joining === null && leaving === null) {
      throw clientError('BAD_ARGUMENT', 'reconfig needs joining, leaving or newMembers', { op: 'reconfig' });
    }
    const curConfigId = configVersion(change.fromConfig);
    const body = { joiningServers: joining, leavingServers: leaving, newMembers, curConfigId };
    return ctx.send('reconfig', undefined, 'reconfig', body, change, (reply) => {
      ok(reply, 'reconfig', undefined);
      const { data, stat } = reply.body;
      return { data: data ?? new Uint8Array(0), stat };
    });
  });
}

/** A comma-separated list for the wire (null when absent). Leaving servers may be given as ids. */
function serverList(value: string | readonly (string | number)[] | undefined, name: string): string | null {
  if (value === undefined) return null;
  const items = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(items) || items.length === 0) throw clientError('BAD_ARGUMENT', `reconfig ${name} must be a non-empty string or list`, { op: 'reconfig' });
  const parts = items.map((item) => {
    if (typeof item === 'number' && Number.isSafeInteger(item) && item >= 0) return String(item);
    if (typeof item === 'string' && item.trim() !== '') return item.trim();
    throw clientError('BAD_ARGUMENT', `reconfig ${name}: ${JSON.stringify(item)} is not a server spec or id`, { op: 'reconfig' });
  });
  return parts.join(',');
}

/** The configuration version the change must apply to: -1 (any) by default. Hex as getConfig's `version=` line shows it. */
function configVersion(value: bigint | number | string | undefined): bigint {
  if (value === undefined) return -1n;
  try {
    if (typeof value === 'bigint') return value;
    if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
    if (typeof value === 'string' && /^(0x)?[0-9a-f]+$/i.test(value)) return BigInt(value.startsWith('0x') ? value : `0x${value}`);
  } catch {
    // Falls through to the error below.
  }
  throw clientError('BAD_ARGUMENT', `reconfig fromConfig ${String(value)} is not a configuration version`, { op: 'reconfig' });
}
