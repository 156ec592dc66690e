import { zodResolver } from '@hookform/resolvers/zod';
import { newPasswordSchema, PASSWORD_MIN_LENGTH } from '@fabric/contract';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { z } from 'zod';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/form-field';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-client';
import { showServerFieldError } from '@/lib/form-errors';
import { useResetPassword } from '../api/reset-password';

const resetPasswordFormSchema = z
  .object({
    new_password: newPasswordSchema,
    confirm_password: z.string(),
  })
  .refine((values) => values.new_password === values.confirm_password, {
    path: ['confirm_password'],
    message: 'Passwords do not match',
  });

export function ResetPasswordForm({ token, onReset }: { token: string; onReset: () => void }) {
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(resetPasswordFormSchema),
    defaultValues: { new_password: '', confirm_password: '' },
  });
  const reset = useResetPassword();

  return (
    <form
      noValidate
      aria-label="Choose a new password"
      className="grid gap-5"
      onSubmit={(event) =>
        void handleSubmit(({ new_password }) => {
          reset.mutate(
            { token, new_password },
            {
              onSuccess: () => {
                toast.success('Password updated', {
                  description: 'Sign in with your new password.',
                });
                onReset();
              },
              onError: (error) => {
                showServerFieldError(error, setError, ['new_password']);
                toast.error('Could not reset password', {
                  description: errorMessage(
                    error,
                    'The reset link may have expired. Request a new one.',
                  ),
                });
              },
            },
          );
        })(event)
      }
    >
      <TextField
        label="New Password"
        type="password"
        autoComplete="new-password"
        description={`At least ${PASSWORD_MIN_LENGTH} characters.`}
        error={errors.new_password?.message}
        {...register('new_password')}
      />
      <TextField
        label="Confirm Password"
        type="password"
        autoComplete="new-password"
        error={errors.confirm_password?.message}
        {...register('confirm_password')}
      />
      <Button type="submit" size="lg" className="w-full" disabled={reset.isPending}>
        {reset.isPending ? (
          <>
            <Spinner />
            Saving…
          </>
        ) : (
          'Set new password'
        )}
      </Button>
    </form>
  );
}
