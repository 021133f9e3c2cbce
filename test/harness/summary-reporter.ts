/**
 * Prints one plain closing line, `N passed, N failed[, N skipped]`, after vitest's own summary, so a CI log reader
 * that does not know vitest's colourful table still sees how many tests ran, and on which ZooKeeper (npm test's
 * matrix sets ZKWIRE_TEST_ZOOKEEPER for each of its runs).
 */
import type { Reporter, SerializedError, TestModule } from 'vitest/node';

export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: readonly TestModule[], unhandledErrors: readonly SerializedError[]): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const module of modules) {
      let failedHere = 0;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failedHere++;
        else skipped++;
      }
      // A file that failed with no failed test (it did not load, or a beforeAll/afterAll hook threw) is a failure too.
      if (module.state() === 'failed' && failedHere === 0) failedHere++;
      failed += failedHere;
    }
    // Errors outside any test (unhandled rejections) fail the run too.
    failed += unhandledErrors.length;
    const release = process.env['ZKWIRE_TEST_ZOOKEEPER'];
    const line = `${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}${release ? ` (ZooKeeper ${release})` : ''}`;
    // Printed at exit so it comes after the default reporter's table, as the very last line.
    process.once('exit', () => process.stdout.write(`\n${line}\n`));
  }
}
