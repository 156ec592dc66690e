import { QueryClient } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { AppRouter } from '@/app';
import { AppProvider } from '@/app/provider';
import { routes } from '@/app/router';

function createTestQueryClient() {
  return new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
}

/** The whole app (real route table, providers and toasts) on a memory router at `url`. */
export function renderApp(url: string) {
  const router = createMemoryRouter(routes, { initialEntries: [url] });
  const queryClient = createTestQueryClient();
  const user = userEvent.setup();
  const view = render(
    <AppProvider queryClient={queryClient}>
      <AppRouter router={router} />
    </AppProvider>,
  );
  return { ...view, router, queryClient, user };
}

function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname + location.search}</output>;
}

/** One component with the app's providers, on a router whose other paths show where it went. */
export function renderWithProviders(ui: ReactNode, { url = '/' }: { url?: string } = {}) {
  const router = createMemoryRouter(
    [
      { path: new URL(url, 'http://localhost').pathname, element: ui },
      { path: '*', element: <LocationProbe /> },
    ],
    { initialEntries: [url] },
  );
  const queryClient = createTestQueryClient();
  const user = userEvent.setup();
  const view = render(
    <AppProvider queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return { ...view, router, queryClient, user };
}
