import type { Role, Transaction } from '@fabric/contract';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Pager } from '@/components/pager';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/api-client';
import { formatUsd, shortId } from '@/lib/format';
import { cn } from '@/lib/utils';
import { useTransactions } from '../api/get-transactions';

export const TRANSACTIONS_PAGE_SIZE = 20;
const SKELETON_ROWS = 5;

type TabValue = 'all' | 'in' | 'out';

function tabsOf(role: Role) {
  const isProvider = role === 'node_provider';
  return [
    { value: 'all', label: 'All', empty: 'No transactions yet' },
    { value: 'in', label: isProvider ? 'Earnings' : 'Credits', empty: 'No income transactions' },
    { value: 'out', label: isProvider ? 'Payouts' : 'Expenses', empty: 'No expense transactions' },
  ] as const satisfies readonly { value: TabValue; label: string; empty: string }[];
}

function isTabValue(value: string): value is TabValue {
  return value === 'all' || value === 'in' || value === 'out';
}

const date = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
const time = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit' });

function TransactionDate({ iso }: { iso: string }) {
  const value = new Date(iso);
  if (Number.isNaN(value.getTime())) return <>—</>;
  return (
    <time dateTime={iso} title={value.toLocaleString('en-US')}>
      {date.format(value)}
      <span className="hidden text-muted-foreground sm:inline"> · {time.format(value)}</span>
    </time>
  );
}

/** Green for money in, red for money out; the absolute value, in USD with 2 decimals. */
function Amount({ amount }: { amount: number }) {
  const isIncome = amount > 0;
  return (
    <>
      <span className="sr-only">{isIncome ? 'In: ' : amount < 0 ? 'Out: ' : ''}</span>
      <span
        data-testid="transaction-amount"
        className={cn(
          'font-semibold tabular-nums',
          isIncome ? 'text-success' : amount < 0 ? 'text-destructive' : 'text-muted-foreground',
        )}
      >
        {formatUsd(Math.abs(amount))}
      </span>
    </>
  );
}

const cell = 'sm:px-3 sm:py-3';

/**
 * Transactions as a table on wider screens; on phones each row stacks (description and amount,
 * then date and id) so nothing overflows the card.
 */
function TransactionsTable({
  transactions,
  role,
  isLoading,
}: {
  transactions: Transaction[];
  role: Role;
  isLoading: boolean;
}) {
  return (
    <table className="block w-full text-sm sm:table">
      <thead className="sr-only text-left text-muted-foreground sm:not-sr-only sm:table-header-group">
        <tr className="border-b">
          <th scope="col" className="px-3 py-2 font-medium">
            Date
          </th>
          <th scope="col" className="px-3 py-2 font-medium">
            Transaction ID
          </th>
          <th scope="col" className="px-3 py-2 font-medium">
            Description
          </th>
          <th scope="col" className="px-3 py-2 text-right font-medium">
            Amount
          </th>
        </tr>
      </thead>
      <tbody className="block sm:table-row-group" aria-busy={isLoading || undefined}>
        {isLoading
          ? Array.from({ length: SKELETON_ROWS }, (_, index) => (
              <tr
                key={index}
                data-testid="transaction-skeleton"
                className="block border-b px-3 py-3 last:border-0 sm:table-row sm:p-0"
              >
                <td colSpan={4} className={cn('block', 'sm:table-cell', cell)}>
                  <Skeleton className="h-5 w-full" />
                </td>
              </tr>
            ))
          : transactions.map((transaction) => (
              <tr
                key={transaction.id}
                className="grid grid-cols-[minmax(0,1fr)_auto] gap-x-4 gap-y-1 border-b px-3 py-3 last:border-0 sm:table-row sm:p-0"
              >
                <td
                  className={cn(
                    'order-3 text-xs whitespace-nowrap text-muted-foreground sm:text-sm sm:text-foreground',
                    cell,
                  )}
                >
                  <TransactionDate iso={transaction.created_at} />
                </td>
                <td
                  className={cn(
                    'order-4 text-right font-mono text-xs text-muted-foreground sm:text-left',
                    cell,
                  )}
                >
                  {shortId(transaction.id)}
                </td>
                <td className={cn('order-1 min-w-0 break-words', cell)}>
                  {role === 'enterprise' && transaction.job_id ? (
                    <Link
                      to={paths.jobs.detail.href(transaction.job_id)}
                      className="underline-offset-4 hover:text-primary hover:underline"
                    >
                      {transaction.description}
                    </Link>
                  ) : (
                    transaction.description
                  )}
                </td>
                <td className={cn('order-2 text-right whitespace-nowrap', cell)}>
                  <Amount amount={transaction.amount} />
                </td>
              </tr>
            ))}
      </tbody>
    </table>
  );
}

/** Transaction History: tabs by direction, server-side pages of 20, newest first. */
export function TransactionHistory({ role }: { role: Role }) {
  const titleId = useId();
  const tabs = tabsOf(role);
  const [tab, setTab] = useState<TabValue>('all');
  const [page, setPage] = useState(1);
  const direction = tab === 'all' ? undefined : tab;
  const transactions = useTransactions({ page, pageSize: TRANSACTIONS_PAGE_SIZE, direction });
  const data = transactions.data;
  const pageCount = data ? Math.max(1, Math.ceil(data.total / data.page_size)) : 1;
  const current = tabs.find((entry) => entry.value === tab) ?? tabs[0];

  const panel = (
    <>
      {transactions.isPending ? (
        <TransactionsTable transactions={[]} role={role} isLoading />
      ) : transactions.isError ? (
        <Alert variant="destructive">
          <AlertTitle>Transactions could not be loaded</AlertTitle>
          <AlertDescription>
            {errorMessage(transactions.error, 'API request failed')}
          </AlertDescription>
        </Alert>
      ) : transactions.data.transactions.length === 0 ? (
        <p className="rounded-lg border border-dashed px-4 py-10 text-center text-sm text-muted-foreground">
          {current.empty}
        </p>
      ) : (
        <div
          className={cn(
            'grid gap-3 transition-opacity',
            transactions.isPlaceholderData && 'opacity-60',
          )}
        >
          <TransactionsTable
            transactions={transactions.data.transactions}
            role={role}
            isLoading={false}
          />
          {pageCount > 1 ? (
            <Pager
              label="Transaction pages"
              page={page}
              pageCount={pageCount}
              onPageChange={setPage}
              isNextDisabled={transactions.isPlaceholderData}
            />
          ) : null}
        </div>
      )}
    </>
  );

  return (
    <Card role="region" aria-labelledby={titleId} className="min-w-0 gap-4">
      <CardHeader>
        <CardTitle id={titleId}>Transaction History</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4 px-3 sm:px-6">
        <Tabs
          value={tab}
          onValueChange={(value) => {
            if (!isTabValue(value)) return;
            setTab(value);
            setPage(1);
          }}
        >
          <TabsList className="grid h-auto w-full grid-cols-3 sm:inline-flex sm:h-10 sm:w-fit">
            {tabs.map((entry) => (
              <TabsTrigger key={entry.value} value={entry.value}>
                {entry.label}
              </TabsTrigger>
            ))}
          </TabsList>
          {tabs.map((entry) => (
            <TabsContent key={entry.value} value={entry.value} className="mt-0">
              {entry.value === tab ? panel : null}
            </TabsContent>
          ))}
        </Tabs>
      </CardContent>
    </Card>
  );
}
