import { useId, type ReactNode } from 'react';
import {
  Bar,
  BarChart,
  CartesianGrid,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
  type TooltipContentProps,
} from 'recharts';
import { formatUsd } from '@/lib/format';

// Money per day as bars, for Node Details (a node's earnings) and Billing (earned or spent).
// Every day of the window is drawn, zeros included: the chart shows what the ledger holds.

/** How many days the charts cover, today included. */
export const CHART_DAYS = 30;
export const CHART_HEIGHT = 240;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface MoneyDay {
  /** 'YYYY-MM-DD' (UTC), as the server keys its days. */
  date: string;
  /** Whole cents, so sums do not drift. */
  cents: number;
  /** Dollars, for the bar height. */
  amount: number;
}

/** Dollars (a number or the API's decimal string) as whole cents; unreadable counts 0. */
export function toCents(amount: number | string): number {
  const dollars = typeof amount === 'number' ? amount : Number.parseFloat(amount);
  return Number.isFinite(dollars) ? Math.round(dollars * 100) : 0;
}

/**
 * One entry per day of the `days` ending with the later of `today` and the server's last day,
 * oldest first; a day the server left out counts 0.
 */
export function lastDaysOf(
  byDay: readonly { date: string; amount: number | string }[],
  today: Date,
  days = CHART_DAYS,
): MoneyDay[] {
  const centsByDate = new Map<string, number>();
  for (const { date, amount } of byDay) {
    centsByDate.set(date, (centsByDate.get(date) ?? 0) + toCents(amount));
  }
  const todayUtc = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
  const lastServerDay = Date.parse(`${byDay.at(-1)?.date ?? ''}T00:00:00Z`);
  const end = Number.isNaN(lastServerDay) ? todayUtc : Math.max(todayUtc, lastServerDay);
  return Array.from({ length: days }, (_, index) => {
    const date = new Date(end - (days - 1 - index) * DAY_MS).toISOString().slice(0, 10);
    const cents = centsByDate.get(date) ?? 0;
    return { date, cents, amount: cents / 100 };
  });
}

const shortDay = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  timeZone: 'UTC',
});
const longDay = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  timeZone: 'UTC',
});

function dayLabel(date: unknown, format = shortDay): string {
  if (typeof date !== 'string') return '';
  const parsed = new Date(`${date}T00:00:00Z`);
  return Number.isNaN(parsed.getTime()) ? date : format.format(parsed);
}

/** Five evenly spaced round ticks from $0 covering `max`; $0-$1 when there is nothing. */
function dollarTicks(max: number): number[] {
  if (!(max > 0)) return [0, 0.25, 0.5, 0.75, 1];
  const rough = max / 4;
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const factor = [1, 2, 2.5, 5].find((candidate) => rough <= candidate * magnitude) ?? 10;
  const step = factor * magnitude;
  return [0, 1, 2, 3, 4].map((index) => Math.round(index * step * 100) / 100);
}

/** Axis ticks: whole dollars without cents, small amounts with them. */
function axisUsd(value: number): string {
  return value >= 10 || Number.isInteger(value) ? `$${value.toFixed(0)}` : `$${value.toFixed(2)}`;
}

function DayTooltip({ active, label }: TooltipContentProps, series: MoneyDay[]) {
  const day = series.find((entry) => entry.date === label);
  if (!active || !day) return null;
  return (
    <div className="rounded-md border bg-popover px-3 py-2 text-sm text-popover-foreground shadow-md">
      <p className="text-muted-foreground">{dayLabel(day.date, longDay)}</p>
      <p className="font-semibold">{formatUsd(day.amount)}</p>
    </div>
  );
}

/** The chart in words, for screen readers: total, range, active days, the highest day. */
export function summarize(series: MoneyDay[], verb: 'earned' | 'spent'): string {
  const first = series[0];
  const last = series.at(-1);
  const range =
    first && last ? `${dayLabel(first.date, longDay)} to ${dayLabel(last.date, longDay)}` : '';
  const activeDays = series.filter((day) => day.cents > 0);
  if (activeDays.length === 0) return `Nothing ${verb} from ${range}.`;
  const totalCents = series.reduce((sum, day) => sum + day.cents, 0);
  const best = activeDays.reduce((top, day) => (day.cents > top.cents ? day : top));
  return `${formatUsd(totalCents / 100)} ${verb} from ${range}, on ${activeDays.length} of ${series.length} days; the highest day was ${dayLabel(best.date, longDay)} with ${formatUsd(best.amount)}.`;
}

/**
 * The bars and their description. The drawing is hidden from assistive technology and takes no
 * keyboard focus; the summary says the same in words. `caption` is shown under the bars.
 */
export function DailyMoneyChart({
  series,
  label,
  verb,
  caption,
}: {
  series: MoneyDay[];
  /** The bars' name: 'Earnings' or 'Spending'. */
  label: string;
  verb: 'earned' | 'spent';
  caption?: ReactNode;
}) {
  const summaryId = useId();
  const ticks = dollarTicks(Math.max(0, ...series.map((day) => day.amount)));
  return (
    <figure aria-describedby={summaryId} className="space-y-3">
      <div style={{ height: CHART_HEIGHT }} className="w-full" aria-hidden="true">
        <ResponsiveContainer
          width="100%"
          height="100%"
          initialDimension={{ width: 640, height: CHART_HEIGHT }}
        >
          <BarChart
            data={series}
            margin={{ top: 8, right: 4, bottom: 0, left: 0 }}
            accessibilityLayer={false}
          >
            <CartesianGrid vertical={false} stroke="var(--border)" />
            <XAxis
              dataKey="date"
              tickFormatter={(date: string) => dayLabel(date)}
              tickLine={false}
              axisLine={false}
              interval="preserveStartEnd"
              minTickGap={24}
              tick={{ fontSize: 12, fill: 'var(--muted-foreground)' }}
            />
            <YAxis
              tickFormatter={axisUsd}
              tickLine={false}
              axisLine={false}
              width={52}
              // Round ticks; an all-zero month still gets a readable $0-$1 scale.
              ticks={ticks}
              domain={[0, ticks.at(-1) ?? 1]}
              tick={{ fontSize: 12, fill: 'var(--muted-foreground)' }}
            />
            <Tooltip
              cursor={{ fill: 'var(--muted)' }}
              content={(props: TooltipContentProps) => DayTooltip(props, series)}
            />
            <Bar
              dataKey="amount"
              name={label}
              fill="var(--primary)"
              radius={[3, 3, 0, 0]}
              maxBarSize={24}
            />
          </BarChart>
        </ResponsiveContainer>
      </div>
      <figcaption id={summaryId} className="text-sm text-muted-foreground">
        <span className="sr-only">{summarize(series, verb)} </span>
        {caption}
      </figcaption>
    </figure>
  );
}
