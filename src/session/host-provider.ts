/**
 * Which server the next connect attempt goes to, and how that changes when the server list does.
 *
 * The list is shuffled once, then taken round-robin, so many clients with one connect string spread over the
 * ensemble. When the list changes (`update`: `updateServerList` or the ensemble tracker after a reconfig) the
 * rebalancing rule of ZooKeeper's StaticHostProvider (ZOOKEEPER-1355) decides whether this client moves:
 *
 * - the list grew and our server is still in it: move to one of the added servers with probability
 *   1 - old/new, the share of clients the old servers must shed for every server to carry the same load;
 * - the list grew and our server left: move to an added server for sure;
 * - the list shrank or kept its size and our server is in it: stay (our server's load grows, as it should);
 * - the list shrank or kept its size and our server left: move, to a kept server with probability
 *   kept·(old - new) / (new·(old - kept)), else to an added one, so the kept servers take no more than their share.
 *
 * A move picks from the chosen group first and falls back on the other; once every candidate was tried, or a
 * session is established, the plain round-robin goes on over the new list.
 */

import type { Endpoint } from '../transport/types.js';
import { shuffled } from './connect-string.js';

/** `host:port`, the identity of a list entry. */
export function endpointKey(endpoint: Endpoint): string {
  return `${endpoint.host}:${endpoint.port}`;
}

/** Whether `endpoint` is `entry`: the same host name and port, or the same resolved address and port. */
export function sameServer(entry: Endpoint, endpoint: Endpoint): boolean {
  if (entry.port !== endpoint.port) return false;
  return entry.host === endpoint.host || (endpoint.address !== undefined && entry.host === endpoint.address);
}

/** What a list change means for this client (see the module comment). */
export interface Rebalance {
  /** The client leaves its server: the session's connection is dropped and the next attempt goes by `pAdded`. */
  readonly move: boolean;
  /** Entries of the new list that were not in the old one. */
  readonly added: readonly Endpoint[];
  /** Entries of the new list that were in the old one too. */
  readonly kept: readonly Endpoint[];
  /** While moving, the chance that an attempt takes an added server rather than a kept one. */
  readonly pAdded: number;
}

/**
 * The rebalancing decision, a pure function (table-tested): `before` the old list, `after` the new one (in the
 * order it will be tried), `mine` the server this client is on (or would try next), `random` in [0, 1).
 */
export function planRebalance(
  before: readonly Endpoint[],
  after: readonly Endpoint[],
  mine: Endpoint,
  random: () => number,
): Rebalance {
  const old = new Set(before.map(endpointKey));
  const added = after.filter((e) => !old.has(endpointKey(e)));
  const kept = after.filter((e) => old.has(endpointKey(e)));
  const stays = after.some((e) => sameServer(e, mine));
  // Grown: leave for an added server, for sure when ours left, else with the share the old servers must shed.
  if (after.length > before.length) return { move: !stays || random() < 1 - before.length / after.length, added, kept, pAdded: 1 };
  // Shrunk or the same size: stay if ours is kept. (Every old server is kept yet ours is not among them: it was
  // known by another name; go to a kept one.)
  const spare = before.length - kept.length;
  const pKept = spare === 0 ? 1 : (kept.length * (before.length - after.length)) / (after.length * spare);
  return { move: !stays, added, kept, pAdded: 1 - pKept };
}

/** A move in progress: the candidates not tried yet, and the odds between them. */
interface Move {
  readonly added: Endpoint[];
  readonly kept: Endpoint[];
  readonly pAdded: number;
}

export class HostProvider {
  #hosts: readonly Endpoint[];
  #index = -1;
  /** Where the last session was established, or -1 (the first entry stands for it when nothing was). */
  #last = -1;
  #move: Move | undefined;
  readonly #random: () => number;

  constructor(hosts: readonly Endpoint[], random: () => number = Math.random) {
    this.#random = random;
    this.#hosts = shuffled(hosts, random);
  }

  get size(): number {
    return this.#hosts.length;
  }

  /** Every host, in the order they are tried. */
  all(): readonly Endpoint[] {
    return this.#hosts;
  }

  /** Makes `endpoint` the next one `next` returns (a read-write server found while on a read-only one). */
  preferNext(endpoint: Endpoint): void {
    const i = this.#hosts.findIndex((h) => sameServer(h, endpoint));
    if (i < 0) return;
    this.#move = undefined;
    this.#index = (i - 1 + this.#hosts.length) % this.#hosts.length;
  }

  /** The host the next connect attempt goes to. */
  next(): Endpoint {
    const moving = this.#move === undefined ? undefined : this.#nextMove(this.#move);
    if (moving !== undefined) {
      this.#index = this.#hosts.indexOf(moving);
      return moving;
    }
    this.#move = undefined;
    this.#index = (this.#index + 1) % this.#hosts.length;
    return this.#hosts[this.#index] as Endpoint;
  }

  /** A session was established on the host `next` returned last: a move is over. */
  connected(): void {
    this.#last = this.#index;
    this.#move = undefined;
  }

  /**
   * Replaces the list. `current` is the server the session is on or connecting to, if any. True when the client
   * should leave it (the caller drops the connection; the next attempts follow the rebalancing rule). The same set
   * of servers in another order changes nothing.
   */
  update(hosts: readonly Endpoint[], current: Endpoint | undefined): boolean {
    const unique = [...new Map(hosts.map((h) => [endpointKey(h), h])).values()];
    const before = this.#hosts;
    const known = new Set(before.map(endpointKey));
    if (unique.length === before.length && unique.every((h) => known.has(endpointKey(h)))) return false;
    const after = shuffled(unique, this.#random);
    const mine = current ?? (this.#move === undefined ? undefined : this.#nextMove(this.#move)) ?? (before[Math.max(this.#last, 0)] as Endpoint);
    const plan = planRebalance(before, after, mine, this.#random);
    this.#hosts = after;
    if (plan.move) {
      this.#move = { added: plan.added.slice(), kept: plan.kept.slice(), pAdded: plan.pAdded };
      this.#index = -1;
    } else {
      this.#move = undefined;
      // Carry on from where we are in the new order, so the server we are on is not retried first.
      this.#index = after.findIndex((h) => sameServer(h, mine));
    }
    this.#last = this.#index;
    return plan.move;
  }

  /** The next candidate of a move: the group the odds choose, else the other; undefined when none is left. */
  #nextMove(move: Move): Endpoint | undefined {
    const takeAdded = this.#random() < move.pAdded;
    if (move.added.length > 0 && (takeAdded || move.kept.length === 0)) return move.added.shift();
    return move.kept.shift() ?? move.added.shift();
  }
}
