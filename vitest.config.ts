import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Integration tests start real ZooKeeper JVMs; on a 2-core machine a few files at a time is the sweet spot.
    maxWorkers: 2,
    minWorkers: 1,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    globalSetup: ['test/harness/global-setup.ts'],
    reporters: ['default', './test/harness/summary-reporter.ts'],
  },
});
