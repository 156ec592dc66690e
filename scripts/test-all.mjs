#!/usr/bin/env node
// The one test command (README): typecheck, lint, every workspace's Vitest suite, then the browser
// tests against a freshly built web app, the real server and Chromium. It ends with one summary line
// "tests: N passed, N failed, N skipped" so CI and people read the same figure.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const withBrowser = !process.argv.includes('--no-e2e');
// A suite is a workspace folder, or { root, config } for a second Vitest config in one folder.
const suites = [
  'packages/contract',
  'packages/compute',
  'apps/server',
  { root: 'apps/server', config: 'vitest.security.config.ts' },
  { root: 'apps/server', config: 'vitest.faults.config.ts' },
  'apps/agent',
  'apps/web',
];
if (withBrowser) suites.push('e2e');

const reportDir = mkdtempSync(path.join(tmpdir(), 'fabric-tests-'));
const totals = { passed: 0, failed: 0, skipped: 0 };
const failures = [];

function run(label, command, args, options = {}) {
  process.stdout.write(`\n=== ${label}\n`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', ...options });
  return result.status === 0;
}

if (!run('typecheck', 'npm', ['run', 'typecheck', '--silent'])) failures.push('typecheck');
if (!run('lint', 'npx', ['eslint', '.', '--max-warnings=0'])) failures.push('lint');

for (const suite of suites) {
  if (
    suite === 'e2e' &&
    !run('build the web app and the agent bundle for the browser tests', 'npm', ['run', 'build'])
  ) {
    failures.push('build');
    continue;
  }
  const { root: suiteRoot, config } = typeof suite === 'string' ? { root: suite } : suite;
  const name = config ? `${suiteRoot} (${config})` : suiteRoot;
  const reportFile = path.join(
    reportDir,
    `${[suiteRoot, config].filter(Boolean).join('-').replaceAll('/', '-')}.json`,
  );
  const ok = run(`tests: ${name}`, 'npx', [
    'vitest',
    'run',
    '--root',
    suiteRoot,
    ...(config ? ['--config', config] : []),
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${reportFile}`,
  ]);
  if (existsSync(reportFile)) {
    const report = JSON.parse(readFileSync(reportFile, 'utf8'));
    totals.passed += report.numPassedTests;
    totals.failed += report.numFailedTests;
    totals.skipped += report.numPendingTests + report.numTodoTests;
    // A suite can fail outside any test (an import error, a failed global setup): count it as a failure.
    if (!ok && report.numFailedTests === 0) totals.failed += 1;
  } else if (!ok) {
    totals.failed += 1;
  }
  if (!ok) failures.push(name);
}

process.stdout.write(`\n${failures.length ? `failed: ${failures.join(', ')}\n` : ''}`);
process.stdout.write(
  `tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped\n`,
);
process.exitCode = failures.length ? 1 : 0;
