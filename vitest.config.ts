import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Integration tests start real ZooKeeper JVMs and wait on real timers (session expiry, faults): with two files at
    // a time a 2-core machine sat 30 % idle through `npm test` (15.7 min of user CPU in 13.1 min of wall time), and
    // a third file brought the 3.9 run from 633 to 515 s and the 3.8 run from 96 to 73 s.
    maxWorkers: 3,
    minWorkers: 1,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    globalSetup: ['test/harness/global-setup.ts'],
    reporters: ['default', './test/harness/summary-reporter.ts'],
  },
});
