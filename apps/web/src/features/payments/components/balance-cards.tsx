import type { BalanceResponse, Role } from '@fabric/contract';
import { Clock, DollarSign, TrendingUp, Wallet } from 'lucide-react';
import { StatCard } from '@/components/stat-card';
import { formatUsd } from '@/lib/format';

/**
 * The three Billing summary cards of the role. Amounts are 0.00 when the balance could not be
 * loaded (spec section 2); a skeleton shows while it loads.
 */
export function BalanceCards({
  role,
  balance,
  isPending,
}: {
  role: Role;
  balance: BalanceResponse | undefined;
  isPending: boolean;
}) {
  const amount = (pick: (data: BalanceResponse) => number) =>
    isPending ? undefined : formatUsd(balance ? pick(balance) : 0);

  if (role === 'node_provider') {
    return (
      <div className="grid gap-3 sm:grid-cols-3 sm:gap-4">
        <StatCard
          title="Current Balance"
          icon={Wallet}
          value={amount((data) => data.credits_balance)}
          note="Ready for payout"
        />
        <StatCard
          title="Pending Earnings"
          icon={Clock}
          value={amount((data) => data.pending_earnings)}
          note="Processing"
        />
        <StatCard
          title="Lifetime Earnings"
          icon={DollarSign}
          value={amount((data) => data.lifetime_earnings)}
          note="Total earned"
        />
      </div>
    );
  }

  const held = balance?.held_credits ?? 0;
  return (
    <div className="grid gap-3 sm:grid-cols-3 sm:gap-4">
      <StatCard
        title="Credit Balance"
        icon={Wallet}
        value={amount((data) => data.credits_balance)}
        note={
          <>
            Available credits
            {held > 0 ? (
              <span className="mt-1 block text-warning-foreground">
                {formatUsd(held)} on hold for running jobs
              </span>
            ) : null}
          </>
        }
      />
      <StatCard
        title="This Month"
        icon={TrendingUp}
        value={amount((data) => data.this_month)}
        note="Current month activity"
      />
      <StatCard
        title="Lifetime Spending"
        icon={DollarSign}
        value={amount((data) => data.lifetime_spending)}
        note="Total spent"
      />
    </div>
  );
}
