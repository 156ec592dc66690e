import { TriangleAlert } from 'lucide-react';
import { PageHeader } from '@/components/page-header';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { useCurrentUser } from '@/features/auth/api/get-current-user';
import { ChangePasswordForm } from '@/features/auth/components/change-password-form';
import { EditProfileForm } from '@/features/auth/components/edit-profile-form';
import { ProfileInformation } from '@/features/auth/components/profile-information';
import { useStoredEmail, useStoredRole } from '@/hooks/use-stored-session';
import { errorMessage } from '@/lib/api-client';

export function SettingsRoute() {
  const role = useStoredRole();
  const storedEmail = useStoredEmail();
  const currentUser = useCurrentUser();

  return (
    <>
      <PageHeader title="Settings" description="Your profile and sign-in details." />
      <div className="grid max-w-3xl gap-6">
        {currentUser.isError ? (
          <Alert variant="warning">
            <TriangleAlert aria-hidden="true" />
            <AlertTitle>Your profile could not be loaded</AlertTitle>
            <AlertDescription>
              <p>{errorMessage(currentUser.error, 'Please reload the page to try again.')}</p>
            </AlertDescription>
          </Alert>
        ) : null}
        <ProfileInformation
          user={currentUser.data}
          isLoading={currentUser.isPending}
          role={currentUser.data?.role ?? role}
          fallbackEmail={storedEmail}
        />
        {currentUser.data ? (
          <EditProfileForm key={currentUser.data.id} user={currentUser.data} />
        ) : null}
        <ChangePasswordForm />
      </div>
    </>
  );
}
