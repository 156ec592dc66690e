import type { NodeEarningsResponse } from '@fabric/contract';
import { useId, useMemo, useState } from 'react';
import {
  CHART_DAYS,
  CHART_HEIGHT,
  DailyMoneyChart,
  lastDaysOf,
  toCents,
} from '@/components/daily-money-chart';
import { Card, CardAction, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { formatUsd } from '@/lib/format';

/** Node Details' chart: what the node earned per day of the last 30, from its ledger entries. */
export function NodeEarningsChart({
  earnings,
  isPending,
  error,
}: {
  earnings: NodeEarningsResponse | undefined;
  isPending: boolean;
  /** Shown in place of the chart when the earnings could not be loaded. */
  error: string | null;
}) {
  const titleId = useId();
  const [today] = useState(() => new Date());
  const series = useMemo(
    () => (earnings ? lastDaysOf(earnings.by_day, today) : []),
    [earnings, today],
  );
  const totalCents = series.reduce((sum, day) => sum + day.cents, 0);
  const lifetimeCents = earnings ? toCents(earnings.total) : 0;

  return (
    <Card role="region" aria-labelledby={titleId} className="h-full min-w-0">
      <CardHeader>
        <CardTitle id={titleId}>Earnings (last {CHART_DAYS} days)</CardTitle>
        {earnings ? (
          <CardAction className="text-right">
            <p className="text-2xl font-semibold tracking-tight" data-testid="earnings-total">
              {formatUsd(totalCents / 100)}
            </p>
            <p className="text-xs text-muted-foreground">
              Lifetime {formatUsd(lifetimeCents / 100)}
            </p>
          </CardAction>
        ) : null}
      </CardHeader>
      <CardContent>
        {isPending ? (
          <Skeleton className="w-full" style={{ height: CHART_HEIGHT }} />
        ) : error !== null || !earnings ? (
          <p className="text-sm text-destructive">{error ?? 'API request failed'}</p>
        ) : (
          <DailyMoneyChart
            series={series}
            label="Earnings"
            verb="earned"
            caption={
              totalCents === 0 && lifetimeCents === 0
                ? 'No earnings yet. Each job this node completes adds its share here.'
                : totalCents === 0
                  ? `No earnings in the last ${CHART_DAYS} days.`
                  : null
            }
          />
        )}
      </CardContent>
    </Card>
  );
}
