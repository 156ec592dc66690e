import type { NotificationKind } from '@fabric/contract';
import type { Repositories } from '../repositories/index.ts';

export interface NotificationEvent {
  userId: string;
  kind: NotificationKind;
  title: string;
  body: string;
  link?: string | null;
  /** The same event notifies once, even when two processes see it. */
  dedupeKey?: string | null;
  now: Date;
}

/**
 * Stores a notification for a real event, inside the transaction of that event, honouring the
 * user's switches: Credit Low Alerts gates credits_low, Job Notifications gates a provider's job
 * news, Email Notifications adds an email (sent by the mail dispatcher after commit).
 */
export async function notify(repositories: Repositories, event: NotificationEvent): Promise<void> {
  const user = await repositories.users.findById(event.userId);
  if (!user || user.deletedAt) return;
  if (event.kind === 'credits_low' && !user.creditLowAlerts) return;
  const isJobNews = event.kind === 'job_completed' || event.kind === 'job_failed';
  if (isJobNews && user.role === 'node_provider' && !user.jobNotifications) return;
  await repositories.notifications.insert({
    userId: user.id,
    kind: event.kind,
    title: event.title,
    body: event.body,
    link: event.link ?? null,
    dedupeKey: event.dedupeKey ?? null,
    isEmailPending: user.emailNotifications,
    createdAt: event.now,
  });
}
