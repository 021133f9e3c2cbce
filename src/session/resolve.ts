/**
 * Host names resolved before each connect attempt, as ZooKeeper's StaticHostProvider does: a name whose addresses
 * change (a member replaced behind the same DNS name, a Kubernetes pod rescheduled) is followed without a new
 * client. Every address the resolver gives is a candidate; one is picked at random, so clients given one name for
 * the whole ensemble (a DNS round robin) spread over it.
 */

import { clientError } from '../errors.js';
import type { Endpoint, Resolver } from '../transport/types.js';

export type { Resolver } from '../transport/types.js';

/** `entry` with the address to dial, picked at random among those the resolver gives. */
export async function resolveEndpoint(entry: Endpoint, resolver: Resolver, random: () => number, signal: AbortSignal): Promise<Endpoint> {
  let addresses: readonly string[];
  try {
    addresses = await resolver(entry.host, { signal });
  } catch (e) {
    throw clientError('CONNECTIONLOSS', `cannot resolve ${entry.host}${e instanceof Error ? `: ${e.message}` : ''}`, { cause: e });
  }
  if (!Array.isArray(addresses) || addresses.some((a) => typeof a !== 'string' || a === '')) {
    throw clientError('CONNECTIONLOSS', `the resolver gave ${JSON.stringify(addresses)} for ${entry.host}, not a list of addresses`);
  }
  if (addresses.length === 0) return entry;
  const address = addresses[Math.floor(random() * addresses.length)] as string;
  return { host: entry.host, port: entry.port, address };
}
