import { randomInt } from 'node:crypto';
import { drawChallenge, verifyCommittedResult } from '@fabric/compute';
import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from '../config/env.ts';
import type { DatabaseConnection } from '../db/connection.ts';
import type { Clock } from '../lib/clock.ts';
import { createPasswordHasher } from '../lib/password-hasher.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { Repositories } from '../repositories/index.ts';
import { createAccessTokenService } from './access-token.service.ts';
import { createStripeProvider } from '../payments/stripe-provider.ts';
import { createSandboxProvider } from '../payments/sandbox-provider.ts';
import type { PaymentProvider } from '../payments/payment-provider.ts';
import { createAccountClosureService } from './account-closure.service.ts';
import { createAccountService } from './account.service.ts';
import { createAuthService } from './auth.service.ts';
import { createChangeFeed } from './change-feed.service.ts';
import { createDeviceService } from './device.service.ts';
import { createEnrollmentCodeService } from './enrollment-code.service.ts';
import { createHealthService } from './health.service.ts';
import { createHousekeepingService } from './housekeeping.service.ts';
import { createJobWakeups } from './job-wakeups.service.ts';
import { createJobService } from './job.service.ts';
import { createLoginThrottle } from './login-throttle.service.ts';
import { createNodeService } from './node.service.ts';
import { createNotificationService } from './notification.service.ts';
import { createPaymentService } from './payment.service.ts';
import { createMarketplaceService } from './marketplace.service.ts';
import { builtInModels } from '../models/built-in-models.ts';
import { createModelStore } from '../models/model-store.ts';
import { createSettingsService } from './settings.service.ts';
import { createPasswordResetService } from './password-reset.service.ts';
import { createSchedulerService } from './scheduler.service.ts';
import { createSessionService } from './session.service.ts';

export interface ServiceDependencies {
  config: AppConfig;
  jwtSecret: string;
  repositories: Repositories;
  /** For LISTEN/NOTIFY between server processes. */
  connection: DatabaseConnection;
  mailer: Mailer;
  clock: Clock;
  logger: FastifyBaseLogger;
  /** The fetch the Stripe provider uses; the global one unless a test gives an emulator. */
  stripeFetch?: typeof fetch;
}

/** Wires every service once per app; routes and plugins receive the result. */
export function createServices(dependencies: ServiceDependencies) {
  const { config, repositories, mailer, clock, logger } = dependencies;
  const passwordHasher = createPasswordHasher(config.passwordHashing);
  const accessTokens = createAccessTokenService({
    secret: dependencies.jwtSecret,
    ttlSeconds: config.accessTokenTtlSeconds,
    clock,
  });
  const loginThrottle = createLoginThrottle({
    rateLimits: repositories.rateLimits,
    maxFailures: config.authRateLimitPerAccount,
    clock,
  });
  const wakeups = createJobWakeups({ connection: dependencies.connection, logger });
  const nodes = createNodeService({ repositories, clock, wakeups });
  const devices = createDeviceService({
    repositories,
    clock,
    maxNodesPerProvider: config.maxNodesPerProvider,
  });
  const jobs = createJobService({
    repositories,
    clock,
    wakeups,
    queueTimeoutHours: config.queueTimeoutHours,
  });
  // Stripe when its key is configured, else the built-in sandbox (no keys, instant completion).
  const sandbox =
    config.stripeSecretKey && config.stripeWebhookSecret
      ? null
      : createSandboxProvider({
          repositories,
          publicUrl: config.publicUrl,
          secret: dependencies.jwtSecret,
          clock,
        });
  const paymentProvider: PaymentProvider =
    sandbox ??
    createStripeProvider({
      secretKey: config.stripeSecretKey ?? '',
      webhookSecret: config.stripeWebhookSecret ?? '',
      ...(dependencies.stripeFetch ? { fetch: dependencies.stripeFetch } : {}),
    });
  const sessions = createSessionService({
    repositories,
    accessTokens,
    refreshTokenTtlDays: config.refreshTokenTtlDays,
    clock,
    logger,
  });

  return {
    /** The app's clock, for routes that time something (event streams end with their token). */
    clock,
    accessTokens,
    sessions,
    auth: createAuthService({
      repositories,
      passwordHasher,
      sessions,
      accessTokens,
      loginThrottle,
      clock,
      logger,
    }),
    account: createAccountService({ repositories, passwordHasher, loginThrottle, clock }),
    passwordReset: createPasswordResetService({
      repositories,
      passwordHasher,
      mailer,
      loginThrottle,
      publicUrl: config.publicUrl,
      ttlMinutes: config.passwordResetTtlMinutes,
      clock,
      logger,
    }),
    housekeeping: createHousekeepingService({ repositories, clock }),
    wakeups,
    changes: createChangeFeed({ connection: dependencies.connection, logger }),
    nodes,
    devices,
    enrollmentCodes: createEnrollmentCodeService({ repositories, devices, clock }),
    jobs,
    payments: createPaymentService({
      repositories,
      provider: paymentProvider,
      clock,
      publicUrl: config.publicUrl,
      logger,
    }),
    /** The sandbox provider when it is the one in use (its onboarding page needs it). */
    sandbox,
    settings: createSettingsService({ repositories, clock }),
    marketplace: createMarketplaceService({
      repositories,
      store: createModelStore({ directory: config.modelStoreDir }),
      clock,
      logger,
      builtIns: builtInModels,
    }),
    notifications: createNotificationService({
      repositories,
      mailer,
      publicUrl: config.publicUrl,
      clock,
      logger,
    }),
    accountClosure: createAccountClosureService({
      repositories,
      passwordHasher,
      loginThrottle,
      jobs,
      nodes,
      clock,
    }),
    scheduler: createSchedulerService({
      repositories,
      clock,
      queueTimeoutHours: config.queueTimeoutHours,
      providerLeasesPerMinute: config.providerLeasesPerMinute,
      replication: {
        share: config.replicationShare,
        waitSeconds: config.replicationWaitSeconds,
        trustedAfterJobs: config.replicationTrustedAfterJobs,
        refusalsBeforeExclusion: config.refusalsBeforeExclusion,
        // Which results are replicated must not be predictable from outside.
        random: () => randomInt(2 ** 47) / 2 ** 47,
      },
      wakeups,
      verifyResult: verifyCommittedResult,
      drawChallenge,
      logger,
    }),
    health: createHealthService({ repositories, logger }),
  };
}

export type Services = ReturnType<typeof createServices>;
