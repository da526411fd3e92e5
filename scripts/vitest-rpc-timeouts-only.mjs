#!/usr/bin/env node
// Exit 0 when a Vitest run failed only because of Vitest 3's worker RPC timeout on "onTaskUpdate" (see .ci/run):
// no failed test, no failed file, and every unhandled error it reported is that timeout. Exit 1 otherwise.
import { readFileSync } from 'node:fs';

const [reportFile, stderrFile] = process.argv.slice(2);
const report = JSON.parse(readFileSync(reportFile, 'utf8'));
const stderr = readFileSync(stderrFile, 'utf8');
const caught = /Vitest caught (\d+) unhandled errors? during the test run/.exec(stderr);
const errors = caught ? Number(caught[1]) : 0;
const timeouts = stderr.match(/Error: \[vitest-worker\]: Timeout calling "onTaskUpdate"/g)?.length ?? 0;
const failedFiles = report.testResults.filter(
  (f) => f.status !== 'passed' && f.status !== 'skipped' && f.status !== 'pending',
);
const only =
  report.numFailedTests === 0 &&
  report.numFailedTestSuites === 0 &&
  failedFiles.length === 0 &&
  errors > 0 &&
  errors === timeouts;
console.log(
  only
    ? `ci: every test passed; the run's ${errors} unhandled error(s) are all Vitest 3's worker RPC timeout on "onTaskUpdate", not a test failure`
    : `ci: the run failed (failed tests ${report.numFailedTests}, failed files ${failedFiles.length}, unhandled errors ${errors}, of which onTaskUpdate timeouts ${timeouts})`,
);
process.exit(only ? 0 : 1);
