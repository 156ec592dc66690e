import { zodResolver } from '@hookform/resolvers/zod';
import {
  PASSWORD_MIN_LENGTH,
  PRODUCT_NAME,
  type RegisterRequest,
  type Role,
} from '@fabric/contract';
import { useForm, useWatch, type Path } from 'react-hook-form';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/form-field';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-client';
import { showServerFieldError } from '@/lib/form-errors';
import { useSignUp } from '../api/sign-up';
import { LegalNotice } from './legal-notice';
import { RoleChoice } from './role-choice';
import { signUpFormSchema, type SignUpFormValues } from './sign-up-schema';

export function SignUpForm({
  initialRole,
  onSignedUp,
}: {
  initialRole: Role;
  onSignedUp: () => void;
}) {
  const {
    register,
    handleSubmit,
    control,
    setError,
    formState: { errors },
  } = useForm<SignUpFormValues, unknown, RegisterRequest>({
    resolver: zodResolver(signUpFormSchema),
    defaultValues: {
      role: initialRole,
      email: '',
      password: '',
      name: '',
      organization_name: '',
      domain: '',
      industry: '',
    },
  });
  const role = useWatch({ control, name: 'role' });

  const signUp = useSignUp({
    onSuccess: () => {
      toast.success('Account created!', {
        description: `Welcome to ${PRODUCT_NAME}! Your account is ready.`,
      });
      onSignedUp();
    },
    onError: (error) => {
      showServerFieldError(error, setError, signUpFields);
      toast.error('Registration failed', {
        description: errorMessage(error, 'Could not create account. Please try again.'),
      });
    },
  });

  return (
    <form
      noValidate
      aria-label="Sign up"
      className="grid gap-5"
      onSubmit={(event) =>
        void handleSubmit((account) => {
          signUp.mutate(account);
        })(event)
      }
    >
      <RoleChoice {...register('role')} />
      <TextField
        label="Email"
        type="email"
        autoComplete="email"
        placeholder="you@company.com"
        error={errors.email?.message}
        {...register('email')}
      />
      <TextField
        label="Password"
        type="password"
        autoComplete="new-password"
        description={`At least ${PASSWORD_MIN_LENGTH} characters.`}
        error={errors.password?.message}
        {...register('password')}
      />
      {role === 'enterprise' ? (
        <>
          <TextField
            label="Organization Name"
            autoComplete="organization"
            placeholder="Acme Inc."
            error={errors.organization_name?.message}
            {...register('organization_name')}
          />
          <div className="grid gap-5 sm:grid-cols-2">
            <TextField
              label="Domain"
              autoComplete="url"
              placeholder="acme.com"
              error={errors.domain?.message}
              {...register('domain')}
            />
            <TextField
              label="Industry"
              placeholder="Healthcare"
              error={errors.industry?.message}
              {...register('industry')}
            />
          </div>
        </>
      ) : (
        <TextField
          label="Name"
          autoComplete="name"
          placeholder="Ada Lovelace"
          error={errors.name?.message}
          {...register('name')}
        />
      )}
      <Button type="submit" size="lg" className="w-full" disabled={signUp.isPending}>
        {signUp.isPending ? (
          <>
            <Spinner />
            Creating account…
          </>
        ) : (
          'Create Account'
        )}
      </Button>
      <LegalNotice action="creating an account" />
    </form>
  );
}

const signUpFields = [
  'email',
  'password',
  'name',
  'organization_name',
  'domain',
  'industry',
] as const satisfies readonly Path<SignUpFormValues>[];
