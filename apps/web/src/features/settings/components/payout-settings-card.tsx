import { zodResolver } from '@hookform/resolvers/zod';
import { DEFAULT_MINIMUM_PAYOUT_USD, MINIMUM_PAYOUT_INPUT_MIN_USD } from '@fabric/contract';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { z } from 'zod';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { TextField } from '@/components/ui/form-field';
import { Skeleton } from '@/components/ui/skeleton';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-client';
import { formatUsd } from '@/lib/format';
import { showServerFieldError } from '@/lib/form-errors';
import { useSettings } from '../api/get-settings';
import { useUpdateMinimumPayout } from '../api/update-settings';

const minimumText = formatUsd(MINIMUM_PAYOUT_INPUT_MIN_USD);

const payoutSettingsFormSchema = z.object({
  minimum_payout: z
    .string()
    .trim()
    .min(1, 'Please enter a minimum payout amount')
    .refine((value) => Number.isFinite(Number(value)), 'Please enter a valid amount')
    .refine(
      (value) => Number(value) >= MINIMUM_PAYOUT_INPUT_MIN_USD,
      `Minimum payout must be at least ${minimumText}`,
    )
    .refine(
      (value) => Math.round(Number(value) * 100) / 100 === Number(value),
      'Use at most 2 decimals',
    ),
});

function PayoutSettingsForm({ minimumPayout }: { minimumPayout: number }) {
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(payoutSettingsFormSchema),
    defaultValues: { minimum_payout: minimumPayout.toFixed(2) },
  });
  const updateMinimumPayout = useUpdateMinimumPayout();

  return (
    <form
      noValidate
      aria-label="Payout settings"
      className="grid gap-5"
      onSubmit={(event) =>
        void handleSubmit(({ minimum_payout }) => {
          updateMinimumPayout.mutate(Number(minimum_payout), {
            onSuccess: () => {
              toast.success('Payout settings updated successfully');
            },
            onError: (error) => {
              if (!showServerFieldError(error, setError, ['minimum_payout'])) {
                toast.error(errorMessage(error, 'Failed to update payout settings'));
              }
            },
          });
        })(event)
      }
    >
      <TextField
        label="Minimum Payout Amount"
        type="number"
        inputMode="decimal"
        min={MINIMUM_PAYOUT_INPUT_MIN_USD}
        step={0.01}
        className="sm:max-w-xs"
        description={`In USD, at least ${minimumText}.`}
        error={errors.minimum_payout?.message}
        {...register('minimum_payout')}
      />
      <div className="flex justify-end">
        <Button type="submit" disabled={updateMinimumPayout.isPending}>
          {updateMinimumPayout.isPending ? <Spinner /> : null}
          Update Settings
        </Button>
      </div>
    </form>
  );
}

/** The provider's minimum payout: settled earnings are paid once the available balance reaches it. */
export function PayoutSettingsCard() {
  const settings = useSettings();
  const minimumPayout = settings.data?.minimum_payout ?? DEFAULT_MINIMUM_PAYOUT_USD;

  return (
    <Card>
      <CardHeader>
        <CardTitle>Payout Settings</CardTitle>
        <CardDescription>
          Providers are paid monthly. Settled earnings are paid out automatically once your
          available balance reaches the minimum payout amount.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {settings.isPending ? (
          <div className="grid gap-2" aria-label="Loading payout settings">
            <Skeleton className="h-4 w-44" />
            <Skeleton className="h-10 w-full sm:max-w-xs" />
          </div>
        ) : (
          // Settings that cannot be loaded leave the default amount to edit and save.
          <PayoutSettingsForm minimumPayout={minimumPayout} />
        )}
      </CardContent>
    </Card>
  );
}
