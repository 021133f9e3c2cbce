/**
 * DistributedDoubleBarrier: Curator's double barrier, on the same znodes (`<path>/<uuid>` ephemeral per member,
 * `<path>/ready` once enough have arrived), so Curator and zkwire members pass one barrier together.
 *
 * enter() returns only once `memberQty` members are present: the member that completes the count creates `ready`,
 * the others wait on a watch of `ready` and, on any wake-up, look again (a wake-up is not proof: Curator GitHub
 * #1290). leave() deletes our node and waits until every member has left, each step waiting on a watch of one
 * other member's node (the highest for the lowest member, the lowest for the rest), so it never spins (CURATOR-233):
 * every turn of its loop either ends, or follows a node that has just gone, or waits on a watch.
 *
 * Across a session expiry (the client opens a new session by itself) our member node, being ephemeral, is gone with
 * the old session, and the watches of the old session fire with the expiry:
 *  - an enter() still waiting creates our node again on the new session (same name) and goes on waiting, within its
 *    timeoutMs or signal, so the count the others see is right again. (Curator's enter() throws ConnectionLoss
 *    instead.) If every other member went through the barrier and left while we were away, nobody is left to
 *    complete the count: the enter() then ends by its timeoutMs or signal, which is why a waiting enter should
 *    have one.
 *  - an entered member is out of the barrier from the expiry on: the others may leave without it. Its leave()
 *    finds its node gone and only waits for the others to go, as after any loss of its node.
 *  - a leave() waiting for the others looks again on the new session and goes on.
 * Every pending call settles: only a client that has ended rejects it (CLOSED, AUTHFAILED, or SESSIONEXPIRED with
 * renewal off), after an enter() has tried to take its node back.
 */

import type { ZooKeeperClient } from '../../client.js';
import { Deadline, deadlineOutcome, eventOrDeadline, type WaitOptions } from '../common/deadline.js';
import { badArgument, illegalState } from '../common/errors.js';
import { retryableOn } from '../common/connection.js';
import { isCode } from '../../errors.js';
import { checkRecipePath, childrenOrEmpty, ensureContainers, joinPath, NodeOps } from '../common/nodes.js';
import { clockOf, type Clock } from '../../session/clock.js';

/** The node the last member to arrive creates (Curator's READY_NODE). */
export const READY_NODE = 'ready';

/**
 * Where this member is: `IDLE` not a member (before enter(), after leave(), or after an enter() that gave up);
 * `ENTERING` enter() is waiting for the others; `ENTERED` past the barrier, a member until it leaves; `LEAVING`
 * leave() is waiting for the others to go.
 */
export type DoubleBarrierState = 'IDLE' | 'ENTERING' | 'ENTERED' | 'LEAVING';

/**
 * Curator's DistributedDoubleBarrier: `memberQty` processes enter together and leave together. Each member holds an
 * ephemeral `<path>/<uuid>` node; the last to arrive creates `<path>/ready`, which lets every member through
 * enter(); leave() deletes our node and waits until every member's node is gone. Interoperates with Curator members.
 *
 * Usage: `if (await barrier.enter({ timeoutMs })) { await work(); await barrier.leave(); }`
 */
export class DistributedDoubleBarrier {
  readonly #client: ZooKeeperClient;
  readonly #clock: Clock;
  readonly #ops: NodeOps;
  readonly #readyPath: string;
  /** Our member node's create was stopped with its outcome unknown: withdrawing must look for it first. */
  #createUnknown = false;
  #ourName = '';
  #state: DoubleBarrierState = 'IDLE';

  constructor(
    client: ZooKeeperClient,
    /** The barrier directory, shared by every member. */
    readonly path: string,
    /** How many members must arrive before any may go on. */
    readonly memberQty: number,
    options: { clock?: Clock } = {},
  ) {
    checkRecipePath(path, 'DistributedDoubleBarrier');
    if (!Number.isSafeInteger(memberQty) || memberQty < 1) throw badArgument('DistributedDoubleBarrier', path, 'memberQty must be an integer >= 1');
    this.#client = client;
    this.#clock = clockOf(options.clock);
    this.#ops = new NodeOps(client, { clock: this.#clock });
    this.#readyPath = joinPath(path, READY_NODE);
  }

  /** This member's progress: `IDLE`, `ENTERING`, `ENTERED` or `LEAVING` (see DoubleBarrierState). */
  get state(): DoubleBarrierState {
    return this.#state;
  }

  /** Our member node, while entered. */
  get ourPath(): string | undefined {
    return this.#ourName === '' ? undefined : joinPath(this.path, this.#ourName);
  }

  /**
   * Joins and waits until `memberQty` members have arrived: true then; false when `timeoutMs` passes first (our node
   * is taken back); ABORTED on `signal` (likewise). ILLEGAL_STATE unless idle (enter once, then leave).
   */
  async enter(options: WaitOptions = {}): Promise<boolean> {
    if (this.#state !== 'IDLE') throw illegalState('DistributedDoubleBarrier.enter', this.path, `cannot enter while ${this.#state}`);
    using deadline = new Deadline(options, 'DistributedDoubleBarrier.enter', this.path, this.#clock);
    this.#state = 'ENTERING';
    this.#ourName = crypto.randomUUID();
    let entered = false;
    try {
      entered = await this.#enter(deadline);
      return entered;
    } finally {
      if (entered) this.#state = 'ENTERED';
      else await this.#withdraw();
    }
  }

  /**
   * Leaves and waits until every member has left: true then; false when `timeoutMs` passes first (our node is
   * gone by then or still ours to leave again); ABORTED on `signal`. ILLEGAL_STATE unless entered.
   */
  async leave(options: WaitOptions = {}): Promise<boolean> {
    if (this.#state !== 'ENTERED') throw illegalState('DistributedDoubleBarrier.leave', this.path, `cannot leave while ${this.#state}`);
    using deadline = new Deadline(options, 'DistributedDoubleBarrier.leave', this.path, this.#clock);
    this.#state = 'LEAVING';
    let ours = true;
    try {
      const left = await this.#leave(deadline, () => (ours = false));
      if (left) {
        this.#ourName = '';
        this.#state = 'IDLE';
      }
      return left;
    } finally {
      if (this.#state === 'LEAVING') {
        // gave up: still a member if our node is there, else out
        if (ours) this.#state = 'ENTERED';
        else {
          this.#ourName = '';
          this.#state = 'IDLE';
        }
      }
    }
  }

  /** The members' node names, sorted, without `ready`. */
  async #members(signal?: AbortSignal): Promise<string[]> {
    return (await childrenOrEmpty(this.#client, this.path, signal)).filter((c) => c !== READY_NODE).sort();
  }

  async #enter(deadline: Deadline): Promise<boolean> {
    const op = 'DistributedDoubleBarrier.enter';
    const ours = joinPath(this.path, this.#ourName);
    /** The session our node was created in: once it has expired, the node has gone with it. */
    let createdIn: bigint | undefined;
    for (;;) {
      if (deadline.stopped) return deadlineOutcome(deadline, op);
      try {
        await this.#client.waitConnected(deadline.stopOption);
        const session = this.#client.sessionId;
        // the watch goes first, so a `ready` created right after our node cannot be missed
        const ready = this.#client.exists(this.#readyPath, { watch: true, ...deadline.stopOption });
        ready.catch(() => undefined); // awaited below unless the create fails first
        if (createdIn !== session) {
          // first time, or our node went with an expired session: (re)create it under the same name
          await this.#createMember(ours, deadline.signal);
          createdIn = session;
        }
        const { stat, watch } = await ready;
        if (stat !== null) return true;
        if ((await this.#members(deadline.signal)).length >= this.memberQty) {
          try {
            await this.#client.create(this.#readyPath, null, deadline.stopOption);
          } catch (err) {
            if (!isCode(err, 'NODEEXISTS')) throw err;
          }
          return true;
        }
        // any wake-up only means "look again" (GitHub #1290)
        if (!(await eventOrDeadline(watch, deadline, op))) return false;
      } catch (err) {
        if (deadline.stopped) return deadlineOutcome(deadline, op);
        if (!retryableOn(this.#client, err)) throw err;
      }
    }
  }

  async #createMember(ours: string, signal: AbortSignal | undefined): Promise<void> {
    for (;;) {
      try {
        this.#createUnknown = true;
        await this.#client.create(ours, null, { mode: 'ephemeral', ...(signal === undefined ? {} : { signal }) });
        this.#createUnknown = false;
        return;
      } catch (err) {
        // stopped in flight: the create may still happen; otherwise the server answered and it did not
        if (!(signal?.aborted === true && isCode(err, 'ABORTED'))) this.#createUnknown = false;
        // a retried create that had gone through: the name is our uuid, so the node is ours
        if (isCode(err, 'NODEEXISTS')) return;
        if (!isCode(err, 'NONODE')) throw err;
        await ensureContainers(this.#client, this.path, signal);
      }
    }
  }

  async #leave(deadline: Deadline, gone: () => void): Promise<boolean> {
    const op = 'DistributedDoubleBarrier.leave';
    let ourNodeShouldExist = true;
    for (;;) {
      if (deadline.stopped) return deadlineOutcome(deadline, op);
      try {
        await this.#client.waitConnected(deadline.stopOption);
        const members = await this.#members(deadline.signal);
        if (members.length === 0) break;
        const index = members.indexOf(this.#ourName);
        if (index < 0 && ourNodeShouldExist) {
          // our node is gone (deleted by someone, or our session ended): we are out; wait for the others
          ourNodeShouldExist = false;
          gone();
        }
        if (members.length === 1 && index === 0) {
          await this.#deleteOurs();
          gone();
          break;
        }
        let watched: string;
        if (index === 0) {
          watched = joinPath(this.path, members[members.length - 1] as string);
        } else {
          watched = joinPath(this.path, members[0] as string);
          if (ourNodeShouldExist) {
            await this.#deleteOurs();
            ourNodeShouldExist = false;
            gone();
          }
        }
        const { stat, watch } = await this.#client.exists(watched, { watch: true, ...deadline.stopOption });
        // gone already: list again, progress has been made
        if (stat !== null && !(await eventOrDeadline(watch, deadline, op))) return false;
      } catch (err) {
        if (deadline.stopped) return deadlineOutcome(deadline, op);
        if (!retryableOn(this.#client, err)) throw err;
      }
    }
    try {
      await this.#client.delete(this.#readyPath);
    } catch (err) {
      if (!isCode(err, 'NONODE') && !retryableOn(this.#client, err)) throw err;
    }
    return true;
  }

  async #deleteOurs(): Promise<void> {
    try {
      await this.#client.delete(joinPath(this.path, this.#ourName));
    } catch (err) {
      if (!isCode(err, 'NONODE')) throw err;
    }
  }

  /**
   * After a failed enter: take our node back through NodeOps, so a frozen link cannot hold enter() up: a plain
   * delete while the link answers (else in the background), or, when our create was stopped in flight, a look for
   * the node and its delete in the background (cleanupsSettled counts both).
   */
  async #withdraw(): Promise<void> {
    const path = joinPath(this.path, this.#ourName);
    const unknown = this.#createUnknown;
    this.#ourName = '';
    this.#state = 'IDLE';
    this.#createUnknown = false;
    if (unknown) void this.#ops.deleteIfCreated(path, true);
    else await this.#ops.deleteOnClose(path).catch(() => undefined);
  }
}
