import { CreditCard, Wallet } from 'lucide-react';
import { EmptyState } from '@/components/empty-state';
import { PageHeader } from '@/components/page-header';
import { useStoredRole } from '@/hooks/use-stored-session';

export function BillingRoute() {
  const role = useStoredRole();
  if (role === 'node_provider') {
    return (
      <>
        <PageHeader title="Earnings" description="Your balance, payouts and earnings history." />
        <EmptyState icon={Wallet} title="Your earnings will appear here">
          <p>
            Your current balance, pending and lifetime earnings, payouts and every transaction.
            Providers are paid monthly for the compute their devices actually deliver, in USD.
          </p>
        </EmptyState>
      </>
    );
  }
  return (
    <>
      <PageHeader
        title="Billing & Credits"
        description="Your credit balance, spending and transactions."
      />
      <EmptyState icon={CreditCard} title="Your credits and spending will appear here">
        <p>
          Your credit balance, this month’s activity, lifetime spending and every transaction. Jobs
          are billed on actual usage from prepaid credits, in USD.
        </p>
      </EmptyState>
    </>
  );
}
