import { PRODUCT_NAME, type Role } from '@fabric/contract';
import type { HistoryRow } from '../repositories/ledger.repository.ts';

// A monthly statement of the ledger as a printable HTML page (the browser's Print → PDF gives the
// PDF). Everything in it comes from the ledger; nothing is estimated.

export interface StatementInput {
  productName?: string;
  email: string;
  organizationName: string | null;
  role: Role;
  /** "2026-11" */
  month: string;
  openingMicros: number;
  closingMicros: number;
  rows: HistoryRow[];
  describe: (row: HistoryRow) => string;
  generatedAt: Date;
}

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const longMonth = new Intl.DateTimeFormat('en-US', {
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
});
const day = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  timeZone: 'UTC',
});

function money(micros: number): string {
  return usd.format(Math.round(micros / 10_000) / 100);
}

function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

export function renderStatement(input: StatementInput): string {
  const monthStart = new Date(`${input.month}-01T00:00:00.000Z`);
  const title = `${PRODUCT_NAME} statement — ${longMonth.format(monthStart)}`;
  const incoming = input.rows.filter((row) => row.amountMicros > 0);
  const outgoing = input.rows.filter((row) => row.amountMicros < 0);
  const sum = (rows: HistoryRow[]) => rows.reduce((total, row) => total + row.amountMicros, 0);
  const account = input.role === 'enterprise' ? 'Credits' : 'Earnings';
  const lines = [...input.rows]
    .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
    .map(
      (row) => `<tr>
        <td>${escapeHtml(day.format(row.createdAt))}</td>
        <td class="mono">${escapeHtml(row.id.slice(0, 8))}</td>
        <td>${escapeHtml(input.describe(row))}</td>
        <td class="amount ${row.amountMicros < 0 ? 'out' : 'in'}">${money(row.amountMicros)}</td>
      </tr>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
  body { font: 14px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: #111827; margin: 2rem auto; max-width: 52rem; padding: 0 1rem; }
  h1 { font-size: 1.5rem; margin: 0 0 .25rem; }
  .muted { color: #6b7280; }
  .summary { display: grid; grid-template-columns: repeat(auto-fit, minmax(10rem, 1fr)); gap: .75rem; margin: 1.5rem 0; }
  .summary div { border: 1px solid #e5e7eb; border-radius: .5rem; padding: .75rem; }
  .summary strong { display: block; font-size: 1.1rem; }
  table { width: 100%; border-collapse: collapse; }
  th, td { text-align: left; padding: .5rem; border-bottom: 1px solid #e5e7eb; vertical-align: top; }
  th { font-size: .75rem; text-transform: uppercase; letter-spacing: .04em; color: #6b7280; }
  .amount { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
  .in { color: #047857; } .out { color: #b91c1c; }
  .mono { font-family: ui-monospace, monospace; }
  @media print { body { margin: 0; } .no-print { display: none; } }
</style>
</head>
<body>
<h1>${escapeHtml(title)}</h1>
<p class="muted">${escapeHtml(input.organizationName ?? input.email)} · ${escapeHtml(input.email)}<br>
Generated ${escapeHtml(day.format(input.generatedAt))} (UTC dates; amounts in USD)</p>
<p class="muted no-print">To keep a PDF, print this page and choose “Save as PDF”.</p>
<section class="summary" aria-label="Summary">
  <div><span class="muted">${account}, opening</span><strong>${money(input.openingMicros)}</strong></div>
  <div><span class="muted">Money in</span><strong class="in">${money(sum(incoming))}</strong></div>
  <div><span class="muted">Money out</span><strong class="out">${money(sum(outgoing))}</strong></div>
  <div><span class="muted">${account}, closing</span><strong>${money(input.closingMicros)}</strong></div>
</section>
<table>
  <thead><tr><th>Date</th><th>Transaction</th><th>Description</th><th class="amount">Amount</th></tr></thead>
  <tbody>
${lines || '<tr><td colspan="4" class="muted">No transactions this month.</td></tr>'}
  </tbody>
</table>
</body>
</html>
`;
}
