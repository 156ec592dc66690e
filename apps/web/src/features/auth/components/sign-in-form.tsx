import { zodResolver } from '@hookform/resolvers/zod';
import { loginRequestSchema } from '@fabric/contract';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/form-field';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/api-client';
import { useSignIn } from '../api/sign-in';
import { LegalNotice } from './legal-notice';

export function SignInForm({ onSignedIn }: { onSignedIn: () => void }) {
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(loginRequestSchema),
    defaultValues: { email: '', password: '' },
  });

  const signIn = useSignIn({
    onSuccess: () => {
      toast.success('Welcome back!', { description: "You've successfully signed in." });
      onSignedIn();
    },
    onError: (error) => {
      toast.error('Sign in failed', {
        description: errorMessage(error, 'Invalid credentials. Please try again.'),
      });
    },
  });

  return (
    <form
      noValidate
      aria-label="Sign in"
      className="grid gap-5"
      onSubmit={(event) =>
        void handleSubmit((credentials) => {
          signIn.mutate(credentials);
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
      <TextField
        label="Password"
        type="password"
        autoComplete="current-password"
        error={errors.password?.message}
        labelAction={
          <Link
            to={paths.auth.forgotPassword.href()}
            className="rounded-sm text-sm font-medium text-primary underline-offset-4 hover:underline"
          >
            Forgot password?
          </Link>
        }
        {...register('password')}
      />
      <Button type="submit" size="lg" className="w-full" disabled={signIn.isPending}>
        {signIn.isPending ? (
          <>
            <Spinner />
            Signing in…
          </>
        ) : (
          'Sign In'
        )}
      </Button>
      <LegalNotice action="signing in" />
    </form>
  );
}
