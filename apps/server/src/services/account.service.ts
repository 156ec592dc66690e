import {
  ERROR_CODES,
  type MessageResponse,
  type changePasswordRequestSchema,
  type updateProfileRequestSchema,
  type User,
} from '@fabric/contract';
import type { z } from 'zod';
import type { Clock } from '../lib/clock.ts';
import { badRequest, unauthenticated } from '../lib/http-errors.ts';
import type { PasswordHasher } from '../lib/password-hasher.ts';
import type { Repositories } from '../repositories/index.ts';
import type { ProfileChanges } from '../repositories/user.repository.ts';
import type { LoginThrottle } from './login-throttle.service.ts';
import { emptyToNull, toUserResponse } from './user-view.ts';

export type UpdateProfileInput = z.output<typeof updateProfileRequestSchema>;
export type ChangePasswordInput = z.output<typeof changePasswordRequestSchema>;

export const WRONG_CURRENT_PASSWORD_MESSAGE = 'Current password is incorrect';

export function createAccountService(options: {
  repositories: Repositories;
  passwordHasher: PasswordHasher;
  loginThrottle: LoginThrottle;
  clock: Clock;
}) {
  const { repositories, passwordHasher, loginThrottle, clock } = options;

  async function findUser(userId: string) {
    const user = await repositories.users.findById(userId);
    // authenticate checked the user moments ago; it can only vanish if deleted meanwhile.
    if (!user) throw unauthenticated('This account no longer exists.', ERROR_CODES.invalidToken);
    return user;
  }

  return {
    async getUser(userId: string): Promise<User> {
      return toUserResponse(await findUser(userId));
    },

    async updateProfile(userId: string, input: UpdateProfileInput): Promise<User> {
      const changes: ProfileChanges = {};
      if (input.name !== undefined) changes.name = emptyToNull(input.name);
      if (input.organization_name !== undefined) {
        changes.organizationName = emptyToNull(input.organization_name);
      }
      if (input.domain !== undefined) changes.domain = emptyToNull(input.domain);
      if (input.industry !== undefined) changes.industry = emptyToNull(input.industry);
      const user = await repositories.users.updateProfile(userId, changes, clock());
      if (!user) throw unauthenticated('This account no longer exists.', ERROR_CODES.invalidToken);
      return toUserResponse(user);
    },

    /** Changes the password and signs out every other session; the caller's session stays. */
    async changePassword(
      userId: string,
      sessionId: string,
      input: ChangePasswordInput,
      address: string,
    ): Promise<MessageResponse> {
      const user = await findUser(userId);
      // Guessing the current password with a stolen access token is as limited as guessing at login.
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
      if (input.new_password === input.current_password) {
        throw badRequest(
          'New password must be different from the current password',
          ERROR_CODES.validation,
          'new_password',
        );
      }
      const passwordHash = await passwordHasher.hash(input.new_password);
      await repositories.transaction(async (transaction) => {
        const now = clock();
        await transaction.users.updatePasswordHash(userId, passwordHash, now);
        await transaction.refreshTokens.revokeAllOfUser(userId, now, sessionId);
        await transaction.passwordResetTokens.retireAllOfUser(userId, now);
      });
      return { message: 'Your password has been changed. Other sessions were signed out.' };
    },
  };
}

export type AccountService = ReturnType<typeof createAccountService>;
