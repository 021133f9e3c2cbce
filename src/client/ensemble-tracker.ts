/**
 * Follows the ensemble's membership, as Curator's EnsembleTracker: reads /zookeeper/config on every new session
 * and after every change to it (a `reconfig`), and hands the members' client addresses to updateServerList. So a
 * client keeps its session when the members it was given are replaced, and one given a single member learns the
 * others and survives that member's loss.
 *
 * Only a client that reaches the members at the addresses the configuration lists follows it: the server it is on
 * must be among the members the configuration names (by host or by the address it dialled), or among those of the
 * configuration it followed last (the one a reconfig replaced). A client that reaches the ensemble another way
 * (a proxy, a load balancer, NAT) is left alone: following the configuration would go around them.
 *
 * Quiet by design: a server with nothing to follow (standalone: an empty configuration; 3.4: no such node; a node
 * the client may not read) or a client that does not reach the members directly ends the tracking after one read,
 * with no watch left behind and no error reported. A lost connection or an expired session only means reading again
 * once connected. Only the host list changes: the chroot is the client's own.
 */

import { isCode } from '../errors.js';
import { sameServer } from '../session/host-provider.js';
import type { Endpoint } from '../transport/types.js';
import type { ClientContext } from './context.js';
import { configuredMembers } from './ensemble-config.js';
import { getConfig } from './node-reads.js';
import type { NodeData, Watched } from './types.js';

/** Codes after which the configuration is simply read again, once a session is connected. */
const TRANSIENT = ['CONNECTIONLOSS', 'SESSIONEXPIRED', 'SESSIONMOVED'] as const;

export class EnsembleTracker {
  readonly #ctx: ClientContext;
  readonly #update: (hosts: readonly Endpoint[]) => void;
  /** The members of the configuration followed last. */
  #followed: readonly Endpoint[] = [];

  constructor(ctx: ClientContext, update: (hosts: readonly Endpoint[]) => void) {
    this.#ctx = ctx;
    this.#update = update;
  }

  /** Runs until the client ends or there turns out to be no membership for it to follow. */
  start(): void {
    void this.#run();
  }

  async #run(): Promise<void> {
    const sessions = this.#ctx.sessions;
    // The first read sets no watch: where there is nothing to follow, nothing is left registered on the server.
    let watch = false;
    for (;;) {
      try {
        await sessions.waitConnected();
      } catch {
        return; // the client ended
      }
      let read: NodeData | (NodeData & Watched);
      try {
        read = await getConfig(this.#ctx, { watch });
      } catch (e) {
        if (sessions.terminal || !isCode(e, ...TRANSIENT)) return;
        continue;
      }
      const on = this.#ctx.session.connectedEndpoint;
      if (on === undefined) continue; // the link went meanwhile: read again on the next one
      const members = configuredMembers(new TextDecoder().decode(read.data));
      const direct = members.length > 0 && [...members, ...this.#followed].some((m) => sameServer(m, on));
      if (direct) {
        this.#update(members);
        this.#followed = members;
      } else if (!watch) {
        return;
      }
      if (!('watch' in read)) {
        watch = true;
        continue;
      }
      // A change, or the session's end (the loop then waits for the next session, or returns once the client ended).
      await read.watch;
    }
  }
}
