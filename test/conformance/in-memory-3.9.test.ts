/** The conformance suite against the in-memory server reproducing ZooKeeper 3.9. Prints `conformance: in-memory 3.9 — N of M passed`. */

import { defineConformance } from './suite.js';
import { startInMemoryTarget } from './in-memory-target.js';

defineConformance('in-memory 3.9', () => startInMemoryTarget('3.9'));
