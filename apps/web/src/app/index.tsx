import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { RouterProvider } from 'react-router';
import { paths } from '@/config/paths';
import { setSessionExpiredHandler } from '@/lib/api-client';
import { AppProvider } from './provider';
import { createAppRouter } from './router';

function AppRouter() {
  const queryClient = useQueryClient();
  const router = useMemo(() => createAppRouter(), []);

  // When the API client gives up on a session (refresh refused), forget its data and go sign in.
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
  return (
    <AppProvider>
      <AppRouter />
    </AppProvider>
  );
}
