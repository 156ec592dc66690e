import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { formatFaultReport, readFaultRecords } from './report.ts';

// Gives the fault suites a directory for their figures, and after the whole run prints the
// cheats' table and the one figures line: the last line of `npm run test:faults`.

export default function setup(project: TestProject): () => void {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'fabric-faults-'));
  project.provide('faultsReportDir', directory);
  return () => {
    process.stdout.write(`\n${formatFaultReport(readFaultRecords(directory))}`);
    rmSync(directory, { recursive: true, force: true });
  };
}
