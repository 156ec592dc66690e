import { zodResolver } from '@hookform/resolvers/zod';
import { forgotPasswordRequestSchema } from '@fabric/contract';
import { MailCheck } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/form-field';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-client';
import { useRequestPasswordReset } from '../api/forgot-password';

export const RESET_LINK_SENT_MESSAGE =
  'If an account exists for that email, a reset link is on its way.';

export function ForgotPasswordForm() {
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(forgotPasswordRequestSchema),
    defaultValues: { email: '' },
  });
  const requestReset = useRequestPasswordReset();

  if (requestReset.isSuccess) {
    // Neutral on purpose: the answer must not reveal whether the address has an account.
    return (
      <Alert variant="success" role="status">
        <MailCheck aria-hidden="true" />
        <AlertTitle>Check your inbox</AlertTitle>
        <AlertDescription>
          <p>{RESET_LINK_SENT_MESSAGE}</p>
          <p>The link expires after a while; request a new one if it does.</p>
        </AlertDescription>
      </Alert>
    );
  }

  return (
    <form
      noValidate
      aria-label="Reset password"
      className="grid gap-5"
      onSubmit={(event) =>
        void handleSubmit((body) => {
          requestReset.mutate(body, {
            onError: (error) => {
              toast.error('Could not send the reset link', {
                description: errorMessage(error, 'Please try again in a moment.'),
              });
            },
          });
        })(event)
      }
    >
      <TextField
        label="Email"
        type="email"
        autoComplete="email"
        placeholder="you@company.com"
        error={errors.email?.message}
        {...register('email')}
      />
      <Button type="submit" size="lg" className="w-full" disabled={requestReset.isPending}>
        {requestReset.isPending ? (
          <>
            <Spinner />
            Sending…
          </>
        ) : (
          'Send reset link'
        )}
      </Button>
    </form>
  );
}
