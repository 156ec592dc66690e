import { FileDown } from 'lucide-react';
import { useId, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-client';
import { downloadUrl } from '@/lib/download';
import { getStatement } from '../api/get-statement';

/** How many months back statements can be picked (the current month included). */
const STATEMENT_MONTHS = 12;
/** A blob URL lives this long, so the new tab has loaded it before it is revoked. */
const BLOB_URL_LIFETIME_MS = 60_000;

const monthName = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});

/** "YYYY-MM" of the UTC months from `now` back, newest first, not before `since` when known. */
export function statementMonths(now: Date, since?: string | null): string[] {
  const sinceDate = since ? new Date(since) : null;
  const sinceKey =
    sinceDate && !Number.isNaN(sinceDate.getTime()) ? sinceDate.toISOString().slice(0, 7) : '';
  const months: string[] = [];
  for (let back = 0; back < STATEMENT_MONTHS; back += 1) {
    const key = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1))
      .toISOString()
      .slice(0, 7);
    if (back > 0 && key < sinceKey) break;
    months.push(key);
  }
  return months;
}

function monthLabel(key: string): string {
  return monthName.format(new Date(`${key}-01T00:00:00Z`));
}

/**
 * Download Invoice: the printable statement of the chosen month, fetched with the bearer token and
 * opened in a new tab, or saved as a file when the browser blocks the tab.
 */
export function StatementButton({ accountCreatedAt }: { accountCreatedAt?: string | null }) {
  const selectId = useId();
  const [months] = useState(() => statementMonths(new Date(), accountCreatedAt));
  const [month, setMonth] = useState(() => months[0] ?? '');
  const [isLoading, setIsLoading] = useState(false);

  async function open() {
    // Open the tab while the click still counts as the user's, so pop-up blockers allow it.
    const tab = window.open('', '_blank');
    setIsLoading(true);
    try {
      const html = await getStatement(month);
      const url = URL.createObjectURL(new Blob([html], { type: 'text/html' }));
      window.setTimeout(() => URL.revokeObjectURL(url), BLOB_URL_LIFETIME_MS);
      if (tab) {
        tab.opener = null;
        tab.location.href = url;
      } else {
        downloadUrl(url, `fabric-statement-${month}.html`);
      }
    } catch (error) {
      tab?.close();
      toast.error(errorMessage(error, 'Failed to download invoice'));
    } finally {
      setIsLoading(false);
    }
  }

  return (
    <div className="flex w-full items-center gap-2 sm:w-auto">
      <label htmlFor={selectId} className="sr-only">
        Statement month
      </label>
      <select
        id={selectId}
        value={month}
        onChange={(event) => setMonth(event.target.value)}
        className="h-10 min-w-0 flex-1 rounded-md border border-input bg-card px-3 text-sm shadow-xs sm:flex-none outline-none focus-visible:border-ring focus-visible:ring-3 focus-visible:ring-ring/40"
      >
        {months.map((key) => (
          <option key={key} value={key}>
            {monthLabel(key)}
          </option>
        ))}
      </select>
      <Button variant="outline" onClick={() => void open()} disabled={isLoading || !month}>
        {isLoading ? <Spinner /> : <FileDown aria-hidden="true" />}
        Download Invoice
      </Button>
    </div>
  );
}
