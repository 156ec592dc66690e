import { TriangleAlert } from 'lucide-react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { paths } from '@/config/paths';
import { AuthLayout } from '@/features/auth/components/auth-layout';
import { ResetPasswordForm } from '@/features/auth/components/reset-password-form';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { BackToSignIn } from './forgot-password';

export function ResetPasswordRoute() {
  useDocumentTitle('Reset password');
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const token = searchParams.get('token');

  return (
    <AuthLayout>
      <Card className="shadow-md">
        <CardHeader className="px-5 sm:px-8">
          <h1 className="text-2xl leading-tight font-semibold tracking-tight">
            Choose a new password
          </h1>
          <CardDescription>
            Your other sessions will be signed out once the password is changed.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-6 px-5 sm:px-8">
          {token ? (
            <ResetPasswordForm
              token={token}
              onReset={() => {
                void navigate(paths.auth.signIn.href(), { replace: true });
              }}
            />
          ) : (
            <Alert variant="warning">
              <TriangleAlert aria-hidden="true" />
              <AlertTitle>This link is incomplete</AlertTitle>
              <AlertDescription>
                <p>
                  Open the link from the email exactly as it was sent, or{' '}
                  <Link
                    to={paths.auth.forgotPassword.href()}
                    className="font-medium text-primary underline underline-offset-4"
                  >
                    request a new reset link
                  </Link>
                  .
                </p>
              </AlertDescription>
            </Alert>
          )}
          <BackToSignIn />
        </CardContent>
      </Card>
    </AuthLayout>
  );
}
