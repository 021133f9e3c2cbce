import { defineConformance } from './suite.js';
import { startInMemoryTarget } from './in-memory-target.js';

defineConformance('in-memory', startInMemoryTarget);
