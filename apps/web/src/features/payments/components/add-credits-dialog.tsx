import { JOB_HOLD_MICROS, MICRO_DOLLARS_PER_DOLLAR } from '@fabric/contract';
import { Plus } from 'lucide-react';
import { toast } from 'sonner';
import { errorMessage } from '@/lib/api-client';
import { formatUsd } from '@/lib/format';
import { useAddCredits } from '../api/add-credits';
import { AmountDialog } from './amount-dialog';

/** Enterprise: buys prepaid credits; with a card checkout, the browser goes there to pay. */
export function AddCreditsDialog() {
  const addCredits = useAddCredits();

  async function submit(amount: number, idempotencyKey: string): Promise<boolean> {
    try {
      const answer = await addCredits.mutateAsync({ amount, idempotencyKey });
      if (answer.status === 'pending') {
        // Paid by card at the processor's checkout; the credits arrive when it confirms.
        if (answer.checkout_url) window.location.assign(answer.checkout_url);
        else toast.info(answer.message);
        return true;
      }
      toast.success('Credits added successfully');
      return true;
    } catch (error) {
      toast.error(errorMessage(error, 'Failed to add credits'));
      return false;
    }
  }

  return (
    <AmountDialog
      triggerLabel="Add Credits"
      triggerIcon={Plus}
      title="Add Credits"
      description="Prepaid credits pay for your jobs. You are charged only for the compute each job uses."
      fieldDescription={`Each job holds ${formatUsd(JOB_HOLD_MICROS / MICRO_DOLLARS_PER_DOLLAR)} while it runs.`}
      submitLabel="Add Credits"
      submit={submit}
      isPending={addCredits.isPending}
    />
  );
}
