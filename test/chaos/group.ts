/**
 * Group membership in the chaos run. Member slots each keep a client with a GroupMember (id m0, m1, ...) on one
 * group path, across session expiries: the member's ephemeral node goes with an expired session and the member
 * makes it again on the client's new session. The worker process (paused-process.ts) is a member too.
 *
 * At quiescence (faults over, nothing else writing) every live member must be in the group as it should be, within
 * a grace period: its node exists under the group, owned by its client's current session, and its own view of the
 * group (getCurrentMembers()) equals the server's children. Each member that is not counts once in "member missing
 * at quiescence".
 */

import type { ZooKeeperClient } from '../../src/node.js';
import { ZooKeeperError } from '../../src/errors.js';
import { GroupMember } from '../../src/recipes/nodes/group-member.js';
import type { OpTracker } from './op-tracker.js';
import { trackedClient } from './tracked-client.js';
import type { Watchdog } from './watchdog.js';
import { boundsFor } from './workers.js';
import { connectSlot, whenEnded } from './election.js';

export interface GroupFigures {
  /** Members checked at quiescence, and how many were missing or saw the group wrong. */
  membersChecked: number;
  membersMissing: number;
  notes: string[];
}

export interface GroupContext {
  readonly connectStringOf: (slot: string) => string;
  readonly sessionTimeoutMs: number;
  readonly groupPath: string;
  readonly tracker: OpTracker;
  readonly watchdog: Watchdog;
  readonly onClient: (session: string, client: ZooKeeperClient) => void;
}

/** A member as the check sees it: the one in this process, or the worker process's (through its report). */
export interface MemberView {
  readonly id: string;
  /** Its client's current session (0x… lower case), what it sees of the group, or why it cannot say. */
  view(): Promise<{ session: string; members: string[] } | { unavailable: string }>;
}

export class GroupRun {
  readonly figures: GroupFigures = { membersChecked: 0, membersMissing: 0, notes: [] };
  readonly #members = new Set<MemberView>();
  readonly #stop = new AbortController();

  constructor(private readonly ctx: GroupContext) {}

  /** Runs `n` member slots until stop(); resolves when all have left the group. */
  run(n: number): Promise<void> {
    return Promise.all(Array.from({ length: n }, (_, i) => this.#memberSlot(i))).then(() => undefined);
  }

  /** Counts a member that lives elsewhere (the worker process) in the check. */
  add(member: MemberView): void {
    this.#members.add(member);
  }

  /** Once nothing writes: every member must be in the group and see it as the server has it (given `withinMs`). */
  async check(fresh: ZooKeeperClient, withinMs: number): Promise<void> {
    const deadline = Date.now() + withinMs;
    for (const member of this.#members) {
      this.figures.membersChecked++;
      let wrong: string | undefined;
      for (;;) {
        wrong = await this.#wrong(fresh, member);
        if (wrong === undefined || Date.now() > deadline) break;
        await pause(200);
      }
      if (wrong !== undefined) {
        this.figures.membersMissing++;
        if (this.figures.notes.length < 10) this.figures.notes.push(`member ${member.id}: ${wrong}`);
      }
    }
  }

  /** Ends the member slots: each leaves the group (its node deleted) and stops. */
  stop(): void {
    this.#stop.abort();
  }

  /** What is wrong with `member` now, or undefined. */
  async #wrong(fresh: ZooKeeperClient, member: MemberView): Promise<string | undefined> {
    const seen = await member.view();
    if ('unavailable' in seen) return seen.unavailable;
    await fresh.sync(this.ctx.groupPath).catch(() => undefined);
    const children = (await fresh.getChildren(this.ctx.groupPath).catch(() => [] as string[])).sort();
    const stat = await fresh.exists(`${this.ctx.groupPath}/${member.id}`).catch(() => null);
    if (stat === null) return 'its node is missing';
    const owner = `0x${BigInt.asUintN(64, stat.ephemeralOwner).toString(16)}`;
    if (owner !== seen.session) return `its node is owned by ${owner}, its client's session is ${seen.session}`;
    const view = [...seen.members].sort();
    if (view.join(',') !== children.join(',')) return `it sees [${view.join(', ')}], the server has [${children.join(', ')}]`;
    return undefined;
  }

  async #memberSlot(slot: number): Promise<void> {
    const T = this.ctx.sessionTimeoutMs;
    const bounds = boundsFor(T);
    const stop = this.#stop.signal;
    const id = `m${slot}`;
    for (let generation = 0; !stop.aborted; generation++) {
      const session = `${id}.${generation}`;
      const client = await connectSlot(this.ctx.connectStringOf(id), T, this.ctx.tracker, session);
      if (client === undefined) {
        await pause(200);
        continue;
      }
      this.ctx.onClient(session, client);
      this.ctx.watchdog.watch(session, client);
      const tracked = trackedClient(client, this.ctx.tracker, session, bounds.requestMs);
      const member = new GroupMember(tracked, this.ctx.groupPath, id);
      const view: MemberView = {
        id,
        view: async () => {
          if (client.state !== 'connected') return { unavailable: `its client is ${client.state}` };
          try {
            return { session: client.sessionIdHex.toLowerCase(), members: [...member.getCurrentMembers().keys()] };
          } catch (err) {
            return { unavailable: err instanceof ZooKeeperError ? err.message : String(err) };
          }
        },
      };
      this.#members.add(view);
      // Joining may outlast a fault (the initial create, the view's first load); the member keeps at it meanwhile.
      member.start().catch(() => undefined);
      await Promise.race([whenEnded(client), abortedOf(stop)]);
      this.#members.delete(view);
      await this.ctx.tracker.track(session, 'member close', member.close(), { boundMs: bounds.leaveMs }).catch(() => undefined);
      if (client.ended) {
        this.ctx.watchdog.forget(session);
        await this.ctx.tracker.track(session, 'close', client.close(), { boundMs: bounds.requestMs }).catch(() => undefined);
      }
    }
  }
}

function abortedOf(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
