// Business constants of spec section 9 and the few limits the server enforces; every part reads them from here.

export const ROLES = ['node_provider', 'enterprise'] as const;
export type Role = (typeof ROLES)[number];
/** The role assumed when none is stored in the browser (spec section 6). */
export const DEFAULT_ROLE: Role = 'node_provider';

/** URL segments of /auth/{roleParam} that preset the sign-up role. */
export const ROLE_PARAMS = {
  'node-provider': 'node_provider',
  enterprise: 'enterprise',
} as const satisfies Record<string, Role>;

// JOB_TYPES and JobType come from the job-type table (job-types/index.ts), exported beside these.

export const JOB_PRIORITIES = [0, 1] as const;
export type JobPriority = (typeof JOB_PRIORITIES)[number];
export const PRIORITY_LABELS: Record<JobPriority, string> = { 0: 'Normal', 1: 'High' };

export const JOB_STATUSES = ['queued', 'running', 'completed', 'failed', 'cancelled'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
/** Statuses that count as "running" on dashboards and the Running tab. */
export const ACTIVE_JOB_STATUSES: readonly string[] = ['queued', 'running'];

/** How one attempt (lease) of a job on a node ended; null while it runs. */
export const ATTEMPT_OUTCOMES = [
  'completed',
  /** The agent reported a failure. */
  'failed',
  /** Verification refused the result. */
  'rejected',
  /** Heartbeats stopped and the lease ran out. */
  'expired',
  /** Handed back unfinished (agent stopping, node unenrolled, client gone); not counted. */
  'released',
  /** The owner cancelled the job while it ran. */
  'cancelled',
] as const;
export type AttemptOutcome = (typeof ATTEMPT_OUTCOMES)[number];

export const NODE_STATUSES = ['online', 'paused', 'offline'] as const;
export type NodeStatus = (typeof NODE_STATUSES)[number];

/** Dashboard tables show at most this many rows. */
export const DASHBOARD_TABLE_ROWS = 5;
/** Job and node ids are shown as their first this-many characters. */
export const SHORT_ID_LENGTH = 8;

/** The fixed estimate of the submit page (spec section 9). */
export const SUBMIT_ESTIMATE = { baseCostUsd: 2.4, multiplier: 1.0, minutes: 15 } as const;

export const ADVERTISED_EARNINGS_PER_DAY_USD = { min: 2, max: 5 } as const;
export const DEFAULT_MINIMUM_PAYOUT_USD = 50;
export const MINIMUM_PAYOUT_INPUT_MIN_USD = 1;
export const CURRENCY = 'USD';

/** Money is integer micro-dollars inside the system; this many make one dollar. */
export const MICRO_DOLLARS_PER_DOLLAR = 1_000_000;

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
export const EMAIL_MAX_LENGTH = 254;
export const TEXT_FIELD_MAX_LENGTH = 200;

/** Browser storage keys; all share the fabric_ prefix of the spec's role key. */
export const STORAGE_KEYS = {
  accessToken: 'fabric_access_token',
  refreshToken: 'fabric_refresh_token',
  userId: 'fabric_user_id',
  userEmail: 'fabric_user_email',
  userRole: 'fabric_user_role',
} as const;

export const PRODUCT_NAME = 'Fabric';
export const PRODUCT_TAGLINE = 'Distributed compute marketplace';
