import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { DEFAULT_PASSWORD_HASHING, type PasswordHashingOptions } from '../lib/password-hasher.ts';

// The only module that reads process.env: everything else receives an AppConfig.

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface AppConfig {
  port: number;
  host: string;
  /** Holds the PGlite data folder and secrets.json. */
  dataDir: string;
  /** PostgreSQL connection string; when undefined the app uses PGlite in `dataDir/pglite`. */
  databaseUrl: string | undefined;
  /**
   * The model marketplace's files, one per sha256 (MODEL_STORE_DIR, default `dataDir/models`).
   * Processes sharing one database should share this folder too.
   */
  modelStoreDir: string;
  /** When undefined, a secret is generated once and kept in `dataDir/secrets.json`. */
  jwtSecret: string | undefined;
  /** Base of links in emails, without a trailing slash. */
  publicUrl: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  webDistDir: string;
  /** The single-file agent (apps/agent/dist/fabric-agent.mjs) offered at GET /api/agent/download. */
  agentBundlePath: string;
  logLevel: LogLevel;
  logFormat: 'json' | 'pretty';
  /** Trust X-Forwarded-For (only behind a reverse proxy), so per-IP limits see the client address. */
  trustProxy: boolean;
  accessTokenTtlSeconds: number;
  refreshTokenTtlDays: number;
  passwordResetTtlMinutes: number;
  /** Login + register requests per IP address per minute. */
  authRateLimitPerIp: number;
  /**
   * Failed password checks for one account from one address before that address must wait
   * (1 s, doubling, at most 15 minutes) between tries; other addresses are not affected.
   */
  authRateLimitPerAccount: number;
  /**
   * A job waiting this long in the queue (since submission, or since it went back to the queue)
   * fails free of charge, so its hold never stays on the owner's credits for good.
   */
  queueTimeoutHours: number;
  /** Enrolled nodes one provider account may have at once (MAX_NODES_PER_PROVIDER). */
  maxNodesPerProvider: number;
  /** Leases all of one provider's nodes may take per minute (PROVIDER_LEASES_PER_MINUTE). */
  providerLeasesPerMinute: number;
  /** Replication (services/replication.ts): the share of jobs also run on a second provider's node. */
  replicationShare: number;
  /** How long a verified result waits for a node of another provider to replicate it. */
  replicationWaitSeconds: number;
  /** Every job of a node with fewer verified results than this is replicated. */
  replicationTrustedAfterJobs: number;
  /** A node with this many refused results is no longer leased work. */
  refusalsBeforeExclusion: number;
  /**
   * Stripe secret key: when set, card payments, bank connection and payouts go through Stripe;
   * otherwise through the built-in sandbox.
   */
  stripeSecretKey: string | undefined;
  /** Signing secret(s) of the Stripe webhook endpoint(s), comma-separated; needed with the key. */
  stripeWebhookSecret: string | undefined;
  /** Open GET /api/events streams per user, and per client address, in each server process. */
  eventStreamsPerUser: number;
  eventStreamsPerIp: number;
  /**
   * NODE_ENV=production: without SMTP_URL, emails are not written to the log (reset links are
   * credentials), only the fact that one was not sent.
   */
  isProduction: boolean;
  /** Not an environment setting: tests pass cheaper parameters, production keeps the defaults. */
  passwordHashing: PasswordHashingOptions;
}

const emptyAsUndefined = (value: unknown) => (value === '' ? undefined : value);

function optionalString() {
  return z.preprocess(emptyAsUndefined, z.string().optional());
}

function nonNegativeInteger(name: string, fallback: number) {
  return z.preprocess(
    emptyAsUndefined,
    z.coerce
      .number({ error: `${name} must be a number` })
      .int(`${name} must be a whole number`)
      .min(0, `${name} must be 0 or more`)
      .default(fallback),
  );
}

function positiveInteger(name: string, fallback: number) {
  return z.preprocess(
    emptyAsUndefined,
    z.coerce
      .number({ error: `${name} must be a number` })
      .int(`${name} must be a whole number`)
      .positive(`${name} must be above 0`)
      .default(fallback),
  );
}

const environmentSchema = z.object({
  PORT: z.preprocess(
    emptyAsUndefined,
    z.coerce
      .number({ error: 'PORT must be a number' })
      .int('PORT must be a whole number')
      .min(0, 'PORT must be between 0 and 65535')
      .max(65535, 'PORT must be between 0 and 65535')
      .default(8080),
  ),
  HOST: z.preprocess(emptyAsUndefined, z.string().default('0.0.0.0')),
  DATA_DIR: optionalString(),
  MODEL_STORE_DIR: optionalString(),
  DATABASE_URL: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must start with postgres:// or postgresql://')
      .optional(),
  ),
  JWT_SECRET: z.preprocess(
    emptyAsUndefined,
    z.string().min(32, 'JWT_SECRET must be at least 32 characters').optional(),
  ),
  PUBLIC_URL: z.preprocess(
    emptyAsUndefined,
    z.url({ error: 'PUBLIC_URL must be an absolute http(s) URL' }).optional(),
  ),
  SMTP_URL: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^smtps?:\/\//, 'SMTP_URL must start with smtp:// or smtps://')
      .optional(),
  ),
  MAIL_FROM: optionalString(),
  WEB_DIST_DIR: optionalString(),
  AGENT_BUNDLE_PATH: optionalString(),
  LOG_LEVEL: z.preprocess(
    emptyAsUndefined,
    z
      .enum(LOG_LEVELS, { error: `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}` })
      .default('info'),
  ),
  LOG_FORMAT: z.preprocess(
    emptyAsUndefined,
    z.enum(['json', 'pretty'], { error: 'LOG_FORMAT must be json or pretty' }).default('json'),
  ),
  TRUST_PROXY: z.preprocess(
    emptyAsUndefined,
    z
      .enum(['true', 'false', '1', '0'], { error: 'TRUST_PROXY must be true or false' })
      .default('false')
      .transform((value) => value === 'true' || value === '1'),
  ),
  ACCESS_TOKEN_TTL_SECONDS: positiveInteger('ACCESS_TOKEN_TTL_SECONDS', 900),
  REFRESH_TOKEN_TTL_DAYS: positiveInteger('REFRESH_TOKEN_TTL_DAYS', 30),
  PASSWORD_RESET_TTL_MINUTES: positiveInteger('PASSWORD_RESET_TTL_MINUTES', 30),
  AUTH_RATE_LIMIT_PER_IP: positiveInteger('AUTH_RATE_LIMIT_PER_IP', 30),
  AUTH_RATE_LIMIT_PER_ACCOUNT: positiveInteger('AUTH_RATE_LIMIT_PER_ACCOUNT', 5),
  QUEUE_TIMEOUT_HOURS: positiveInteger('QUEUE_TIMEOUT_HOURS', 24),
  MAX_NODES_PER_PROVIDER: positiveInteger('MAX_NODES_PER_PROVIDER', 20),
  PROVIDER_LEASES_PER_MINUTE: positiveInteger('PROVIDER_LEASES_PER_MINUTE', 120),
  REPLICATION_SHARE: z.preprocess(
    emptyAsUndefined,
    z.coerce
      .number({ error: 'REPLICATION_SHARE must be a number' })
      .min(0, 'REPLICATION_SHARE must be between 0 and 1')
      .max(1, 'REPLICATION_SHARE must be between 0 and 1')
      .default(0.05),
  ),
  REPLICATION_WAIT_SECONDS: nonNegativeInteger('REPLICATION_WAIT_SECONDS', 30),
  REPLICATION_TRUSTED_AFTER_JOBS: nonNegativeInteger('REPLICATION_TRUSTED_AFTER_JOBS', 10),
  REFUSALS_BEFORE_EXCLUSION: positiveInteger('REFUSALS_BEFORE_EXCLUSION', 3),
  EVENT_STREAMS_PER_USER: positiveInteger('EVENT_STREAMS_PER_USER', 10),
  EVENT_STREAMS_PER_IP: positiveInteger('EVENT_STREAMS_PER_IP', 10),
  // Any value is allowed (development, test, staging...); only `production` changes anything.
  NODE_ENV: optionalString(),
  STRIPE_SECRET_KEY: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^(sk|rk)_(test|live)_/, 'STRIPE_SECRET_KEY must start with sk_test_, sk_live_ or rk_')
      .optional(),
  ),
  STRIPE_WEBHOOK_SECRET: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^whsec_/, 'STRIPE_WEBHOOK_SECRET must start with whsec_')
      .optional(),
  ),
});

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

/** `npm run -w` changes the working directory; relative paths mean the directory npm was invoked from. */
function invocationDirectory(environment: NodeJS.ProcessEnv): string {
  return environment.INIT_CWD ?? process.cwd();
}

const DEFAULT_WEB_DIST_DIR = fileURLToPath(new URL('../../../web/dist', import.meta.url));
const DEFAULT_AGENT_BUNDLE_PATH = fileURLToPath(
  new URL('../../../agent/dist/fabric-agent.mjs', import.meta.url),
);

/**
 * Reads and validates the environment, then applies `overrides` (tests and embedders pass them).
 * Values derived from others (data dir, public URL) are computed after the overrides apply.
 */
export function loadConfig(
  overrides: Partial<AppConfig> = {},
  environment: NodeJS.ProcessEnv = process.env,
): AppConfig {
  const parsed = environmentSchema.safeParse(environment);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) =>
        issue.message.includes(String(issue.path[0]))
          ? issue.message
          : `${String(issue.path[0])}: ${issue.message}`,
      ),
    );
  }
  const env = parsed.data;
  if (env.STRIPE_SECRET_KEY && !env.STRIPE_WEBHOOK_SECRET) {
    // Without webhooks, card payments would never be credited: refuse to start half-configured.
    throw new ConfigError([
      'STRIPE_WEBHOOK_SECRET must be set with STRIPE_SECRET_KEY (Checkout payments are confirmed by webhook)',
    ]);
  }
  const baseDirectory = invocationDirectory(environment);
  const port = overrides.port ?? env.PORT;
  const publicUrl = (overrides.publicUrl ?? env.PUBLIC_URL ?? `http://localhost:${port}`).replace(
    /\/+$/,
    '',
  );

  const dataDir = overrides.dataDir ?? path.resolve(baseDirectory, env.DATA_DIR ?? 'data');
  return {
    port,
    host: env.HOST,
    dataDir,
    modelStoreDir: env.MODEL_STORE_DIR
      ? path.resolve(baseDirectory, env.MODEL_STORE_DIR)
      : path.join(dataDir, 'models'),
    databaseUrl: env.DATABASE_URL,
    jwtSecret: env.JWT_SECRET,
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM ?? `Fabric <no-reply@${new URL(publicUrl).hostname}>`,
    webDistDir: env.WEB_DIST_DIR
      ? path.resolve(baseDirectory, env.WEB_DIST_DIR)
      : DEFAULT_WEB_DIST_DIR,
    agentBundlePath: env.AGENT_BUNDLE_PATH
      ? path.resolve(baseDirectory, env.AGENT_BUNDLE_PATH)
      : DEFAULT_AGENT_BUNDLE_PATH,
    logLevel: env.LOG_LEVEL,
    logFormat: env.LOG_FORMAT,
    trustProxy: env.TRUST_PROXY,
    accessTokenTtlSeconds: env.ACCESS_TOKEN_TTL_SECONDS,
    refreshTokenTtlDays: env.REFRESH_TOKEN_TTL_DAYS,
    passwordResetTtlMinutes: env.PASSWORD_RESET_TTL_MINUTES,
    authRateLimitPerIp: env.AUTH_RATE_LIMIT_PER_IP,
    authRateLimitPerAccount: env.AUTH_RATE_LIMIT_PER_ACCOUNT,
    queueTimeoutHours: env.QUEUE_TIMEOUT_HOURS,
    maxNodesPerProvider: env.MAX_NODES_PER_PROVIDER,
    providerLeasesPerMinute: env.PROVIDER_LEASES_PER_MINUTE,
    replicationShare: env.REPLICATION_SHARE,
    replicationWaitSeconds: env.REPLICATION_WAIT_SECONDS,
    replicationTrustedAfterJobs: env.REPLICATION_TRUSTED_AFTER_JOBS,
    refusalsBeforeExclusion: env.REFUSALS_BEFORE_EXCLUSION,
    eventStreamsPerUser: env.EVENT_STREAMS_PER_USER,
    eventStreamsPerIp: env.EVENT_STREAMS_PER_IP,
    isProduction: env.NODE_ENV === 'production',
    stripeSecretKey: env.STRIPE_SECRET_KEY,
    stripeWebhookSecret: env.STRIPE_WEBHOOK_SECRET,
    passwordHashing: DEFAULT_PASSWORD_HASHING,
    ...overrides,
    publicUrl,
  };
}
