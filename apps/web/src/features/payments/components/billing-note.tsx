import {
  DEFAULT_MINIMUM_PAYOUT_USD,
  JOB_HOLD_MICROS,
  JOB_RATES,
  JOB_TYPES,
  MICRO_DOLLARS_PER_DOLLAR,
  PROVIDER_SHARE_BASIS_POINTS,
  type Role,
} from '@fabric/contract';
import { Info } from 'lucide-react';
import { useId } from 'react';
import { Link } from 'react-router';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { paths } from '@/config/paths';
import { formatUsd } from '@/lib/format';

const MILLISECONDS_PER_SECOND = 1000;

/** Dollars from micro-dollars with as many decimals as needed (at least 2): "$0.002". */
export function formatMicroUsd(micros: number): string {
  const dollars = micros / MICRO_DOLLARS_PER_DOLLAR;
  for (let decimals = 2; decimals < 6; decimals += 1) {
    if (Math.abs(Number(dollars.toFixed(decimals)) - dollars) < 1e-9) {
      return `$${dollars.toFixed(decimals)}`;
    }
  }
  return `$${dollars.toFixed(6)}`;
}

/** The published rates; every job type shares the standard rate. */
function priceList() {
  const firstType = JOB_TYPES[0];
  const rate = JOB_RATES[firstType];
  return {
    hold: formatMicroUsd(JOB_HOLD_MICROS),
    perJob: formatMicroUsd(rate.perJobMicros),
    perCpuSecond: formatMicroUsd(rate.perCpuMillisecondMicros * MILLISECONDS_PER_SECOND),
  };
}

/** The money rules of the role in a few lines, with the numbers taken from the price list. */
export function BillingNote({ role }: { role: Role }) {
  const titleId = useId();
  const prices = priceList();
  const share = `${(PROVIDER_SHARE_BASIS_POINTS / 100).toString()}%`;

  return (
    <Card role="region" aria-labelledby={titleId} className="h-full gap-4">
      <CardHeader>
        <CardTitle id={titleId} className="flex items-center gap-2">
          <Info aria-hidden="true" className="size-4 text-primary" />
          How billing works
        </CardTitle>
      </CardHeader>
      <CardContent>
        {role === 'node_provider' ? (
          <ul className="grid list-disc gap-2 pl-5 text-sm leading-relaxed text-muted-foreground marker:text-primary/60">
            <li>
              You receive <strong className="font-semibold text-foreground">{share}</strong> of each
              job’s charge when one of your nodes completes it. A job is charged for the work its
              verified result needed, so a faster device earns the same in less time.
            </li>
            <li>
              Earnings stay <strong className="font-semibold text-foreground">pending</strong> until
              the month is settled, then they are ready for payout.
            </li>
            <li>
              Once a bank account is connected, your balance is paid out automatically when it
              reaches your minimum payout (default {formatUsd(DEFAULT_MINIMUM_PAYOUT_USD)}, set in{' '}
              <Link
                to={paths.settings.href()}
                className="font-medium text-primary underline-offset-4 hover:underline"
              >
                Settings
              </Link>
              ). You can also request a payout at any time.
            </li>
          </ul>
        ) : (
          <ul className="grid list-disc gap-2 pl-5 text-sm leading-relaxed text-muted-foreground marker:text-primary/60">
            <li>
              Each job holds{' '}
              <strong className="font-semibold text-foreground">{prices.hold}</strong> of your
              credits while it is queued or running.
            </li>
            <li>
              When it completes it is charged {prices.perJob} plus {prices.perCpuSecond} per
              CPU-second of the work its verified result needed (measured on our reference core, so
              a slow device costs you no more), never more than the hold; the rest is released.
            </li>
            <li>Jobs that fail because of the network or a device are free.</li>
            <li>
              Cancelled jobs pay only for the time they ran on one core, never more than the whole
              job.
            </li>
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
