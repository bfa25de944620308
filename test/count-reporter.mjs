// A Web Test Runner reporter that ends the run with one plain line, `browser: N passed, N failed, N skipped`,
// counted from every test of every session (so CI logs state how many tests really ran).

/** @param {any} suite @param {{passed:number, failed:number, skipped:number}} totals */
function count(suite, totals) {
  if (!suite) return;
  for (const test of suite.tests ?? []) {
    if (test.skipped) totals.skipped += 1;
    else if (test.passed) totals.passed += 1;
    else totals.failed += 1;
  }
  for (const child of suite.suites ?? []) count(child, totals);
}

export function countReporter() {
  return {
    onTestRunFinished({ sessions }) {
      const totals = { passed: 0, failed: 0, skipped: 0 };
      let brokenFiles = 0;
      for (const session of sessions) {
        count(session.testResults, totals);
        if (!session.passed && (session.errors?.length ?? 0) > 0) brokenFiles += 1;
      }
      // A file that failed to load counts as a failure, so "0 failed" is never printed over a broken file.
      totals.failed += brokenFiles;
      process.stdout.write(`\nbrowser: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped\n`);
    },
  };
}
