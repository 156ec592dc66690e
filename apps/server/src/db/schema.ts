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
  primaryKey,
  smallint,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import {
  ATTEMPT_OUTCOMES,
  NOTIFICATION_KINDS,
  PAYOUT_STATUSES,
  TRANSACTION_KINDS,
  JOB_STATUSES,
  JOB_TYPES,
  ROLES,
  type HardwareInfo,
  type JobReplication,
  type JobType,
  type ModelCategory,
  type ModelFormat,
} from '@fabric/contract';
export type { AttemptOutcome } from '@fabric/contract';

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
    /** Settings (Settings page); the reference client kept them in the page only. */
    emailNotifications: boolean('email_notifications').notNull().default(true),
    jobNotifications: boolean('job_notifications').notNull().default(true),
    creditLowAlerts: boolean('credit_low_alerts').notNull().default(true),
    marketingEmails: boolean('marketing_emails').notNull().default(false),
    minimumPayoutMicros: bigint('minimum_payout_micros', { mode: 'number' })
      .notNull()
      .default(50_000_000),
    /**
     * Closed accounts keep their row (the ledger refers to it) with the email freed and every
     * secret removed.
     */
    deletedAt: timestamp('deleted_at', { withTimezone: true, mode: 'date' }),
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
 * One-time codes a provider creates in Add Node so a device can enroll without the password
 * (`fabric-agent --code`). Stored only as SHA-256 hashes; single use; short-lived.
 */
export const enrollmentCodes = pgTable(
  'enrollment_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull().unique('enrollment_codes_code_hash_unique'),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
    /** The node the code enrolled. */
    nodeId: uuid('node_id').references(() => nodes.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [
    index('enrollment_codes_owner_id_index').on(table.ownerId),
    index('enrollment_codes_expires_at_index').on(table.expiresAt),
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

/**
 * A job's type is text checked against the contract's JOB_TYPES: a new type changes this check in
 * a generated migration (`drizzle-kit generate`), never by a hand-written enum change.
 */
const JOB_TYPE_CHECK = sql.raw(
  `job_type IN (${JOB_TYPES.map((type) => `'${type.replace(/'/g, "''")}'`).join(', ')})`,
);
export const jobStatus = pgEnum('job_status', JOB_STATUSES);

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
    /** Results of this node refused by verification or outvoted by replicas: its reputation. */
    resultsRefused: integer('results_refused').notNull().default(0),
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
    jobType: text('job_type').$type<JobType>().notNull(),
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
    /**
     * Replication (services/replication.ts): attempts whose results passed their challenge and wait
     * for a node of another provider to agree. While any wait, the job is queued for nodes of the
     * owners in excluded_owner_ids not, until replication_deadline_at.
     */
    candidateLeaseIds: uuid('candidate_lease_ids')
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    excludedOwnerIds: uuid('excluded_owner_ids')
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    replicationDeadlineAt: optionalTimestamp('replication_deadline_at'),
    /** How the result was checked beyond its challenge: 'agreed' with a replica, 'not_replicated', or null. */
    replication: text('replication').$type<JobReplication>(),
    currentLeaseId: uuid('current_lease_id'),
    leaseExpiresAt: optionalTimestamp('lease_expires_at'),
    /**
     * The current lease ends here however often its node heartbeats: the lease start plus the
     * job's maximum runtime from its cost model. Lease extensions never pass it.
     */
    runDeadlineAt: optionalTimestamp('run_deadline_at'),
    progress: doublePrecision('progress').notNull().default(0),
    progressMessage: text('progress_message'),
    result: jsonb('result').$type<Record<string, unknown>>(),
    error: text('error'),
    /** Usage the node reported for the attempt that produced the result (shown, never billed). */
    usageWallMs: bigint('usage_wall_ms', { mode: 'number' }),
    usageCpuMs: bigint('usage_cpu_ms', { mode: 'number' }),
    usagePeakMemoryBytes: bigint('usage_peak_memory_bytes', { mode: 'number' }),
    /** Integer micro-dollars. */
    estimatedCostMicros: bigint('estimated_cost_micros', { mode: 'number' }),
    actualCostMicros: bigint('actual_cost_micros', { mode: 'number' }),
    /** The CPU time the job was billed for (contract billableCpuMs); null when it cost nothing. */
    billedCpuMs: bigint('billed_cpu_ms', { mode: 'number' }),
    /** The submit's Idempotency-Key: a retried submit returns this job instead of a new one. */
    idempotencyKey: text('idempotency_key'),
    ...timestamps,
    /** First lease of the job (kept across retries). */
    startedAt: optionalTimestamp('started_at'),
    finishedAt: optionalTimestamp('finished_at'),
  },
  (table) => [
    check('jobs_priority_range', sql`${table.priority} IN (0, 1)`),
    check('jobs_job_type_known', JOB_TYPE_CHECK),
    check('jobs_progress_range', sql`${table.progress} >= 0 AND ${table.progress} <= 1`),
    index('jobs_owner_created_index').on(table.ownerId, table.createdAt, table.sequence),
    uniqueIndex('jobs_owner_idempotency_unique').on(table.ownerId, table.idempotencyKey),
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
    // The queue by waiting time, for the queue timeout.
    index('jobs_queued_since_index')
      .on(table.updatedAt)
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
    /**
     * Commit, challenge, open (job-proofs.ts in the contract): the result and commitment the node
     * sent first, and the challenge drawn only after they were stored. Set once per attempt.
     */
    committedAt: optionalTimestamp('committed_at'),
    committedResult: jsonb('committed_result').$type<Record<string, unknown>>(),
    commitment: jsonb('commitment').$type<Record<string, unknown>>(),
    challenge: jsonb('challenge').$type<Record<string, unknown>>(),
  },
  (table) => [
    index('job_attempts_job_id_index').on(table.jobId, table.startedAt),
    index('job_attempts_node_id_index').on(table.nodeId, table.startedAt),
  ],
);

/**
 * When a node was online, from its heartbeats: one row per node and hour, one bit per minute of
 * that hour in which the node called in. Setting a bit is idempotent, so concurrent heartbeats of
 * one node (heartbeat, lease poll, progress) never count a minute twice. Kept for 30 days.
 */
export const nodeActivity = pgTable(
  'node_activity',
  {
    nodeId: uuid('node_id')
      .notNull()
      .references(() => nodes.id, { onDelete: 'cascade' }),
    hour: timestamp('hour', { withTimezone: true, mode: 'date' }).notNull(),
    /** Bit m (0..59) set: a heartbeat arrived in minute m of the hour. */
    minutes: bigint('minutes', { mode: 'bigint' }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.nodeId, table.hour] }),
    index('node_activity_hour_index').on(table.hour),
  ],
);

// Money. A double-entry ledger: every movement is one ledger transaction whose entries sum to
// zero; an account's balance is the sum of its entries and is kept in step in the same database
// transaction (checked by the ledger audit). Amounts are integer micro-dollars.

export const LEDGER_ACCOUNT_KINDS = [
  /** An enterprise's spendable credits. */
  'enterprise_credits',
  /** An enterprise's credits held for its queued and running jobs. */
  'enterprise_holds',
  /** A provider's earnings not yet settled (this month's). */
  'provider_pending',
  /** A provider's settled earnings, ready for payout. */
  'provider_available',
  /** Payouts sent to the provider's payment provider and not yet confirmed. */
  'payouts_in_flight',
  /** Balances of closed accounts, kept for support to return. */
  'unclaimed_funds',
  /** The platform's share of charges. */
  'platform_fees',
  /** Money entering (card payments) or leaving (bank payouts) the system; may go negative. */
  'outside_world',
] as const;
export type LedgerAccountKind = (typeof LEDGER_ACCOUNT_KINDS)[number];
export const ledgerAccountKind = pgEnum('ledger_account_kind', LEDGER_ACCOUNT_KINDS);

/** Movements users see in their history, plus the ones they don't (holds move credits aside). */
export const LEDGER_TRANSACTION_KINDS = [
  ...TRANSACTION_KINDS,
  'job_hold',
  'hold_release',
  /** The payment provider confirmed a payout: the money left the system. */
  'payout_completed',
] as const;
export type LedgerTransactionKind = (typeof LEDGER_TRANSACTION_KINDS)[number];
export const ledgerTransactionKind = pgEnum('ledger_transaction_kind', LEDGER_TRANSACTION_KINDS);

export const ledgerAccounts = pgTable(
  'ledger_accounts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: ledgerAccountKind('kind').notNull(),
    /** Null for the platform's own accounts. Users are never deleted (closed accounts stay). */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'restrict' }),
    balanceMicros: bigint('balance_micros', { mode: 'number' }).notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [
    unique('ledger_accounts_kind_user_unique').on(table.kind, table.userId).nullsNotDistinct(),
    // No account but the outside world can ever be overdrawn, whatever the code above does.
    check(
      'ledger_accounts_never_negative',
      sql`${table.kind} = 'outside_world' OR ${table.balanceMicros} >= 0`,
    ),
  ],
);

export const ledgerTransactions = pgTable(
  'ledger_transactions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: ledgerTransactionKind('kind').notNull(),
    /** What the paying or receiving user reads in their history. */
    description: text('description').notNull(),
    jobId: uuid('job_id'),
    /** The node that earned a job charge. */
    nodeId: uuid('node_id'),
    /** One movement per key, ever: a retried request or a second run cannot post it twice. */
    idempotencyKey: text('idempotency_key').unique('ledger_transactions_idempotency_key_unique'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (table) => [
    index('ledger_transactions_job_id_index').on(table.jobId),
    index('ledger_transactions_node_id_index').on(table.nodeId),
  ],
);

export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    transactionId: uuid('transaction_id')
      .notNull()
      .references(() => ledgerTransactions.id, { onDelete: 'restrict' }),
    accountId: uuid('account_id')
      .notNull()
      .references(() => ledgerAccounts.id, { onDelete: 'restrict' }),
    amountMicros: bigint('amount_micros', { mode: 'number' }).notNull(),
    /** Copied from the transaction, so history and statements read one table by account and time. */
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (table) => [
    check('ledger_entries_not_zero', sql`${table.amountMicros} <> 0`),
    index('ledger_entries_account_created_index').on(table.accountId, table.createdAt),
    index('ledger_entries_transaction_index').on(table.transactionId),
  ],
);

/** A provider's connected account at the payment provider (sandbox or Stripe). */
export const paymentAccounts = pgTable('payment_accounts', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'restrict' }),
  provider: text('provider').notNull(),
  accountId: text('account_id').notNull().unique('payment_accounts_account_id_unique'),
  /** Last known status (the sandbox's only record; a cache of Stripe's). */
  payoutsEnabled: boolean('payouts_enabled').notNull().default(false),
  currentlyDue: text('currently_due')
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
  ...timestamps,
});

/**
 * Payment instruments seen on an account, by the payment provider's fingerprint: the card or bank
 * account that paid an enterprise's credit purchase, and those a provider's connected account is
 * paid out to. Two accounts that share one belong to one person: a provider's nodes never run the
 * jobs of an enterprise linked to it, and earnings from such jobs are held at settlement.
 */
export const paymentFingerprints = pgTable(
  'payment_fingerprints',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    fingerprint: text('fingerprint').notNull(),
    /** Where it was seen: 'purchase' (it paid credits) or 'payout_account' (it receives payouts). */
    source: text('source').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.fingerprint] }),
    index('payment_fingerprints_fingerprint_index').on(table.fingerprint),
  ],
);

export const creditPurchaseStatus = pgEnum('credit_purchase_status', [
  'pending',
  'completed',
  'failed',
]);

export const creditPurchases = pgTable(
  'credit_purchases',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    amountMicros: bigint('amount_micros', { mode: 'number' }).notNull(),
    status: creditPurchaseStatus('status').notNull(),
    provider: text('provider').notNull(),
    /** The provider's id (Checkout Session), once known. */
    reference: text('reference'),
    idempotencyKey: text('idempotency_key'),
    ...timestamps,
  },
  (table) => [
    uniqueIndex('credit_purchases_user_idempotency_unique').on(table.userId, table.idempotencyKey),
    check('credit_purchases_amount_positive', sql`${table.amountMicros} > 0`),
  ],
);

export const payoutStatus = pgEnum('payout_status', PAYOUT_STATUSES);

export const payouts = pgTable(
  'payouts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    amountMicros: bigint('amount_micros', { mode: 'number' }).notNull(),
    status: payoutStatus('status').notNull(),
    provider: text('provider').notNull(),
    reference: text('reference'),
    failureReason: text('failure_reason'),
    /** Sent by the settlement run (minimum payout reached), not requested. */
    isAutomatic: boolean('is_automatic').notNull().default(false),
    idempotencyKey: text('idempotency_key'),
    ...timestamps,
  },
  (table) => [
    uniqueIndex('payouts_user_idempotency_unique').on(table.userId, table.idempotencyKey),
    check('payouts_amount_positive', sql`${table.amountMicros} > 0`),
    index('payouts_user_created_index').on(table.userId, table.createdAt),
  ],
);

/**
 * The model marketplace: models and datasets the AI job types use. The file lives in the server's
 * model store (MODEL_STORE_DIR, by default DATA_DIR/models) under its sha256, which devices
 * download it by and check before use.
 */
export const marketplaceModels = pgTable(
  'marketplace_models',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    description: text('description').notNull(),
    category: text('category').$type<ModelCategory>().notNull(),
    jobTypes: text('job_types').array().$type<JobType[]>().notNull(),
    format: text('format').$type<ModelFormat>().notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull(),
    license: text('license').notNull(),
    source: text('source').notNull(),
    minMemoryBytes: bigint('min_memory_bytes', { mode: 'number' }).notNull(),
    priceMultiplier: doublePrecision('price_multiplier').notNull().default(1),
    isTestModel: boolean('is_test_model').notNull().default(false),
    ...timestamps,
  },
  (table) => [
    index('marketplace_models_sha256_index').on(table.sha256),
    check('marketplace_models_price_positive', sql`${table.priceMultiplier} > 0`),
  ],
);

export const notificationKind = pgEnum('notification_kind', NOTIFICATION_KINDS);

export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: notificationKind('kind').notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    link: text('link'),
    /** One notification per event, even when two processes see it. */
    dedupeKey: text('dedupe_key').unique('notifications_dedupe_key_unique'),
    /** The user wants email too: the mail dispatcher sends it and clears the flag. */
    isEmailPending: boolean('is_email_pending').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    readAt: timestamp('read_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [
    index('notifications_user_created_index').on(table.userId, table.createdAt),
    index('notifications_email_pending_index')
      .on(table.createdAt)
      .where(sql`${table.isEmailPending}`),
  ],
);

export type UserRow = typeof users.$inferSelect;
export type NodeRow = typeof nodes.$inferSelect;
export type MarketplaceModelRow = typeof marketplaceModels.$inferSelect;
export type JobRow = typeof jobs.$inferSelect;
export type JobAttemptRow = typeof jobAttempts.$inferSelect;
export type RefreshTokenRow = typeof refreshTokens.$inferSelect;
export type PasswordResetTokenRow = typeof passwordResetTokens.$inferSelect;
export type LedgerAccountRow = typeof ledgerAccounts.$inferSelect;
export type LedgerTransactionRow = typeof ledgerTransactions.$inferSelect;
export type PaymentAccountRow = typeof paymentAccounts.$inferSelect;
export type CreditPurchaseRow = typeof creditPurchases.$inferSelect;
export type PayoutRow = typeof payouts.$inferSelect;
export type NotificationRow = typeof notifications.$inferSelect;
