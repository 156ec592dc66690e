import { Navigate, Outlet } from 'react-router';
import { paths } from '@/config/paths';
import { useLiveUpdates } from '@/features/live-updates/use-live-updates';
import { useHasAccessToken, useStoredRole } from '@/hooks/use-stored-session';
import { AppLayout } from '../../layout/app-layout';

/**
 * Every signed-in page. Only the presence of an access token is checked here (the spec's rule);
 * the server judges the token itself on each call. Follows sign-out in this or another tab.
 */
export function ProtectedRoute() {
  const isSignedIn = useHasAccessToken();
  if (!isSignedIn) return <Navigate to={paths.auth.signIn.href()} replace />;
  return <SignedInShell />;
}

/** Signed in: screens follow the server's changes live (jobs, nodes) while any page is open. */
function SignedInShell() {
  useLiveUpdates(useStoredRole());
  return (
    <AppLayout>
      <Outlet />
    </AppLayout>
  );
}
