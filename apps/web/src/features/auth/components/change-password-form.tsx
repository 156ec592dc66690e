import { zodResolver } from '@hookform/resolvers/zod';
import { changePasswordRequestSchema } from '@fabric/contract';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { z } from 'zod';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { TextField } from '@/components/ui/form-field';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-client';
import { showServerFieldError } from '@/lib/form-errors';
import { useChangePassword } from '../api/change-password';
import { NewPasswordFields, passwordsAreEqual, passwordsMismatch } from './new-password-fields';

const changePasswordFormSchema = changePasswordRequestSchema
  .extend({
    // The contract says "Password is required"; here there are three passwords to tell apart.
    current_password: z.string().min(1, 'Current password is required'),
    confirm_password: z.string(),
  })
  .refine(passwordsAreEqual, passwordsMismatch);

const emptyValues = { current_password: '', new_password: '', confirm_password: '' };

export function ChangePasswordForm() {
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(changePasswordFormSchema),
    defaultValues: emptyValues,
  });
  const changePassword = useChangePassword();

  return (
    <Card>
      <CardHeader>
        <CardTitle>Change password</CardTitle>
        <CardDescription>
          Other devices signed in to your account will be signed out.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form
          noValidate
          aria-label="Change password"
          className="grid gap-5"
          onSubmit={(event) =>
            void handleSubmit(({ current_password, new_password }) => {
              changePassword.mutate(
                { current_password, new_password },
                {
                  onSuccess: () => {
                    toast.success('Password changed', {
                      description: 'Use your new password the next time you sign in.',
                    });
                    reset(emptyValues);
                  },
                  onError: (error) => {
                    showServerFieldError(error, setError, ['current_password', 'new_password']);
                    toast.error('Could not change password', {
                      description: errorMessage(error, 'Please try again.'),
                    });
                  },
                },
              );
            })(event)
          }
        >
          <TextField
            label="Current Password"
            type="password"
            autoComplete="current-password"
            className="sm:max-w-sm"
            error={errors.current_password?.message}
            {...register('current_password')}
          />
          <div className="grid gap-5 sm:grid-cols-2">
            <NewPasswordFields
              newPassword={register('new_password')}
              confirmPassword={register('confirm_password')}
              errors={{
                newPassword: errors.new_password?.message,
                confirmPassword: errors.confirm_password?.message,
              }}
            />
          </div>
          <div className="flex justify-end">
            <Button type="submit" disabled={changePassword.isPending}>
              {changePassword.isPending ? <Spinner /> : null}
              Change password
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
