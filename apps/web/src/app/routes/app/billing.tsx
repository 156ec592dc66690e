import { CreditCard } from 'lucide-react';
import { useEffect } from 'react';
import { Link, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { useCurrentUser } from '@/features/auth/api/get-current-user';
import { useBalance } from '@/features/payments/api/get-balance';
import { AddCreditsDialog } from '@/features/payments/components/add-credits-dialog';
import { BalanceCards } from '@/features/payments/components/balance-cards';
import { BillingNote } from '@/features/payments/components/billing-note';
import { MoneyChart } from '@/features/payments/components/money-chart';
import { PayoutDialog } from '@/features/payments/components/payout-dialog';
import { StatementButton } from '@/features/payments/components/statement-button';
import { TransactionHistory } from '@/features/payments/components/transaction-history';
import { useStoredRole } from '@/hooks/use-stored-session';

/** The query flag the card checkout returns with (`/billing?credits=added`). */
const CHECKOUT_RETURN_PARAM = 'credits';
const CHECKOUT_RETURN_MESSAGE =
  'Payment received. Your credits appear as soon as the card processor confirms it.';

/** /billing: Earnings for node providers, Billing & Credits for enterprises, on the ledger. */
export function BillingRoute() {
  const role = useStoredRole();
  const isProvider = role === 'node_provider';
  const balance = useBalance();
  const { data: user } = useCurrentUser();
  const [searchParams, setSearchParams] = useSearchParams();
  const isBackFromCheckout = searchParams.get(CHECKOUT_RETURN_PARAM) === 'added';

  // The card checkout sends the buyer back here; the credits land when the processor confirms
  // (a live update then refreshes the balance).
  useEffect(() => {
    if (!isBackFromCheckout) return;
    toast.success(CHECKOUT_RETURN_MESSAGE);
    setSearchParams({}, { replace: true });
  }, [isBackFromCheckout, setSearchParams]);

  return (
    <>
      <PageHeader
        title={isProvider ? 'Earnings' : 'Billing & Credits'}
        description={
          isProvider
            ? 'Your balance, payouts and earnings history.'
            : 'Your credit balance, spending and transactions.'
        }
        actions={
          isProvider ? (
            <>
              <PayoutDialog available={balance.data?.credits_balance ?? 0} />
              <Button asChild variant="outline">
                <Link to={paths.settings.href()}>
                  <CreditCard aria-hidden="true" />
                  Payment Methods
                </Link>
              </Button>
            </>
          ) : (
            <>
              <AddCreditsDialog />
              <StatementButton accountCreatedAt={user?.created_at} />
            </>
          )
        }
      />
      <div className="grid gap-6">
        <BalanceCards role={role} balance={balance.data} isPending={balance.isPending} />
        <div className="grid gap-6 lg:grid-cols-3">
          <div className="min-w-0 lg:col-span-2">
            <MoneyChart
              kind={isProvider ? 'earnings' : 'spending'}
              byDay={balance.data?.by_day}
              isPending={balance.isPending}
            />
          </div>
          <BillingNote role={role} />
        </div>
        <TransactionHistory role={role} />
      </div>
    </>
  );
}
