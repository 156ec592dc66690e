import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { RouterProvider } from 'react-router';
import { paths } from '@/config/paths';
import { setSessionExpiredHandler } from '@/lib/api-client';
import { AppProvider } from './provider';
import { createAppRouter, type AppDataRouter } from './router';

/** Renders the routes and ends the session in the UI when the API client gives up on it. */
export function AppRouter({ router }: { router: AppDataRouter }) {
  const queryClient = useQueryClient();

  // A refused token refresh has already cleared storage: forget cached data and go sign in.
  useEffect(
    () =>
      setSessionExpiredHandler(() => {
        queryClient.clear();
        void router.navigate(paths.auth.signIn.href(), { replace: true });
      }),
    [queryClient, router],
  );

  return <RouterProvider router={router} />;
}

export function App() {
  const [router] = useState(createAppRouter);
  return (
    <AppProvider>
      <AppRouter router={router} />
    </AppProvider>
  );
}
