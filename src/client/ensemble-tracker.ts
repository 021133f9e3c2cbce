/**
 * Follows the ensemble's membership, as Curator's EnsembleTracker: reads /zookeeper/config on every new session
 * and after every change to it (a `reconfig`), and hands the members' client addresses to updateServerList. So a
 * client keeps its session when the members it was given are replaced, and one given a single member learns the
 * others and survives that member's loss.
 *
 * Quiet by design: a server with nothing to follow (standalone: an empty configuration; 3.4: no such node; a node
 * the client may not read) ends the tracking after one read, with no watch left behind and no error reported. A
 * lost connection or an expired session only means reading again once connected. Only the host list changes: the
 * chroot is the client's own.
 */

import { isCode } from '../errors.js';
import type { Endpoint } from '../transport/types.js';
import type { ClientContext } from './context.js';
import { configuredMembers } from './ensemble-config.js';
import { getConfig } from './node-reads.js';
import type { NodeData, Watched } from './types.js';

/** Codes after which the configuration is simply read again, once a session is connected. */
const TRANSIENT = ['CONNECTIONLOSS', 'SESSIONEXPIRED', 'SESSIONMOVED', 'OPERATIONTIMEOUT'] as const;

export class EnsembleTracker {
  readonly #ctx: ClientContext;
  readonly #update: (hosts: readonly Endpoint[]) => void;

  constructor(ctx: ClientContext, update: (hosts: readonly Endpoint[]) => void) {
    this.#ctx = ctx;
    this.#update = update;
  }

  /** Runs until the client ends or the servers turn out to have no membership to follow. */
  start(): void {
    void this.#run();
  }

  async #run(): Promise<void> {
    const sessions = this.#ctx.sessions;
    // The first read sets no watch: on a server with nothing to follow, nothing is left registered.
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
      const members = configuredMembers(new TextDecoder().decode(read.data));
      if (members.length === 0 && !watch) return;
      if (members.length > 0) this.#update(members);
      if (!('watch' in read)) {
        watch = true;
        continue;
      }
      // A change, or the session's end (the loop then waits for the next session, or returns once the client ended).
      await read.watch;
    }
  }
}
