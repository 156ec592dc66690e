import { randomBytes } from 'node:crypto';
import { ERROR_CODES, type DeleteAccountRequest, type MessageResponse } from '@fabric/contract';
import type { Clock } from '../lib/clock.ts';
import { badRequest, HttpError, unauthenticated } from '../lib/http-errors.ts';
import { formatMicroDollars } from '../lib/money.ts';
import type { PasswordHasher } from '../lib/password-hasher.ts';
import type { Repositories } from '../repositories/index.ts';
import { WRONG_CURRENT_PASSWORD_MESSAGE } from './account.service.ts';
import type { JobService } from './job.service.ts';
import { postLedgerTransaction } from './ledger.ts';
import type { LoginThrottle } from './login-throttle.service.ts';
import type { NodeService } from './node.service.ts';

const JOBS_PER_ROUND = 100;

/**
 * Danger Zone: closes an account for good. Its running and queued jobs are cancelled (billed by
 * the usual rules), its nodes unenrolled, and any money left (credits, earnings) moves to an
 * unclaimed-funds account in the ledger, so nothing is erased and support can still return it.
 * The user row stays with the email freed, the password unusable and the profile erased.
 */
export function createAccountClosureService(options: {
  repositories: Repositories;
  passwordHasher: PasswordHasher;
  loginThrottle: LoginThrottle;
  jobs: JobService;
  nodes: NodeService;
  clock: Clock;
}) {
  const { repositories, passwordHasher, loginThrottle, jobs, nodes, clock } = options;

  return {
    async close(
      userId: string,
      input: DeleteAccountRequest,
      address: string,
    ): Promise<MessageResponse> {
      const user = await repositories.users.findById(userId);
      if (!user || user.deletedAt) throw unauthenticated('This account no longer exists.');
      const attempt = { email: user.email, address };
      await loginThrottle.reserveAttempt(attempt, 'password');
      if (!(await passwordHasher.verify(user.passwordHash, input.current_password))) {
        throw badRequest(
          WRONG_CURRENT_PASSWORD_MESSAGE,
          ERROR_CODES.invalidCredentials,
          'current_password',
        );
      }
      await loginThrottle.forgiveAttempt(attempt);

      for (const node of await repositories.nodes.listEnrolledOfOwner(userId)) {
        await nodes.unenroll(userId, node.id);
      }
      for (;;) {
        const active = await repositories.jobs.listOfOwner({
          ownerId: userId,
          statuses: ['queued', 'running'],
          limit: JOBS_PER_ROUND,
          offset: 0,
        });
        if (active.length === 0) break;
        for (const job of active) {
          await jobs.cancel(userId, job.id).catch((error: unknown) => {
            // Finished meanwhile (409): nothing left to cancel.
            if (!(error instanceof HttpError && error.statusCode === 409)) {
              throw error;
            }
          });
        }
      }

      const unusable = `!closed:${randomBytes(32).toString('hex')}`;
      let keptMicros = 0;
      await repositories.transaction(async (transaction) => {
        const now = clock();
        const balances = await transaction.ledger.balancesOfUser(userId);
        const leftover = [
          ['enterprise_credits', balances.enterprise_credits],
          ['provider_pending', balances.provider_pending],
          ['provider_available', balances.provider_available],
        ] as const;
        keptMicros = leftover.reduce((sum, [, amount]) => sum + amount, 0);
        await postLedgerTransaction(transaction, {
          kind: 'account_closed',
          description: 'Account closed: balance kept as unclaimed funds',
          idempotencyKey: `account-closed:${userId}`,
          createdAt: now,
          legs: [
            ...leftover.map(([kind, amount]) => ({ kind, userId, amountMicros: -amount })),
            { kind: 'unclaimed_funds', userId, amountMicros: keptMicros },
          ],
        });
        await transaction.users.close(userId, unusable, now);
        await transaction.refreshTokens.revokeAllOfUser(userId, now);
        await transaction.passwordResetTokens.retireAllOfUser(userId, now);
      });
      return {
        message:
          keptMicros > 0
            ? `Your account was closed. $${formatMicroDollars(keptMicros)} left in it is kept as unclaimed funds; contact support to have it returned.`
            : 'Your account was closed.',
      };
    },
  };
}

export type AccountClosureService = ReturnType<typeof createAccountClosureService>;
