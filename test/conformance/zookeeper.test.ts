/**
 * The conformance suite against a real ZooKeeper (the machine's 3.8): the reference every other server is measured
 * against. Prints `conformance: zookeeper 3.8 — N of M passed`.
 */

import { defineConformance } from './suite.js';
import { startZooKeeperTarget } from './zookeeper-target.js';

defineConformance('zookeeper', startZooKeeperTarget);
