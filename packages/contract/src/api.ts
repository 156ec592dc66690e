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
    /** DELETE closes the caller's account (an addition to spec section 7). */
    account: '/api/auth/account',
  },
  nodes: {
    list: '/api/nodes',
    /** GET a node; DELETE unenrolls it. */
    detail: (id: string) => `/api/nodes/${encodeURIComponent(id)}`,
    earnings: (id: string) => `/api/nodes/${encodeURIComponent(id)}/earnings`,
    pause: (id: string) => `/api/nodes/${encodeURIComponent(id)}/pause`,
    resume: (id: string) => `/api/nodes/${encodeURIComponent(id)}/resume`,
    /** The node's recent job attempts (an addition to spec section 7). */
    jobs: (id: string) => `/api/nodes/${encodeURIComponent(id)}/jobs`,
    /** POST: a one-time code to enroll a device without a password (an addition). */
    enrollmentCodes: '/api/nodes/enrollment-codes',
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
    /** Additions to spec section 7. */
    statement: '/api/payment/statement',
    stripeWebhook: '/api/payment/webhooks/stripe',
    sandboxOnboarding: '/api/payment/sandbox/onboarding',
    sandboxCheckout: '/api/payment/sandbox/checkout',
  },
  settings: '/api/settings',
  notifications: {
    list: '/api/notifications',
    unreadCount: '/api/notifications/unread-count',
    read: (id: string) => `/api/notifications/${encodeURIComponent(id)}/read`,
    readAll: '/api/notifications/read-all',
  },
  /** Server-sent events telling the signed-in user which of their jobs and nodes changed. */
  events: '/api/events',
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
  '/api/payment/webhooks/stripe',
  '/api/payment/sandbox/onboarding',
  '/api/payment/sandbox/checkout',
];
