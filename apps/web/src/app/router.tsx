import { createBrowserRouter, Outlet, ScrollRestoration, type RouteObject } from 'react-router';
import { paths } from '@/config/paths';
import { ProtectedRoute } from './routes/app/protected';
import { RootErrorBoundary } from './routes/root-error';
import { RouteFallback } from './routes/route-fallback';

// The route table of spec section 2 (plus the password-reset screens). Screens load on demand so
// the first page only downloads its own code.

function RootLayout() {
  return (
    <>
      <ScrollRestoration />
      <Outlet />
    </>
  );
}

export const routes: RouteObject[] = [
  {
    Component: RootLayout,
    ErrorBoundary: RootErrorBoundary,
    HydrateFallback: RouteFallback,
    children: [
      {
        path: paths.auth.signIn.path,
        lazy: async () => ({ Component: (await import('./routes/auth/auth')).AuthRoute }),
      },
      {
        path: paths.auth.signUp.path,
        lazy: async () => ({ Component: (await import('./routes/auth/auth')).AuthRoute }),
      },
      {
        path: paths.auth.forgotPassword.path,
        lazy: async () => ({
          Component: (await import('./routes/auth/forgot-password')).ForgotPasswordRoute,
        }),
      },
      {
        path: paths.auth.resetPassword.path,
        lazy: async () => ({
          Component: (await import('./routes/auth/reset-password')).ResetPasswordRoute,
        }),
      },
      {
        path: paths.auth.signUpAs.path,
        lazy: async () => ({ Component: (await import('./routes/auth/auth')).AuthRoute }),
      },
      {
        path: paths.terms.path,
        lazy: async () => ({ Component: (await import('./routes/legal/terms')).TermsRoute }),
      },
      {
        path: paths.privacy.path,
        lazy: async () => ({ Component: (await import('./routes/legal/privacy')).PrivacyRoute }),
      },
      {
        Component: ProtectedRoute,
        children: [
          {
            index: true,
            lazy: async () => ({
              Component: (await import('./routes/app/dashboard')).DashboardRoute,
            }),
          },
          {
            path: paths.team.path,
            lazy: async () => ({
              Component: (await import('./routes/app/dashboard')).DashboardRoute,
            }),
          },
          {
            path: paths.nodes.list.path,
            lazy: async () => ({ Component: (await import('./routes/app/nodes')).NodesRoute }),
          },
          {
            path: paths.nodes.detail.path,
            lazy: async () => ({
              Component: (await import('./routes/app/node-details')).NodeDetailsRoute,
            }),
          },
          {
            path: paths.jobs.list.path,
            lazy: async () => ({ Component: (await import('./routes/app/jobs')).JobsRoute }),
          },
          {
            path: paths.jobs.submit.path,
            lazy: async () => ({
              Component: (await import('./routes/app/submit-job')).SubmitJobRoute,
            }),
          },
          {
            path: paths.jobs.detail.path,
            lazy: async () => ({
              Component: (await import('./routes/app/job-details')).JobDetailsRoute,
            }),
          },
          {
            path: paths.billing.path,
            lazy: async () => ({ Component: (await import('./routes/app/billing')).BillingRoute }),
          },
          {
            path: paths.settings.path,
            lazy: async () => ({
              Component: (await import('./routes/app/settings')).SettingsRoute,
            }),
          },
          {
            path: paths.notifications.path,
            lazy: async () => ({
              Component: (await import('./routes/app/notifications')).NotificationsRoute,
            }),
          },
        ],
      },
      {
        path: paths.notFound.path,
        lazy: async () => ({ Component: (await import('./routes/not-found')).NotFoundRoute }),
      },
    ],
  },
];

export type AppDataRouter = ReturnType<typeof createBrowserRouter>;

export function createAppRouter(): AppDataRouter {
  return createBrowserRouter(routes);
}
