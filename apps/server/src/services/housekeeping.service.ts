import type { Clock } from '../lib/clock.ts';
import type { Repositories } from '../repositories/index.ts';

const DAY_MILLISECONDS = 24 * 60 * 60 * 1000;
/** Uptime looks back 24 hours; a month of heartbeat minutes is kept for support. */
const NODE_ACTIVITY_KEPT_DAYS = 30;

/**
 * Deletes rows that can no longer matter: ended rate-limit windows, and tokens expired or revoked
 * more than a day ago (kept that long so logs and support can still see them), node activity
 * older than a month. Safe to run from
 * several processes at once: each statement is an idempotent DELETE.
 */
export function createHousekeepingService(options: { repositories: Repositories; clock: Clock }) {
  return {
    async removeExpiredRecords(): Promise<void> {
      const now = options.clock();
      const cutoff = new Date(now.getTime() - DAY_MILLISECONDS);
      await options.repositories.rateLimits.deleteEnded(now);
      await options.repositories.refreshTokens.deleteExpiredBefore(cutoff);
      await options.repositories.passwordResetTokens.deleteExpiredBefore(cutoff);
      await options.repositories.enrollmentCodes.deleteExpiredBefore(cutoff);
      await options.repositories.nodes.deleteActivityBefore(
        new Date(now.getTime() - NODE_ACTIVITY_KEPT_DAYS * DAY_MILLISECONDS),
      );
    },
  };
}
