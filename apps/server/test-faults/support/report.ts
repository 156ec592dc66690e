import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

// What each fault suite measured, gathered across test files (each runs in its own worker): a
// file writes its figures into the directory the global setup provides, and the global setup's
// teardown prints the cheats' table and the one figures line at the very end of the run.

declare module 'vitest' {
  export interface ProvidedContext {
    faultsReportDir: string;
  }
}

export type DatabaseLabel = 'PGlite' | 'PostgreSQL';

export interface SigkillFigures {
  section: 'sigkill';
  database: DatabaseLabel;
  /** Distinct operations sent (sign-ups, add-credits and submits), every one acknowledged in the end. */
  operations: number;
  acknowledged: number;
  /** Of those, acknowledged by a server that was then killed. */
  acknowledgedBeforeKill: number;
  kills: number;
  lost: number;
  doubled: number;
}

export interface LedgerFigures {
  section: 'ledger';
  database: DatabaseLabel;
  /** Requests sent at once: top-ups, payouts, submits (same and different keys), completes, settlements. */
  requests: number;
  /** Distinct keys (or key-less requests) whose money moved. */
  applied: number;
  doubled: number;
  lost: number;
}

export interface ChurnFigures {
  section: 'churn';
  database: DatabaseLabel;
  agents: number;
  killed: number;
  jobs: number;
  endedOnce: number;
  billedOnce: number;
}

export interface CheatRow {
  section: 'cheat';
  database: DatabaseLabel;
  jobType: string;
  cheat: string;
  /** What the cheat earned beyond what the same work honestly reported earns, in micro-dollars. */
  earnedMicros: number;
  /** What the enterprise paid for the same job run honestly, in micro-dollars. */
  honestCostMicros: number;
}

export type FaultRecord = SigkillFigures | LedgerFigures | ChurnFigures | CheatRow;

export function databaseLabel(kind: 'pglite' | 'postgres'): DatabaseLabel {
  return kind === 'pglite' ? 'PGlite' : 'PostgreSQL';
}

/** Keeps one record for the end-of-run report. */
export function recordFault(directory: string, record: FaultRecord): void {
  writeFileSync(
    path.join(directory, `${record.section}-${randomUUID()}.json`),
    JSON.stringify(record),
  );
}

export function readFaultRecords(directory: string): FaultRecord[] {
  return readdirSync(directory)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => JSON.parse(readFileSync(path.join(directory, name), 'utf8')) as FaultRecord);
}

/** Dollars with at least two decimals and as many more as a fraction of a cent needs: $0.00, $0.01001. */
export function formatMicros(micros: number): string {
  const sign = micros < 0 ? '-' : '';
  const absolute = Math.abs(micros);
  const digits = (absolute / 1e6).toFixed(6).replace(/0{1,4}$/, '');
  return `${sign}$${digits}`;
}

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

/** The cheats' table, one line per cheat and database, then the one figures line. */
export function formatFaultReport(records: FaultRecord[]): string {
  const cheats = records.filter((record): record is CheatRow => record.section === 'cheat');
  const sigkills = records.filter(
    (record): record is SigkillFigures => record.section === 'sigkill',
  );
  const ledgers = records.filter((record): record is LedgerFigures => record.section === 'ledger');
  const churns = records.filter((record): record is ChurnFigures => record.section === 'churn');

  const lines: string[] = [];
  if (cheats.length > 0) {
    const order = (row: CheatRow) => `${row.jobType} ${row.cheat} ${row.database}`;
    const rows = [...cheats].sort((a, b) => order(a).localeCompare(order(b)));
    const header = ['database', 'job type', 'cheat', 'cheat earned', 'honest cost'];
    const table = [
      header,
      ...rows.map((row) => [
        row.database,
        row.jobType,
        row.cheat,
        formatMicros(row.earnedMicros),
        formatMicros(row.honestCostMicros),
      ]),
    ];
    const widths = header.map((_, column) =>
      Math.max(...table.map((cells) => (cells[column] ?? '').length)),
    );
    lines.push('cheating agents: what each cheat earned, and the same job run honestly');
    for (const cells of table) {
      lines.push(
        `  ${cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ')}`.trimEnd(),
      );
    }
    lines.push(
      "  (cheat earned: the cheat provider's earnings; for inflated usage, beyond what the honest",
      '   report of the same work earned)',
    );
  }

  const parts: string[] = [];
  if (sigkills.length > 0) {
    const databases = [...new Set(sigkills.map((s) => s.database))].sort().join(' and ');
    parts.push(
      `faults: ${sum(sigkills.map((s) => s.acknowledged))} acknowledged operations ` +
        `(${sum(sigkills.map((s) => s.acknowledgedBeforeKill))} answered before a kill) ` +
        `over ${sum(sigkills.map((s) => s.kills))} SIGKILLs on ${databases}, ` +
        `${sum(sigkills.map((s) => s.lost))} lost, ${sum(sigkills.map((s) => s.doubled))} doubled`,
    );
  } else {
    parts.push('faults: not measured');
  }
  if (ledgers.length > 0) {
    parts.push(
      `ledger: ${sum(ledgers.map((l) => l.requests))} concurrent money requests, ` +
        `${sum(ledgers.map((l) => l.lost))} lost, ${sum(ledgers.map((l) => l.doubled))} doubled`,
    );
  } else {
    parts.push('ledger: not measured');
  }
  if (churns.length > 0) {
    parts.push(
      `churn: ${sum(churns.map((c) => c.endedOnce))} of ${sum(churns.map((c) => c.jobs))} jobs ` +
        `ended once, ${sum(churns.map((c) => c.billedOnce))} billed once, ` +
        `${sum(churns.map((c) => c.killed))} agents killed mid-job`,
    );
  } else {
    parts.push('churn: not measured');
  }
  if (cheats.length > 0) {
    const paying = [...new Set(cheats.filter((c) => c.earnedMicros !== 0).map((c) => c.cheat))];
    parts.push(
      `cheats earned ${formatMicros(sum(cheats.map((c) => c.earnedMicros)))} ` +
        `(${paying.length > 0 ? `by ${paying.join(', ')}; ` : ''}` +
        `honest runs cost ${formatMicros(sum(cheats.map((c) => c.honestCostMicros)))})`,
    );
  } else {
    parts.push('cheats: not measured');
  }
  lines.push(parts.join('; '));
  return `${lines.join('\n')}\n`;
}
