import { ArrowLeft } from 'lucide-react';
import { Link } from 'react-router';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { paths } from '@/config/paths';
import { AuthLayout } from '@/features/auth/components/auth-layout';
import { ForgotPasswordForm } from '@/features/auth/components/forgot-password-form';
import { useDocumentTitle } from '@/hooks/use-document-title';

export function ForgotPasswordRoute() {
  useDocumentTitle('Forgot password');
  return (
    <AuthLayout>
      <Card className="shadow-md">
        <CardHeader className="px-5 sm:px-8">
          <h1 className="text-2xl leading-tight font-semibold tracking-tight">
            Forgot your password?
          </h1>
          <CardDescription>
            Enter the email you signed up with and we’ll send you a link to choose a new password.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-6 px-5 sm:px-8">
          <ForgotPasswordForm />
          <BackToSignIn />
        </CardContent>
      </Card>
    </AuthLayout>
  );
}

export function BackToSignIn() {
  return (
    <Link
      to={paths.auth.signIn.href()}
      className="inline-flex items-center justify-center gap-1.5 rounded-sm text-sm font-medium text-muted-foreground hover:text-foreground"
    >
      <ArrowLeft aria-hidden="true" className="size-4" />
      Back to Sign In
    </Link>
  );
}
