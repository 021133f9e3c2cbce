/**
 * What recipes that outlive a session are given: a client, or a function returning the current one. A zkwire
 * client's session is its life (after expiry it is replaced, never revived), so a recipe that must carry on across
 * expiry asks the function again once the session it used has ended.
 */

import type { ZooKeeperClient } from '../../client.js';

/** A client, or a function returning the current one (so a recipe can move on to a new session). */
export type ClientSource = ZooKeeperClient | (() => ZooKeeperClient | Promise<ZooKeeperClient>);
