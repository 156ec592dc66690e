import { JOB_HOLD_MICROS, MICRO_DOLLARS_PER_DOLLAR } from '@fabric/contract';
import { Link } from 'react-router';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { paths } from '@/config/paths';
import { formatUsd } from '@/lib/format';
import { useBalance } from '../api/get-balance';

/** How many jobs the available credits cover: floor(balance / 2.40), the hold of one job. */
export function jobsCoveredBy(creditsBalance: number): number {
  const micros = Math.round(creditsBalance * MICRO_DOLLARS_PER_DOLLAR);
  return Math.max(0, Math.floor(micros / JOB_HOLD_MICROS));
}

/** The Submit New Job page's credit balance panel: available credits and the jobs they cover. */
export function CreditBalancePanel() {
  const balance = useBalance();
  const credits = balance.data?.credits_balance ?? 0;
  const held = balance.data?.held_credits ?? 0;
  const jobs = jobsCoveredBy(credits);

  return (
    <Card role="region" aria-label="Credit Balance">
      <CardHeader>
        <CardTitle>Credit Balance</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-1">
        {balance.isPending ? (
          <>
            <Skeleton className="h-8 w-24" />
            <Skeleton className="h-4 w-40" />
          </>
        ) : (
          <>
            <p className="text-2xl font-semibold tabular-nums" data-testid="credit-balance">
              {formatUsd(credits)}
            </p>
            <p className="text-sm text-muted-foreground">
              Enough for {jobs} {jobs === 1 ? 'job' : 'jobs'} at{' '}
              {formatUsd(JOB_HOLD_MICROS / MICRO_DOLLARS_PER_DOLLAR)} each
            </p>
            {held > 0 ? (
              <p className="text-xs text-muted-foreground">
                {formatUsd(held)} on hold for running jobs
              </p>
            ) : null}
            {jobs === 0 ? (
              <Link
                to={paths.billing.href()}
                className="mt-2 text-sm font-medium text-primary underline-offset-4 hover:underline"
              >
                Add credits to run jobs
              </Link>
            ) : null}
          </>
        )}
      </CardContent>
    </Card>
  );
}
