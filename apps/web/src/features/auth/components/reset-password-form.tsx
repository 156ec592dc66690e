import { zodResolver } from '@hookform/resolvers/zod';
import { newPasswordSchema } from '@fabric/contract';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { z } from 'zod';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-client';
import { showServerFieldError } from '@/lib/form-errors';
import { useResetPassword } from '../api/reset-password';
import { NewPasswordFields, passwordsAreEqual, passwordsMismatch } from './new-password-fields';

const resetPasswordFormSchema = z
  .object({
    new_password: newPasswordSchema,
    confirm_password: z.string(),
  })
  .refine(passwordsAreEqual, passwordsMismatch);

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
      <NewPasswordFields
        newPassword={register('new_password')}
        confirmPassword={register('confirm_password')}
        errors={{
          newPassword: errors.new_password?.message,
          confirmPassword: errors.confirm_password?.message,
        }}
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
