import type { Database } from '../db/connection.ts';
import { createEarningsRepository } from './earnings.repository.ts';
import { createEnrollmentCodeRepository } from './enrollment-code.repository.ts';
import { createHealthRepository } from './health.repository.ts';
import { createJobAttemptRepository } from './job-attempt.repository.ts';
import { createJobRepository } from './job.repository.ts';
import { createLedgerRepository } from './ledger.repository.ts';
import { createLinkedAccountRepository } from './linked-account.repository.ts';
import { createMarketplaceRepository } from './marketplace.repository.ts';
import { createNodeRepository } from './node.repository.ts';
import { createNotificationRepository } from './notification.repository.ts';
import { createPaymentRepository } from './payment.repository.ts';
import { createPasswordResetTokenRepository } from './password-reset-token.repository.ts';
import { createRateLimitRepository } from './rate-limit.repository.ts';
import { createRefreshTokenRepository } from './refresh-token.repository.ts';
import { createUserRepository } from './user.repository.ts';

export interface Repositories {
  users: ReturnType<typeof createUserRepository>;
  refreshTokens: ReturnType<typeof createRefreshTokenRepository>;
  passwordResetTokens: ReturnType<typeof createPasswordResetTokenRepository>;
  enrollmentCodes: ReturnType<typeof createEnrollmentCodeRepository>;
  rateLimits: ReturnType<typeof createRateLimitRepository>;
  health: ReturnType<typeof createHealthRepository>;
  nodes: ReturnType<typeof createNodeRepository>;
  jobs: ReturnType<typeof createJobRepository>;
  jobAttempts: ReturnType<typeof createJobAttemptRepository>;
  earnings: ReturnType<typeof createEarningsRepository>;
  ledger: ReturnType<typeof createLedgerRepository>;
  notifications: ReturnType<typeof createNotificationRepository>;
  payments: ReturnType<typeof createPaymentRepository>;
  linkedAccounts: ReturnType<typeof createLinkedAccountRepository>;
  marketplace: ReturnType<typeof createMarketplaceRepository>;
  /** Runs `work` with repositories bound to one transaction: all of it commits, or none. */
  transaction<T>(work: (repositories: Repositories) => Promise<T>): Promise<T>;
}

export function createRepositories(db: Database): Repositories {
  return {
    users: createUserRepository(db),
    refreshTokens: createRefreshTokenRepository(db),
    passwordResetTokens: createPasswordResetTokenRepository(db),
    enrollmentCodes: createEnrollmentCodeRepository(db),
    rateLimits: createRateLimitRepository(db),
    health: createHealthRepository(db),
    nodes: createNodeRepository(db),
    jobs: createJobRepository(db),
    jobAttempts: createJobAttemptRepository(db),
    earnings: createEarningsRepository(db),
    ledger: createLedgerRepository(db),
    notifications: createNotificationRepository(db),
    payments: createPaymentRepository(db),
    linkedAccounts: createLinkedAccountRepository(db),
    marketplace: createMarketplaceRepository(db),
    transaction: (work) => db.transaction((tx) => work(createRepositories(tx))),
  };
}
