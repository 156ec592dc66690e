// Every call of spec section 7 (and the few the server adds), declared once. The server mounts its
// routes at these paths; the web client builds its URLs with the same builders.

export const API_PREFIX = '/api';

export const apiPaths = {
  auth: {
    login: '/api/auth/login',
    register: '/api/auth/register',
    refresh: '/api/auth/refresh',
    logout: '/api/auth/logout',
    me: '/api/auth/me',
    profile: '/api/auth/profile',
    password: '/api/auth/password',
    forgotPassword: '/api/auth/forgot-password',
    resetPassword: '/api/auth/reset-password',
  },
  nodes: {
    list: '/api/nodes',
    /** GET a node; DELETE unenrolls it. */
    detail: (id: string) => `/api/nodes/${encodeURIComponent(id)}`,
    earnings: (id: string) => `/api/nodes/${encodeURIComponent(id)}/earnings`,
    pause: (id: string) => `/api/nodes/${encodeURIComponent(id)}/pause`,
    resume: (id: string) => `/api/nodes/${encodeURIComponent(id)}/resume`,
  },
  jobs: {
    list: '/api/jobs',
    detail: (id: string) => `/api/jobs/${encodeURIComponent(id)}`,
    submit: '/api/jobs/submit',
    cancel: (id: string) => `/api/jobs/${encodeURIComponent(id)}/cancel`,
  },
  marketplace: {
    search: '/api/marketplace/search',
    model: (id: string) => `/api/marketplace/models/${encodeURIComponent(id)}`,
  },
  payment: {
    balance: '/api/payment/balance',
    transactions: '/api/payment/transactions',
    payout: '/api/payment/payout',
    addCredits: '/api/payment/add-credits',
    connectOnboard: '/api/payment/connect/onboard',
    connectStatus: '/api/payment/connect/status',
    connectRefresh: '/api/payment/connect/refresh',
  },
  health: '/api/health',
} as const;

/** Calls that are made without a bearer token (spec section 6). */
export const PUBLIC_API_PATHS: readonly string[] = [
  apiPaths.auth.login,
  apiPaths.auth.register,
  apiPaths.auth.refresh,
  apiPaths.auth.logout,
  apiPaths.auth.forgotPassword,
  apiPaths.auth.resetPassword,
  apiPaths.health,
  '/api/agent/download',
];
