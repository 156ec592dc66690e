import type { UpdateSettingsRequest, UserSettings } from '@fabric/contract';
import type { UserRow } from '../db/schema.ts';
import type { Clock } from '../lib/clock.ts';
import { unauthenticated } from '../lib/http-errors.ts';
import { dollarsToMicroDollars } from '../lib/money.ts';
import type { Repositories } from '../repositories/index.ts';
import { toDollars } from './payment.service.ts';

function toSettings(user: UserRow): UserSettings {
  return {
    email_notifications: user.emailNotifications,
    job_notifications: user.jobNotifications,
    credit_low_alerts: user.creditLowAlerts,
    marketing_emails: user.marketingEmails,
    minimum_payout: toDollars(user.minimumPayoutMicros),
  };
}

/** The Settings page's switches and the minimum payout, saved per user. */
export function createSettingsService(options: { repositories: Repositories; clock: Clock }) {
  const { repositories, clock } = options;

  async function findUser(userId: string): Promise<UserRow> {
    const user = await repositories.users.findById(userId);
    if (!user) throw unauthenticated('This account no longer exists.');
    return user;
  }

  return {
    async get(userId: string): Promise<UserSettings> {
      return toSettings(await findUser(userId));
    },

    async update(userId: string, changes: UpdateSettingsRequest): Promise<UserSettings> {
      await findUser(userId);
      const updated = await repositories.users.updateSettings(userId, {
        ...(changes.email_notifications === undefined
          ? {}
          : { emailNotifications: changes.email_notifications }),
        ...(changes.job_notifications === undefined
          ? {}
          : { jobNotifications: changes.job_notifications }),
        ...(changes.credit_low_alerts === undefined
          ? {}
          : { creditLowAlerts: changes.credit_low_alerts }),
        ...(changes.marketing_emails === undefined
          ? {}
          : { marketingEmails: changes.marketing_emails }),
        ...(changes.minimum_payout === undefined
          ? {}
          : { minimumPayoutMicros: dollarsToMicroDollars(changes.minimum_payout) }),
        updatedAt: clock(),
      });
      return toSettings(updated ?? (await findUser(userId)));
    },
  };
}

export type SettingsService = ReturnType<typeof createSettingsService>;
