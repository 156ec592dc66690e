import { ROLE_PARAMS } from '@fabric/contract';

// Every client route, declared once: `path` is the router pattern, `href` builds a link to it.

export type RoleParam = keyof typeof ROLE_PARAMS;

export function isRoleParam(value: string | undefined): value is RoleParam {
  return value !== undefined && Object.hasOwn(ROLE_PARAMS, value);
}

export const paths = {
  home: { path: '/', href: () => '/' },
  team: { path: '/team', href: () => '/team' },

  auth: {
    signIn: { path: '/auth/signin', href: () => '/auth/signin' },
    signUp: { path: '/auth/signup', href: () => '/auth/signup' },
    /** /auth/node-provider and /auth/enterprise open Sign Up with that role chosen. */
    signUpAs: {
      path: '/auth/:roleParam',
      href: (roleParam: RoleParam) => `/auth/${roleParam}`,
    },
    forgotPassword: { path: '/auth/forgot-password', href: () => '/auth/forgot-password' },
    resetPassword: {
      path: '/auth/reset-password',
      href: (token?: string) =>
        token === undefined
          ? '/auth/reset-password'
          : `/auth/reset-password?${new URLSearchParams({ token }).toString()}`,
    },
  },

  nodes: {
    list: { path: '/nodes', href: () => '/nodes' },
    detail: {
      path: '/nodes/:nodeId',
      href: (nodeId: string) => `/nodes/${encodeURIComponent(nodeId)}`,
    },
  },

  jobs: {
    list: { path: '/jobs', href: () => '/jobs' },
    submit: { path: '/jobs/submit', href: () => '/jobs/submit' },
    detail: {
      path: '/jobs/:jobId',
      href: (jobId: string) => `/jobs/${encodeURIComponent(jobId)}`,
    },
  },

  billing: { path: '/billing', href: () => '/billing' },
  settings: { path: '/settings', href: () => '/settings' },
  notifications: { path: '/notifications', href: () => '/notifications' },

  terms: { path: '/terms', href: () => '/terms' },
  privacy: { path: '/privacy', href: () => '/privacy' },

  notFound: { path: '*' },
} as const;
