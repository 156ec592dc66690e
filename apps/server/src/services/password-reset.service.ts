import { ERROR_CODES, type MessageResponse } from '@fabric/contract';
import type { FastifyBaseLogger } from 'fastify';
import { addSeconds, type Clock } from '../lib/clock.ts';
import { badRequest } from '../lib/http-errors.ts';
import type { PasswordHasher } from '../lib/password-hasher.ts';
import { generateSecretToken, hashSecretToken } from '../lib/secret-token.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { Repositories } from '../repositories/index.ts';
import type { LoginThrottle } from './login-throttle.service.ts';

export const FORGOT_PASSWORD_MESSAGE =
  'If an account exists for this email, we have sent a link to reset its password.';

const FAILED_RESET_MESSAGES = {
  unknown: 'This password reset link is not valid. Please request a new one.',
  used: 'This password reset link has already been used. Please request a new one.',
  expired: 'This password reset link has expired. Please request a new one.',
} as const;

function failedReset(reason: keyof typeof FAILED_RESET_MESSAGES) {
  return badRequest(FAILED_RESET_MESSAGES[reason], ERROR_CODES.invalidToken, 'token');
}

export function createPasswordResetService(options: {
  repositories: Repositories;
  passwordHasher: PasswordHasher;
  mailer: Mailer;
  loginThrottle: LoginThrottle;
  publicUrl: string;
  ttlMinutes: number;
  clock: Clock;
  logger: FastifyBaseLogger;
}) {
  const { repositories, passwordHasher, mailer, loginThrottle, clock, logger } = options;
  const pendingDeliveries = new Set<Promise<void>>();

  function deliver(to: string, link: string) {
    const delivery = mailer
      .send({
        to,
        subject: 'Reset your Fabric password',
        text: [
          'Someone asked to reset the password of your Fabric account.',
          '',
          `Open this link within ${options.ttlMinutes} minutes to choose a new password:`,
          link,
          '',
          'If it was not you, ignore this email: your password stays as it is.',
        ].join('\n'),
      })
      .catch((error: unknown) => {
        logger.error({ err: error }, 'Could not send a password reset email');
      })
      .finally(() => pendingDeliveries.delete(delivery));
    pendingDeliveries.add(delivery);
  }

  return {
    /**
     * Answers the same whether or not the account exists. The email is sent in the background so
     * that a slow mail server neither delays the answer nor reveals, by timing, that it was sent.
     */
    async requestReset(email: string): Promise<MessageResponse> {
      const user = await repositories.users.findByEmail(email);
      if (user) {
        const token = generateSecretToken();
        await repositories.transaction(async (transaction) => {
          const now = clock();
          await transaction.passwordResetTokens.retireAllOfUser(user.id, now);
          await transaction.passwordResetTokens.insert({
            userId: user.id,
            tokenHash: hashSecretToken(token),
            expiresAt: addSeconds(now, options.ttlMinutes * 60),
          });
        });
        deliver(
          user.email,
          `${options.publicUrl}/auth/reset-password?token=${encodeURIComponent(token)}`,
        );
      }
      return { message: FORGOT_PASSWORD_MESSAGE };
    },

    /** Sets the new password, uses the token up and signs the user out everywhere. */
    async resetPassword(token: string, newPassword: string): Promise<MessageResponse> {
      const tokenHash = hashSecretToken(token);
      // A cheap look first, so made-up tokens cost no argon2 work; consume() below decides.
      const status = await repositories.passwordResetTokens.inspect(tokenHash, clock());
      if (status !== 'usable') throw failedReset(status);

      const passwordHash = await passwordHasher.hash(newPassword);
      const userId = await repositories.transaction(async (transaction) => {
        const now = clock();
        const result = await transaction.passwordResetTokens.consume(tokenHash, now);
        if (result.outcome !== 'consumed') throw failedReset(result.outcome);
        await transaction.users.updatePasswordHash(result.userId, passwordHash, now);
        await transaction.passwordResetTokens.retireAllOfUser(result.userId, now);
        await transaction.refreshTokens.revokeAllOfUser(result.userId, now);
        return result.userId;
      });
      // Whoever reads the account's email is its owner: lift a lockout others may have caused.
      const user = await repositories.users.findById(userId);
      if (user) await loginThrottle.clear(user.email);
      return { message: 'Your password has been reset. Please sign in with your new password.' };
    },

    /** Lets emails already handed to the mailer finish before the server stops. */
    async settlePendingDeliveries(): Promise<void> {
      await Promise.all(pendingDeliveries);
    },
  };
}

export type PasswordResetService = ReturnType<typeof createPasswordResetService>;
