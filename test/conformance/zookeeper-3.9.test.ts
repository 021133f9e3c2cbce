/**
 * The conformance suite against a real ZooKeeper 3.9 (the reference every other server is measured against), whatever
 * release the rest of the run uses. Prints `conformance: zookeeper 3.9 — N of M passed`.
 */

import { defineConformance } from './suite.js';
import { startZooKeeperTarget } from './zookeeper-target.js';

defineConformance('zookeeper 3.9', () => startZooKeeperTarget('3.9'));
