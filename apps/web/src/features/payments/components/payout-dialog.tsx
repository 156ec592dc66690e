import { Banknote } from 'lucide-react';
import { toast } from 'sonner';
import { errorMessage } from '@/lib/api-client';
import { formatUsd } from '@/lib/format';
import { useRequestPayout } from '../api/request-payout';
import { AmountDialog } from './amount-dialog';

/** Provider: pays available earnings (at most `available` dollars) to the connected bank account. */
export function PayoutDialog({ available }: { available: number }) {
  const requestPayout = useRequestPayout();

  async function submit(amount: number, idempotencyKey: string): Promise<boolean> {
    try {
      await requestPayout.mutateAsync({ amount, idempotencyKey });
      toast.success('Payout requested successfully');
      return true;
    } catch (error) {
      toast.error(errorMessage(error, 'Failed to request payout'));
      return false;
    }
  }

  return (
    <AmountDialog
      triggerLabel="Request Payout"
      triggerIcon={Banknote}
      title="Request Payout"
      description={
        <>
          The amount is sent to the bank account connected in Settings.
          <span className="mt-3 block rounded-md bg-muted px-3 py-2 text-left text-foreground">
            Available balance:{' '}
            <span className="font-semibold tabular-nums">{formatUsd(available)}</span>
          </span>
        </>
      }
      validate={(amount) => (amount > available ? 'Insufficient balance' : null)}
      submitLabel="Request Payout"
      submit={submit}
      isPending={requestPayout.isPending}
    />
  );
}
