import type { FastifyBaseLogger } from 'fastify';
import type { Repositories } from '../repositories/index.ts';
import type { FingerprintSource } from '../repositories/linked-account.repository.ts';

// One person on both sides of the market could pay for jobs with one account and earn from them
// with another, turning the platform's share into nothing and washing money through it. Where the
// payment provider can tell (the same card or bank fingerprint paid credits on one account and
// receives payouts on the other), the accounts are linked: the scheduler never leases the
// enterprise's jobs to the provider's nodes, and the settlement holds the provider's earnings
// from that enterprise's jobs for a person to review. Nothing links accounts by email domain,
// which strangers share.

/**
 * Records the fingerprints a payment provider reported for `userId`; when one of them is new and
 * links the user to another account, says so at error level (`"alert":"linked_accounts"`).
 */
export async function recordPaymentFingerprints(
  repositories: Repositories,
  logger: FastifyBaseLogger,
  seen: { userId: string; fingerprints: readonly string[]; source: FingerprintSource; now: Date },
): Promise<void> {
  const added = await repositories.linkedAccounts.recordFingerprints(
    seen.userId,
    seen.fingerprints,
    seen.source,
    seen.now,
  );
  if (added.length === 0) return;
  const linkedUserIds = await repositories.linkedAccounts.linkedUserIds(seen.userId);
  if (linkedUserIds.length === 0) return;
  logger.error(
    { alert: 'linked_accounts', userId: seen.userId, linkedUserIds, source: seen.source },
    'Accounts share a payment instrument: their jobs and earnings are kept apart and held.',
  );
}
