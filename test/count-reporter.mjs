// A Web Test Runner reporter that ends the run with one plain line per engine, `chromium: N passed, N failed, N
// skipped`, then the total, `browser: N passed, N failed, N skipped`, counted from every test of every session (so CI
// logs state how many tests really ran, and where).

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

/** @param {Map<object, string>} engines each launcher and its engine's name */
export function countReporter(engines = new Map()) {
  return {
    onTestRunFinished({ sessions }) {
      /** @type {Map<string, {passed:number, failed:number, skipped:number}>} */
      const byEngine = new Map();
      for (const session of sessions) {
        const name = engines.get(session.browser) ?? session.browser.name;
        if (!byEngine.has(name)) byEngine.set(name, { passed: 0, failed: 0, skipped: 0 });
        const totals = byEngine.get(name);
        count(session.testResults, totals);
        // A file that failed to load counts as a failure, so "0 failed" is never printed over a broken file.
        if (!session.passed && (session.errors?.length ?? 0) > 0) totals.failed += 1;
      }
      const all = { passed: 0, failed: 0, skipped: 0 };
      const line = (name, t) => `${name}: ${t.passed} passed, ${t.failed} failed, ${t.skipped} skipped\n`;
      process.stdout.write('\n');
      for (const [name, totals] of byEngine) {
        for (const key of Object.keys(all)) all[key] += totals[key];
        process.stdout.write(line(name, totals));
      }
      process.stdout.write(line('browser', all));
      // TIMINGS=1: the slowest files per engine (the sum of their tests' durations), to see where a run's time goes.
      if (process.env.TIMINGS) {
        // One walk per session: each test with its duration; a file's time is the sum of its tests'.
        const seconds = (ms) => `${(ms / 1000).toFixed(1).padStart(7)} s  `;
        const files = sessions.map((session) => {
          const engine = engines.get(session.browser) ?? session.browser.name;
          const tests = [];
          const walk = (suite, path) => {
            for (const test of suite?.tests ?? []) tests.push({ name: `${path}${test.name}`, ms: test.duration ?? 0 });
            for (const child of suite?.suites ?? []) walk(child, `${path}${child.name} > `);
          };
          walk(session.testResults, `${engine} `);
          return { name: `${engine} ${session.testFile}`, ms: tests.reduce((total, test) => total + test.ms, 0), tests };
        });
        const sum = files.reduce((total, file) => total + file.ms, 0);
        process.stdout.write(`${seconds(sum)}in ${files.length} files' tests (the rest of the run is loading them)\n`);
        for (const { name, ms } of [...files].sort((a, b) => b.ms - a.ms).slice(0, 25)) process.stdout.write(`${seconds(ms)}${name}\n`);
        const tests = files.flatMap((file) => file.tests).sort((a, b) => b.ms - a.ms);
        for (const { name, ms } of tests.slice(0, 25)) process.stdout.write(`${seconds(ms)}${name.slice(0, 150)}\n`);
      }
    },
  };
}
