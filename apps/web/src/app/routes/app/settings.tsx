import { useQueryClient } from '@tanstack/react-query';
import { TriangleAlert } from 'lucide-react';
import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { PageHeader } from '@/components/page-header';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { paths } from '@/config/paths';
import { useCurrentUser } from '@/features/auth/api/get-current-user';
import { useSignOut } from '@/features/auth/api/sign-out';
import { ChangePasswordForm } from '@/features/auth/components/change-password-form';
import { EditProfileForm } from '@/features/auth/components/edit-profile-form';
import { ProfileInformation } from '@/features/auth/components/profile-information';
import { connectStatusQueryKey } from '@/features/settings/api/get-connect-status';
import { BankConnectionCard } from '@/features/settings/components/bank-connection-card';
import { DeleteAccountCard } from '@/features/settings/components/delete-account-card';
import { NotificationPreferencesCard } from '@/features/settings/components/notification-preferences-card';
import { PayoutSettingsCard } from '@/features/settings/components/payout-settings-card';
import { useStoredEmail, useStoredRole } from '@/hooks/use-stored-session';
import { errorMessage } from '@/lib/api-client';

const STRIPE_CONNECTED_TOAST_ID = 'stripe-connected';

/**
 * The payment provider's onboarding sends the browser back to /settings?stripe_connected=true:
 * say so once, drop the flag from the address, and read the bank connection again.
 */
function useStripeConnectedReturn(isProvider: boolean) {
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const isReturning = searchParams.get('stripe_connected') === 'true';

  useEffect(() => {
    if (!isReturning) return;
    // The id keeps a second run of this effect from showing the toast twice.
    toast.success('Stripe account connected successfully!', { id: STRIPE_CONNECTED_TOAST_ID });
    void navigate(paths.settings.href(), { replace: true });
    if (isProvider) void queryClient.invalidateQueries({ queryKey: connectStatusQueryKey });
  }, [isReturning, isProvider, navigate, queryClient]);
}

export function SettingsRoute() {
  const role = useStoredRole();
  const storedEmail = useStoredEmail();
  const currentUser = useCurrentUser();
  const signOut = useSignOut();
  const isProvider = role === 'node_provider';
  useStripeConnectedReturn(isProvider);

  return (
    <>
      <PageHeader
        title="Settings"
        description={
          isProvider
            ? 'Your profile, sign-in, notifications and payouts.'
            : 'Your profile, sign-in and notifications.'
        }
      />
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
        <NotificationPreferencesCard role={role} />
        {isProvider ? (
          <>
            <BankConnectionCard />
            <PayoutSettingsCard />
          </>
        ) : null}
        <DeleteAccountCard
          onDeleted={(message) => {
            toast.success(message);
            // The same ending as Sign Out: storage and cached data cleared, then sign-in.
            signOut();
          }}
        />
      </div>
    </>
  );
}
