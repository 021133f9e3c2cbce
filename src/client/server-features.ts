/**
 * What the servers the client talks to can do, in one place (`client.serverFeatures`), learnt as Curator 4's
 * compatibility mode decides it, but from the server rather than the class path:
 *
 *  - from the server's version when it is known (the `serverVersion` option, or the `srvr` probe the session makes
 *    before its first op newer than 3.5);
 *  - else from answers: an UNIMPLEMENTED answer to an op every 3.5+ server has (create2, checkWatches,
 *    removeWatches) means a 3.4 server; any answer other than UNIMPLEMENTED to an op means the server has it.
 *
 * The ConnectResponse cannot tell: 3.4 and 3.5+ send the same handshake. What is learnt holds for the client's
 * life, across connections and sessions, as Curator's mode does: an ensemble runs one release (during a rolling
 * upgrade from 3.4 the client keeps to 3.4's ops until it is restarted).
 *
 * Once a server is known to lack an op, the client refuses it unsent with UNIMPLEMENTED naming the release it needs:
 * a 3.4 server answers some of them (createContainer, createTTL) by closing the connection, which would fail every
 * call in flight and, for a recipe that retries, loop.
 */

import { clientError, type ZooKeeperError } from '../errors.js';
import { ErrorCode } from '../protocol/error-codes.js';
import { OpCode, opName } from '../protocol/opcodes.js';
import { introducedIn, olderThan, type Release, type ServerVersion } from '../session/server-version.js';

/**
 * What the server can do: `true` known present, `false` known absent, `undefined` not known yet (nothing has shown
 * it). Read from `client.serverFeatures`; `client.checkServerFeatures()` asks the server when the 3.5 line is not
 * known yet.
 */
export interface ServerFeatures {
  /** The server's release (e.g. "3.8.4") when known; see `client.serverVersion`. */
  readonly version: string | undefined;
  /** `create(path, data, { stat: true })` (create2, 3.5.0). Without it: a create, then a read of the stat. */
  readonly createWithStat: boolean | undefined;
  /** Container nodes (3.5.0). Without them recipes make their parents persistent, as Curator 4 did on 3.4. */
  readonly containers: boolean | undefined;
  /** TTL nodes (3.5.3, and the server's `extendedTypesEnabled`, which no answer but a TTL create shows). */
  readonly ttlNodes: boolean | undefined;
  /** removeWatches and checkWatches (3.5.0). */
  readonly removeWatches: boolean | undefined;
  /** reconfig (3.5.0; the server may still have it disabled). */
  readonly reconfig: boolean | undefined;
  /** addWatch: persistent and persistent-recursive watches (3.6.0). Without them caches use one-shot watches. */
  readonly persistentWatches: boolean | undefined;
  /** multiRead (3.6.0). */
  readonly multiRead: boolean | undefined;
  /** getEphemerals (3.6.0). */
  readonly getEphemerals: boolean | undefined;
  /** getAllChildrenNumber (3.6.0). */
  readonly getAllChildrenNumber: boolean | undefined;
  /** whoAmI (3.7.0). */
  readonly whoAmI: boolean | undefined;
  /** removeWatches with the `persistent` and `persistent-recursive` types (3.9.0). */
  readonly removePersistentWatchesByType: boolean | undefined;
  /** The zxid of the change that fired a watch event, on `WatchEvent.zxid` (3.9.0). */
  readonly watchEventZxid: boolean | undefined;
}

type Feature = Exclude<keyof ServerFeatures, 'version'>;

/** Each feature and the release that brought it. */
const SINCE: Readonly<Record<Feature, Release>> = {
  createWithStat: [3, 5, 0],
  containers: [3, 5, 0],
  ttlNodes: [3, 5, 3],
  removeWatches: [3, 5, 0],
  reconfig: [3, 5, 0],
  persistentWatches: [3, 6, 0],
  multiRead: [3, 6, 0],
  getEphemerals: [3, 6, 0],
  getAllChildrenNumber: [3, 6, 0],
  whoAmI: [3, 7, 0],
  removePersistentWatchesByType: [3, 9, 0],
  watchEventZxid: [3, 9, 0],
};

/** Ops every 3.5+ server answers whatever its configuration: an UNIMPLEMENTED from one of them means 3.4. */
const ALWAYS_SINCE_3_5: ReadonlySet<number> = new Set([OpCode.create2, OpCode.checkWatches, OpCode.removeWatches]);

const RELEASE_3_5: Release = [3, 5, 0];

const releaseOf = (version: ServerVersion): Release => [version.major, version.minor, version.patch];

/** The client's record of what its servers can do (one per client, kept across sessions). */
export class FeatureBook {
  /** The server is at least this release (an op of it was answered). */
  #atLeast: Release = [3, 4, 0];
  /** The server is older than this release (an op every server of it has came back UNIMPLEMENTED). */
  #below: Release | undefined;
  /** How #below was learnt, for messages. */
  #belowBecause = '';
  /**
   * The last snapshot: recipes read the features on every create (bench:acquire), and they change only when learn()
   * moves a bound or the session learns its server's version (the snapshot's `version`).
   */
  #last: ServerFeatures | undefined;

  /** Learns from the answer to `opcode`; called for every reply. */
  learn(opcode: number, err: number): void {
    const since = introducedIn(opcode);
    if (since === undefined) return;
    if (err === ErrorCode.UNIMPLEMENTED) {
      if (!ALWAYS_SINCE_3_5.has(opcode) || this.#below !== undefined) return;
      this.#below = RELEASE_3_5;
      this.#belowBecause = `answered ${opName(opcode)} UNIMPLEMENTED (ZooKeeper before 3.5)`;
    } else if (olderThan(this.#atLeast, since)) {
      this.#atLeast = since;
    } else return;
    this.#last = undefined;
  }

  /** Whether the server has `feature`, as known now (`version`: the session's, when learnt). */
  has(feature: Feature, version: ServerVersion | undefined): boolean | undefined {
    return this.#hasSince(SINCE[feature], version);
  }

  /** Whether the server has what `since` brought: from its version when known, else from its answers. */
  #hasSince(since: Release, version: ServerVersion | undefined): boolean | undefined {
    if (version !== undefined) return !olderThan(releaseOf(version), since);
    if (this.#below !== undefined && !olderThan(since, this.#below)) return false;
    return olderThan(this.#atLeast, since) ? undefined : true;
  }

  /** The features as known now, `version` (the session's, when learnt) first. */
  snapshot(version: ServerVersion | undefined): ServerFeatures {
    if (this.#last && this.#last.version === version?.text) return this.#last;
    const out: Record<string, boolean | undefined> = {};
    for (const name of Object.keys(SINCE) as Feature[]) out[name] = this.has(name, version);
    return (this.#last = Object.freeze({ version: version?.text, ...(out as Omit<ServerFeatures, 'version'>) }));
  }

  /** UNIMPLEMENTED, unsent, for an op the server is known to lack: by its version (when known) or an answer. */
  refusal(opcode: number, op: string, path: string | undefined, version: ServerVersion | undefined): ZooKeeperError | undefined {
    const since = introducedIn(opcode);
    if (since === undefined || this.#hasSince(since, version) !== false) return undefined;
    const why = version === undefined ? this.#belowBecause : `runs ZooKeeper ${version.text}`;
    return clientError('UNIMPLEMENTED', `the server ${why}; ${opName(opcode)} needs ${since.join('.')} or later (not sent)`, { op, path });
  }
}
