import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { JOB_STATUSES, JOB_TYPES, ROLES, type HardwareInfo, type JobType } from '@fabric/contract';

// One schema for PGlite and PostgreSQL; `npm run db:generate -w @fabric/server` writes the migration.

const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
};

export const userRole = pgEnum('user_role', ROLES);

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Stored lower-cased, so the unique constraint is case-insensitive. */
    email: text('email').notNull().unique('users_email_unique'),
    passwordHash: text('password_hash').notNull(),
    role: userRole('role').notNull(),
    name: text('name'),
    organizationName: text('organization_name'),
    domain: text('domain'),
    industry: text('industry'),
    ...timestamps,
  },
  (table) => [check('users_email_lower_case', sql`${table.email} = lower(${table.email})`)],
);

/**
 * One row per refresh token ever issued; only the SHA-256 of the token is kept. Tokens of one
 * sign-in share a family: rotating retires a token (replaced_at) and adds its successor, and
 * presenting a retired token again revokes the whole family (revoked_at).
 */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    familyId: uuid('family_id').notNull(),
    tokenHash: text('token_hash').notNull().unique('refresh_tokens_token_hash_unique'),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    replacedAt: timestamp('replaced_at', { withTimezone: true, mode: 'date' }),
    replacedById: uuid('replaced_by_id'),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [
    index('refresh_tokens_family_id_index').on(table.familyId),
    index('refresh_tokens_user_id_index').on(table.userId),
    index('refresh_tokens_expires_at_index').on(table.expiresAt),
  ],
);

export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique('password_reset_tokens_token_hash_unique'),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [
    index('password_reset_tokens_user_id_index').on(table.userId),
    index('password_reset_tokens_expires_at_index').on(table.expiresAt),
  ],
);

/**
 * Fixed-window counters shared by every server process: a window opens at the first hit of a key
 * and closes at window_ends_at; one atomic upsert counts a hit (see rate-limit.repository.ts).
 */
export const rateLimitCounters = pgTable(
  'rate_limit_counters',
  {
    key: text('key').primaryKey(),
    hits: integer('hits').notNull(),
    windowEndsAt: timestamp('window_ends_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (table) => [index('rate_limit_counters_window_ends_at_index').on(table.windowEndsAt)],
);

export const jobType = pgEnum('job_type', JOB_TYPES);
export const jobStatus = pgEnum('job_status', JOB_STATUSES);

/** How an attempt ended; null while it runs. */
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
export const attemptOutcome = pgEnum('attempt_outcome', ATTEMPT_OUTCOMES);

const optionalTimestamp = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * A provider's device running the agent. Unenrolling keeps the row (jobs, attempts and earnings
 * point at it) but clears the device token and hides it; only one enrolled node may hold a
 * device_id. Status is derived: paused_at set -> paused; else is_online (kept by heartbeats and the
 * sweeper) -> online; else offline.
 */
export const nodes = pgTable(
  'nodes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    deviceId: text('device_id').notNull(),
    name: text('name'),
    hardwareInfo: jsonb('hardware_info').$type<HardwareInfo>(),
    supportedJobTypes: text('supported_job_types')
      .array()
      .$type<JobType[]>()
      .notNull()
      .default(sql`'{}'::text[]`),
    agentVersion: text('agent_version'),
    /** SHA-256 of the current device token; null once unenrolled. */
    deviceTokenHash: text('device_token_hash').unique('nodes_device_token_hash_unique'),
    isOnline: boolean('is_online').notNull().default(false),
    lastHeartbeatAt: optionalTimestamp('last_heartbeat_at'),
    pausedAt: optionalTimestamp('paused_at'),
    jobsCompleted: integer('jobs_completed').notNull().default(0),
    unenrolledAt: optionalTimestamp('unenrolled_at'),
    ...timestamps,
  },
  (table) => [
    uniqueIndex('nodes_enrolled_device_id_unique')
      .on(table.deviceId)
      .where(sql`${table.unenrolledAt} IS NULL`),
    index('nodes_owner_id_index').on(table.ownerId),
    index('nodes_online_last_heartbeat_index')
      .on(table.lastHeartbeatAt)
      .where(sql`${table.isOnline}`),
  ],
);

/**
 * A compute job. The current lease (current_lease_id, lease_expires_at) lives here so the
 * scheduler and the sweeper work on one row; every attempt is also kept in job_attempts.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Submission order: breaks ties between jobs submitted in the same millisecond. */
    sequence: bigint('sequence', { mode: 'number' }).generatedAlwaysAsIdentity().notNull(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    jobType: jobType('job_type').notNull(),
    params: jsonb('params').$type<Record<string, unknown>>().notNull(),
    priority: smallint('priority').notNull().default(0),
    status: jobStatus('status').notNull().default('queued'),
    queueReason: text('queue_reason'),
    /** Node of the current or last attempt. */
    assignedNodeId: uuid('assigned_node_id').references(() => nodes.id),
    /** Attempts counted so far (a released attempt is not counted). */
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull(),
    /** Nodes whose result for this job failed verification: the job is not leased to them again. */
    excludedNodeIds: uuid('excluded_node_ids')
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    currentLeaseId: uuid('current_lease_id'),
    leaseExpiresAt: optionalTimestamp('lease_expires_at'),
    progress: doublePrecision('progress').notNull().default(0),
    progressMessage: text('progress_message'),
    result: jsonb('result').$type<Record<string, unknown>>(),
    error: text('error'),
    /** Usage of the attempt that produced the result: what billing prices. */
    usageWallMs: bigint('usage_wall_ms', { mode: 'number' }),
    usageCpuMs: bigint('usage_cpu_ms', { mode: 'number' }),
    usagePeakMemoryBytes: bigint('usage_peak_memory_bytes', { mode: 'number' }),
    /** Integer micro-dollars. */
    estimatedCostMicros: bigint('estimated_cost_micros', { mode: 'number' }),
    actualCostMicros: bigint('actual_cost_micros', { mode: 'number' }),
    ...timestamps,
    /** First lease of the job (kept across retries). */
    startedAt: optionalTimestamp('started_at'),
    finishedAt: optionalTimestamp('finished_at'),
  },
  (table) => [
    check('jobs_priority_range', sql`${table.priority} IN (0, 1)`),
    check('jobs_progress_range', sql`${table.progress} >= 0 AND ${table.progress} <= 1`),
    index('jobs_owner_created_index').on(table.ownerId, table.createdAt, table.sequence),
    index('jobs_owner_status_index').on(
      table.ownerId,
      table.status,
      table.createdAt,
      table.sequence,
    ),
    // The queue, in the scheduler's order.
    index('jobs_queue_index')
      .on(table.priority.desc(), table.createdAt, table.sequence)
      .where(sql`${table.status} = 'queued'`),
    index('jobs_running_lease_expiry_index')
      .on(table.leaseExpiresAt)
      .where(sql`${table.status} = 'running'`),
    // A node runs one job at a time, whatever any process does.
    uniqueIndex('jobs_one_running_per_node')
      .on(table.assignedNodeId)
      .where(sql`${table.status} = 'running'`),
    index('jobs_assigned_node_finished_index').on(table.assignedNodeId, table.finishedAt),
  ],
);

/** Every lease ever handed out, for auditing and for checking a result against its challenge. */
export const jobAttempts = pgTable(
  'job_attempts',
  {
    leaseId: uuid('lease_id').primaryKey(),
    jobId: uuid('job_id')
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    nodeId: uuid('node_id')
      .notNull()
      .references(() => nodes.id),
    /** The job's attempt counter when this lease was handed out. */
    attemptNumber: integer('attempt_number').notNull(),
    challengeSeed: integer('challenge_seed').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }).notNull(),
    endedAt: optionalTimestamp('ended_at'),
    outcome: attemptOutcome('outcome'),
    error: text('error'),
    usageWallMs: bigint('usage_wall_ms', { mode: 'number' }),
    usageCpuMs: bigint('usage_cpu_ms', { mode: 'number' }),
    usagePeakMemoryBytes: bigint('usage_peak_memory_bytes', { mode: 'number' }),
  },
  (table) => [
    index('job_attempts_job_id_index').on(table.jobId, table.startedAt),
    index('job_attempts_node_id_index').on(table.nodeId, table.startedAt),
  ],
);

export type UserRow = typeof users.$inferSelect;
export type NodeRow = typeof nodes.$inferSelect;
export type JobRow = typeof jobs.$inferSelect;
export type JobAttemptRow = typeof jobAttempts.$inferSelect;
export type RefreshTokenRow = typeof refreshTokens.$inferSelect;
export type PasswordResetTokenRow = typeof passwordResetTokens.$inferSelect;
