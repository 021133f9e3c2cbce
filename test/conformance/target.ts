/**
 * The server a conformance run talks to. The suite (suite.ts) only sees this interface, so a second server is an
 * adapter of a few dozen lines: the real ZooKeeper (zookeeper-target.ts) and the in-memory one each provide it.
 */

import type { ZooKeeperClient } from '../../src/node.js';
import type { ClientOptions } from '../../src/client/types.js';

/** What `connect` takes: the client's options, plus where to root the client and whether it must be cuttable. */
export type TargetConnectOptions = ClientOptions & {
  /** A chroot appended to the connect string (`/app`). */
  readonly chroot?: string;
  /** The client will be handed to `disconnect` (the real server then puts a fault proxy in front of it). */
  readonly severable?: boolean;
};

/** Resolves once a client cut off by `disconnect` may reach the server again and has connected. */
export type Reconnect = () => Promise<void>;

/** The ZooKeeper versions the suite holds servers to: a case's expectations may differ between them. */
export type ConformanceVersion = '3.8' | '3.9';

export interface ConformanceTarget {
  /**
   * Printed in the summary line and matched by `knownDifference`: `zookeeper 3.9`, `in-memory 3.8`. A difference
   * named by the server's kind alone (`in-memory`) matches it on every version.
   */
  readonly name: string;
  /** The ZooKeeper version whose behaviour this server shows (the real server's, or the one the in-memory reproduces). */
  readonly version: ConformanceVersion;
  /** A connected client on this server; the caller closes it. */
  connect(options?: TargetConnectOptions): Promise<ZooKeeperClient>;
  /**
   * Expires the client's current session now and resolves once the client has seen it (state `expired`, event
   * LOST); a client that renews its session is then already opening a new one. Real server: `killSession`.
   */
  expire(client: ZooKeeperClient): Promise<void>;
  /**
   * Drops the connection of a client made with `severable: true` and keeps it off the server (its session lives on
   * there, its reconnect attempts fail or hang) until the returned function is called.
   */
  disconnect(client: ZooKeeperClient): Promise<Reconnect>;
  /**
   * Lets server time pass until `check()` holds: TTL expiry, container reaping, a session timing out without pings.
   * Real server: polls under a bound (it sweeps containers and TTLs every 100 ms). In-memory: advances its clock.
   * Rejects naming `what` when the bound passes.
   */
  until(check: () => Promise<boolean>, what: string): Promise<void>;
  /** Stops the server and everything the target started. */
  close(): Promise<void>;
}
