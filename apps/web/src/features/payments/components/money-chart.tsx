import type { BalanceResponse } from '@fabric/contract';
import { useId, useMemo, useState } from 'react';
import {
  CHART_DAYS,
  CHART_HEIGHT,
  DailyMoneyChart,
  lastDaysOf,
} from '@/components/daily-money-chart';
import { Card, CardAction, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { formatUsd } from '@/lib/format';

/** Billing's chart: money per day of the last 30, earned (provider) or spent (enterprise). */
export function MoneyChart({
  kind,
  byDay,
  isPending,
}: {
  kind: 'earnings' | 'spending';
  /** Undefined when the balance could not be loaded: the days are drawn as zeros. */
  byDay: BalanceResponse['by_day'] | undefined;
  isPending: boolean;
}) {
  const titleId = useId();
  const [today] = useState(() => new Date());
  const series = useMemo(() => lastDaysOf(byDay ?? [], today), [byDay, today]);
  const totalCents = series.reduce((sum, day) => sum + day.cents, 0);
  const isEarnings = kind === 'earnings';
  const verb = isEarnings ? 'earned' : 'spent';

  return (
    <Card role="region" aria-labelledby={titleId} className="h-full min-w-0">
      <CardHeader>
        <CardTitle id={titleId}>
          {isEarnings ? 'Earnings' : 'Spending'} (last {CHART_DAYS} days)
        </CardTitle>
        {isPending ? null : (
          <CardAction className="text-right">
            <p className="text-2xl font-semibold tracking-tight tabular-nums">
              {formatUsd(totalCents / 100)}
            </p>
            <p className="text-xs text-muted-foreground">
              {verb} in {CHART_DAYS} days
            </p>
          </CardAction>
        )}
      </CardHeader>
      <CardContent>
        {isPending ? (
          <Skeleton className="w-full" style={{ height: CHART_HEIGHT }} />
        ) : (
          <DailyMoneyChart
            series={series}
            label={isEarnings ? 'Earnings' : 'Spending'}
            verb={verb}
            caption={
              totalCents === 0
                ? isEarnings
                  ? `No earnings in the last ${CHART_DAYS} days. Each job your nodes complete adds to them.`
                  : `No spending in the last ${CHART_DAYS} days. Jobs are charged when they end.`
                : null
            }
          />
        )}
      </CardContent>
    </Card>
  );
}
