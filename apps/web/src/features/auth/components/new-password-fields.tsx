import { PASSWORD_MIN_LENGTH } from '@fabric/contract';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { TextField } from '@/components/ui/form-field';

/** Refinement of a form with `new_password` and `confirm_password`: both must be the same. */
export function passwordsAreEqual(values: { new_password: string; confirm_password: string }) {
  return values.new_password === values.confirm_password;
}
export const passwordsMismatch = { path: ['confirm_password'], message: 'Passwords do not match' };

/** The New Password / Confirm Password pair of the reset and change-password forms. */
export function NewPasswordFields({
  newPassword,
  confirmPassword,
  errors,
}: {
  newPassword: UseFormRegisterReturn<'new_password'>;
  confirmPassword: UseFormRegisterReturn<'confirm_password'>;
  errors: { newPassword?: string | undefined; confirmPassword?: string | undefined };
}) {
  return (
    <>
      <TextField
        label="New Password"
        type="password"
        autoComplete="new-password"
        description={`At least ${PASSWORD_MIN_LENGTH} characters.`}
        error={errors.newPassword}
        {...newPassword}
      />
      <TextField
        label="Confirm Password"
        type="password"
        autoComplete="new-password"
        error={errors.confirmPassword}
        {...confirmPassword}
      />
    </>
  );
}
